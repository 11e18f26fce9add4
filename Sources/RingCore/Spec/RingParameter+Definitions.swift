extension RingParameter.Definition {
    /// Every parameter of the contract, in ``RingParameter`` order, which is also the order of
    /// the canonical key. Adding a parameter means a case, an entry here, a `RingSpec` field,
    /// its cases in `assign` and ``RingParameter/writeKey(of:into:)``, its effect on the scene
    /// and a golden example; the compiler asks for both cases, and `ParameterTableTests` fails
    /// until the entry, the canonical key, the playground and the docs all know it.
    public static let all: [RingParameter.Definition] = [
        .init(
            .p, .value, title: "Value",
            summary: "the value; a list draws concentric rings, the first outermost", kind: .decimal(range: nil),
            values: "decimal, |p| ≤ 1e12; or \(RingLimits.text(RingLimits.rings)) comma-separated, one per ring",
            default: "required", literal: nil, example: "50", perRing: true),
        .init(
            .min, .value, title: "Min", summary: "the value at an empty ring", kind: .decimal(range: nil),
            values: "decimal, below max; or one per ring", default: "0", literal: "0", example: "-10", perRing: true),
        .init(
            .max, .value, title: "Max", summary: "the value at a full ring", kind: .decimal(range: nil),
            values: "decimal, above min; or one per ring", default: "100", literal: "100", example: "250",
            perRing: true),
        .init(
            .slice, .shape, title: "Gap", summary: "fraction of the circle left open, centred opposite start",
            kind: .decimal(range: RingLimits.slice), values: RingLimits.text(RingLimits.slice), default: "0",
            literal: "0",
            example: "0.25"),
        .init(
            .half, .shape, title: "Half gauge",
            summary: "semicircle gauge from 9 over 12 to 3 o'clock, cropped to the upper half", kind: .boolean,
            values: "boolean", default: "false", literal: "0", example: "1"),
        .init(
            .start, .shape, title: "Start angle", summary: "rotation in degrees, clockwise from 12 o'clock",
            kind: .decimal(range: nil), values: "decimal", default: "0", literal: "0", example: "90"),
        .init(
            .dir, .shape, title: "Direction", summary: "direction the bar grows",
            kind: .keyword(QueryValue.keywords(RingSpec.Direction.self)), values: "cw, ccw", default: "cw",
            literal: "cw",
            example: "ccw"),
        .init(
            .segments, .shape, title: "Segments", summary: "the arc split into equal segments with gaps",
            kind: .integer(range: RingLimits.segments), values: "whole number \(RingLimits.text(RingLimits.segments))",
            default: "none", literal: nil, example: "5"),
        .init(
            .segmentGap, .shape, title: "Segment gap", summary: "gap between segments in px, along the centre line",
            kind: .length(RingLimits.segmentGap), values: RingLimits.segmentGap.rule, default: "size/40", literal: nil,
            example: "6"),
        .init(
            .size, .size, title: "Size", summary: "image width (and height, unless half) in px",
            kind: .integer(range: RingLimits.size), values: "whole number \(RingLimits.text(RingLimits.size))",
            default: "120", literal: "120", example: "200"),
        .init(
            .scale, .size, title: "PNG scale", summary: "pixel multiplier of /ring.png; no effect on SVG",
            kind: .integer(range: RingLimits.scale), values: "whole number \(RingLimits.text(RingLimits.scale))",
            default: "1", literal: "1", example: "2"),
        .init(
            .width, .size, title: "Bar width", summary: "bar thickness in px", kind: .length(RingLimits.strokeWidth),
            values: RingLimits.strokeWidth.rule, default: "size/10", literal: nil, example: "20"),
        .init(
            .trackWidth, .size, title: "Track width", summary: "track thickness in px",
            kind: .length(RingLimits.strokeWidth), values: RingLimits.strokeWidth.rule, default: "width", literal: nil,
            example: "6"),
        .init(
            .gap, .size, title: "Ring gap", summary: "space between concentric rings in px",
            kind: .length(RingLimits.ringGap), values: RingLimits.ringGap.rule, default: "size/60", literal: nil,
            example: "6"),
        .init(
            .color, .colour, title: "Bar colour", summary: "bar colour",
            kind: .color(light: DefaultColors.bar, dark: DefaultColors.bar, allowsNone: false),
            values: "colour; or one per ring", default: "#2f81f7", literal: nil, example: "e5534b", perRing: true),
        .init(
            .gradient, .colour, title: "Gradient",
            summary: "bar colour along the arc, from the first colour to the last; overrides color",
            kind: .colors(count: RingLimits.gradientColors),
            values: "\(RingLimits.text(RingLimits.gradientColors)) "
                + "comma-separated colours",
            default: "none", literal: nil, example: "22c55e,ef4444"),
        .init(
            .track, .colour, title: "Track colour", summary: "track (remaining part) colour",
            kind: .color(light: DefaultColors.lightTrack, dark: DefaultColors.darkTrack, allowsNone: true),
            values: "colour or none; or one per ring",
            default: "#e1e4e8, dark scheme #30363d", literal: nil, example: "none", perRing: true),
        .init(
            .thresholds, .colour, title: "Thresholds", summary: "bar colour by value: BASE below the first step",
            kind: .thresholds(steps: RingLimits.thresholdSteps),
            values: "BASE,V1:C1,… with \(RingLimits.text(RingLimits.thresholdSteps)) steps, values increasing",
            default: "none", literal: nil, example: "ef4444,50:eab308,80:22c55e"),
        .init(
            .fill, .colour, title: "Fill", summary: "disc inside the ring",
            kind: .color(light: nil, dark: nil, allowsNone: true), values: "colour or none", default: "none",
            literal: "none",
            example: "eef6ff"),
        .init(
            .bg, .colour, title: "Background", summary: "background of the whole image",
            kind: .color(light: nil, dark: nil, allowsNone: true), values: "colour or none", default: "none",
            literal: "none",
            example: "0d1117"),
        .init(
            .outline, .colour, title: "Outline", summary: "thin rings along the outer and inner edge of the track",
            kind: .color(light: nil, dark: nil, allowsNone: true), values: "colour or none", default: "none",
            literal: "none",
            example: "8b949e"),
        .init(
            .cap, .shape, title: "Caps", summary: "bar ends", kind: .keyword(QueryValue.keywords(RingSpec.Cap.self)),
            values: "round, butt", default: "round", literal: "round", example: "butt"),
        .init(
            .label, .text, title: "Label", summary: "centre text",
            kind: .text(limit: RingLimits.labelScalars),
            values: "auto (the percentage), none, or text of at most \(RingLimits.labelScalars) characters "
                + "in which {p} stands for the percentage",
            default: "auto", literal: "auto", example: "{p} done"),
        .init(
            .labelColor, .colour, title: "Label colour", summary: "label colour; bar: the bar's colour",
            kind: .color(light: DefaultColors.lightLabel, dark: DefaultColors.darkLabel, allowsNone: false),
            values: "colour or bar",
            default: "#24292f, dark scheme #e6edf3", literal: nil, example: "cf222e"),
        .init(
            .caption, .text, title: "Caption", summary: "a second, smaller line under the label",
            kind: .text(limit: RingLimits.captionScalars),
            values: "text of at most \(RingLimits.captionScalars) characters in which {p} stands for the percentage",
            default: "none", literal: nil, example: "coverage"),
        .init(
            .captionColor, .colour, title: "Caption colour", summary: "caption colour",
            kind: .color(light: DefaultColors.lightCaption, dark: DefaultColors.darkCaption, allowsNone: false),
            values: "colour", default: "#57606a, dark scheme #8b949e", literal: nil, example: "0969da"),
        .init(
            .decimals, .value, title: "Decimals", summary: "digits after the point in the percentage",
            kind: .integer(range: RingLimits.decimals), values: RingLimits.text(RingLimits.decimals), default: "0",
            literal: "0",
            example: "2"),
        .init(
            .theme, .effects, title: "Theme", summary: "colour scheme",
            kind: .keyword(QueryValue.keywords(RingSpec.Theme.self)), values: "light, dark, auto", default: "auto",
            literal: "auto",
            example: "dark"),
        .init(
            .anim, .effects, title: "Animation", summary: "seconds of a fill-in animation when the image loads",
            kind: .decimal(range: RingLimits.animation),
            values: "\(RingLimits.text(RingLimits.animation)) (0 is static)", default: "0", literal: "0",
            example: "1.5"),
        .init(
            .shadow, .effects, title: "Shadow", summary: "soft drop shadow under the bar", kind: .boolean,
            values: "boolean", default: "false", literal: "0", example: "1"),
        .init(
            .title, .text, title: "Title", summary: "accessible name (<title> and aria-label)",
            kind: .text(limit: RingLimits.titleScalars),
            values: "text of at most \(RingLimits.titleScalars) characters", default: "the percentage", literal: nil,
            example: "Coverage"),
    ]

    /// Each parameter's name bytes, by position: the parser matches every name of every query
    /// against these.
    static let names: [[UInt8]] = all.map(\.nameBytes)
}
