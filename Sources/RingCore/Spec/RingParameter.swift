/// The names of the URL query parameters: the public contract, in canonical-key order. Any
/// other name is an error, except ``cacheBuster``.
///
/// Each parameter is declared once, in the table below (`declare(to:in:)`): its field,
/// grammar, range, default, normalisation and help. The parser, validation, the canonical key, error
/// texts, `ring render --help`, the playground's controls and the tables in
/// docs/parameters.md all come from there.
public enum RingParameter: String, Sendable, CaseIterable {
    case p, min, max, stack, target, src, field, maxField, from, to, slice, half, start, dir, overflow, segments,
        segmentGap,
        ticks,
        size, scale, width
    case trackWidth, gap, color, gradient, track, targetColor, tickColor
    case thresholds, fill, bg, outline, cap, label, labelColor, caption, captionColor, decimals, locale, theme, anim
    case shadow, title, parts

    /// The one name that is not a parameter and is still accepted, and ignored: `&v=2` makes
    /// a new URL, for caches keyed by URL (GitHub's image proxy), with the same ring, the same
    /// canonical key and the same ETag.
    public static let cacheBuster = "v"

    /// Every case in order, built once (`allCases` builds a new array at each use).
    static let ordered: [RingParameter] = allCases

    /// This parameter's declaration.
    public var definition: Definition {
        Definition.all[Self.ordered.firstIndex(of: self)!]
    }
}

extension RingParameter {
    /// The parameter table: every parameter of the contract, in ``RingParameter`` order (the
    /// order of the canonical key), each declared once with its field, its codec (grammar,
    /// range, default, normalisation) and its help.
    ///
    /// The parser, validation, normalisation, the canonical key, ``Definition/all`` (help
    /// texts, the playground, docs/parameters.md) are each a visitor walked over this list.
    /// `ParameterTableTests` fails when a case is missing here or out of order, and checks
    /// every declaration against what the parser does. Rules between parameters are not
    /// here: they are declared once in `RingSpec+Validation.swift`.
    @inline(__always)
    static func declare<Visitor: ParameterVisitor & ~Copyable>(to v: inout Visitor, in spec: inout RingSpec)
        throws(Visitor.Failure)
    {
        try v.visit(
            .p, \.values, PerRing(DecimalGrammar(onScale: true), .required, perPart: true),
            ParameterAbout(
                .value, "Value",
                "the value; a list draws concentric rings, the first outermost, or with stack parts of one ring",
                example: "50",
                default: "required", aliases: ["value", "percent", "progress", "pct"]),
            in: &spec)
        try v.visit(
            .min, \.minimum, PerRing(DecimalGrammar(), .item(RingSpec.standardMinimum)),
            ParameterAbout(
                .value, "Min", "the value at an empty ring; below max", example: "-10",
                aliases: ["minimum", "minValue"]), in: &spec)
        try v.visit(
            .max, \.maximum, PerRing(SumOr(DecimalGrammar()), .item(RingSpec.standardMaximum)),
            ParameterAbout(
                .value, "Max", "the value at a full ring; above min; sum: a stack's parts fill the ring",
                example: "250", aliases: ["maximum", "maxValue", "total"]), in: &spec)
        try v.visit(
            .stack, \.stack, Standard(FlagGrammar(), false),
            ParameterAbout(
                .value, "Stack", "the values of p are parts of one ring, end to end, instead of concentric rings",
                example: "1", default: "false", aliases: ["stacked"]), in: &spec)
        try v.visit(
            .target, \.targets, PerRing(NoneOr(DecimalGrammar(onScale: true)), .item(nil)),
            ParameterAbout(
                .value, "Target", "a marker across the track at this value, in the units of p; none skips a ring",
                example: "80", aliases: ["goal"]), in: &spec)
        try v.visit(
            .src, \.source, Absent(SourceGrammar()),
            ParameterAbout(
                .value, "Live source", "a JSON document to read the values from (live values); instead of p",
                example: "https://example.com/coverage.json", default: "none",
                aliases: ["source", "url", "endpoint", "json"]), in: &spec)
        try v.visit(
            .field, \.fields, Standard(FieldPathsGrammar(), []),
            ParameterAbout(
                .value, "Value field", "with src: the path of each ring's value in the document", example: "totals.pct",
                default: "none", aliases: ["path", "query", "valuePath", "jsonPath"]), in: &spec)
        try v.visit(
            .maxField, \.maxFields, Standard(FieldPathsGrammar(), []),
            ParameterAbout(
                .value, "Max field", "with src: the path of max in the document; instead of max", example: "total",
                default: "none", aliases: ["maxPath"]), in: &spec)
        try v.visit(
            .from, \.from, Absent(MomentGrammar()),
            ParameterAbout(
                .value, "From", "time progress: the moment the ring starts to fill; instead of p",
                example: "2026-01-01", default: "none", aliases: ["start_date", "since", "begin"]), in: &spec)
        try v.visit(
            .to, \.to, Absent(MomentGrammar()),
            ParameterAbout(
                .value, "To", "time progress: the moment the ring is full; with from", example: "2027-01-01",
                default: "none", aliases: ["until", "end", "deadline"]), in: &spec)
        try v.visit(
            .slice, \.slice, Standard(DecimalGrammar(range: RingLimits.slice), 0),
            ParameterAbout(
                .shape, "Gap of the slice", "fraction of the circle left open, centred opposite start", example: "0.25",
                aliases: ["opening", "gapFraction"]),
            in: &spec)
        try v.visit(
            .half, \.half, Standard(FlagGrammar(), false),
            ParameterAbout(
                .shape, "Half gauge", "semicircle gauge from 9 over 12 to 3 o'clock, cropped to the upper half",
                example: "1", default: "false"), in: &spec)
        try v.visit(
            .start, \.start, Standard(DecimalGrammar(turns: true), 0),
            ParameterAbout(
                .shape, "Start angle", "rotation in degrees, clockwise from 12 o'clock", example: "90",
                aliases: ["rotation", "rotate", "angle", "startAngle"]),
            in: &spec)
        try v.visit(
            .dir, \.direction, Standard(KeywordGrammar<RingSpec.Direction>(), .cw),
            ParameterAbout(
                .shape, "Direction", "direction the bar grows", example: "ccw", aliases: ["direction", "clockwise"]),
            in: &spec)
        try v.visit(
            .overflow, \.overflow, Standard(KeywordGrammar<RingSpec.Overflow>(), .clamp),
            ParameterAbout(
                .shape, "Overflow", "a value past max: clamp draws a full ring, lap draws further laps over it",
                example: "lap"), in: &spec)
        try v.visit(
            .segments, \.segments, Absent(CountGrammar(range: RingLimits.segments)),
            ParameterAbout(
                .shape, "Segments", "the arc split into equal segments with gaps", example: "5", aliases: ["steps"]),
            in: &spec)
        try v.visit(
            .segmentGap, \.segmentGap, Absent(LengthGrammar(limit: RingLimits.segmentGap, absence: .segmentGap)),
            ParameterAbout(
                .shape, "Gap between segments", "gap between segments in px, along the centre line", example: "6"),
            in: &spec)
        try v.visit(
            .ticks, \.ticks, Absent(CountGrammar(range: RingLimits.ticks, fitted: true)),
            ParameterAbout(.shape, "Ticks", "the arc divided into equal parts by thin marks", example: "10"),
            in: &spec)
        try v.visit(
            .size, \.size, Standard(CountGrammar(range: RingLimits.size), RingSpec.standardSize),
            ParameterAbout(
                .size, "Size", "image width (and height, unless half) in px", example: "200", aliases: ["diameter"]),
            in: &spec)
        try v.visit(
            .scale, \.scale, Standard(CountGrammar(range: RingLimits.scale), 1, identifiesRing: false),
            ParameterAbout(
                .size, "PNG scale", "pixel multiplier of /ring.png; no effect on SVG", example: "2",
            ), in: &spec)
        try v.visit(
            .width, \.width, Absent(LengthGrammar(limit: RingLimits.strokeWidth, absence: .width)),
            ParameterAbout(
                .size, "Bar width", "bar thickness in px", example: "20",
                aliases: ["lineWidth", "stroke", "strokeWidth", "thickness", "barWidth"]), in: &spec)
        try v.visit(
            .trackWidth, \.trackWidth, Absent(LengthGrammar(limit: RingLimits.strokeWidth, absence: .trackWidth)),
            ParameterAbout(.size, "Track width", "track thickness in px", example: "6"), in: &spec)
        try v.visit(
            .gap, \.gap, Absent(LengthGrammar(limit: RingLimits.ringGap, absence: .gap)),
            ParameterAbout(.size, "Gap between rings", "space between concentric rings in px", example: "6"), in: &spec)
        try v.visit(
            .color, \.colors,
            PerRing(ColorGrammar(.bar), .empty, perPart: true),
            ParameterAbout(
                .colour, "Bar colour", "bar colour; with stack, one per part", example: "e5534b",
                default: ColorGrammar(.bar).schemeText,
                aliases: ["barColor", "progressColor", "strokeColor"]), in: &spec
        )
        try v.visit(
            .gradient, \.gradient, Standard(ColorListGrammar(count: RingLimits.gradientColors), []),
            ParameterAbout(
                .colour, "Gradient", "bar colour along the arc, from the first colour to the last; overrides color",
                example: "22c55e,ef4444"), in: &spec)
        try v.visit(
            .track, \.tracks,
            PerRing(ColorOrKeywordGrammar<RingSpec.Paint>(colors: ColorGrammar(.track)), .item(.standard)),
            ParameterAbout(
                .colour, "Track colour", "track (remaining part) colour", example: "none",
                default: ColorGrammar(.track).schemeText, aliases: ["trackColor"]), in: &spec)
        try v.visit(
            .targetColor, \.targetColor, Absent(ColorGrammar(.target)),
            ParameterAbout(
                .colour, "Target colour", "target marker colour", example: "cf222e",
                default: ColorGrammar(.target).schemeText), in: &spec)
        try v.visit(
            .tickColor, \.tickColor, Absent(ColorGrammar(.tick)),
            ParameterAbout(
                .colour, "Tick colour", "tick mark colour", example: "ffffff", default: ColorGrammar(.tick).schemeText),
            in: &spec)
        try v.visit(
            .thresholds, \.thresholds, Absent(ThresholdsGrammar(steps: RingLimits.thresholdSteps)),
            ParameterAbout(
                .colour, "Thresholds", "bar colour by value: BASE below the first step",
                example: "ef4444,50:eab308,80:22c55e"), in: &spec)
        try v.visit(
            .fill, \.fill, Absent(ColorGrammar(), allowsNone: true),
            ParameterAbout(.colour, "Fill", "disc inside the ring", example: "eef6ff", aliases: ["fillColor"]),
            in: &spec)
        try v.visit(
            .bg, \.background, Absent(ColorGrammar(), allowsNone: true),
            ParameterAbout(
                .colour, "Background", "background of the whole image", example: "0d1117",
                aliases: ["background", "backgroundColor", "bgColor"]), in: &spec)
        try v.visit(
            .outline, \.outline, Absent(ColorGrammar(), allowsNone: true),
            ParameterAbout(
                .colour, "Outline", "thin rings along the outer and inner edge of the track", example: "8b949e"),
            in: &spec)
        try v.visit(
            .cap, \.cap, Standard(KeywordGrammar<RingSpec.Cap>(), .round),
            ParameterAbout(.shape, "Caps", "bar ends", example: "butt", aliases: ["lineCap", "strokeLinecap"]),
            in: &spec)
        try v.visit(
            .label, \.label, LabelCodec(text: TextGrammar(limit: RingLimits.labelScalars, placeholders: true)),
            ParameterAbout(.text, "Label", "centre text", example: "{p} done", aliases: ["text", "labelText"]),
            in: &spec)
        try v.visit(
            .labelColor, \.labelColor,
            Absent(ColorOrKeywordGrammar<RingSpec.LabelColor>(colors: ColorGrammar(.label))),
            ParameterAbout(
                .colour, "Label colour", "label colour; bar: the bar's colour", example: "cf222e",
                default: ColorGrammar(.label).schemeText),
            in: &spec)
        try v.visit(
            .caption, \.caption, Absent(TextGrammar(limit: RingLimits.captionScalars, placeholders: true)),
            ParameterAbout(.text, "Caption", "a second, smaller line under the label", example: "coverage"),
            in: &spec)
        try v.visit(
            .captionColor, \.captionColor, Absent(ColorGrammar(.caption)),
            ParameterAbout(
                .colour, "Caption colour", "caption colour", example: "0969da",
                default: ColorGrammar(.caption).schemeText
            ), in: &spec)
        try v.visit(
            .decimals, \.decimals, Standard(CountGrammar(range: RingLimits.decimals), 0),
            ParameterAbout(
                .value, "Decimals", "digits after the point in the percentage", example: "2",
                aliases: ["precision", "digits"]), in: &spec)
        try v.visit(
            .locale, \.locale, Absent(LocaleGrammar()),
            ParameterAbout(
                .text, "Number format", "writes the percentages as this language does (CLDR): 72 %, 72,5 %, %72",
                example: "fr", default: "72%, 72.5%", aliases: ["lang", "language", "hl"]), in: &spec)
        try v.visit(
            .theme, \.theme, Standard(KeywordGrammar<RingSpec.Theme>(), .auto),
            ParameterAbout(
                .effects, "Theme", "colour scheme", example: "dark", aliases: ["scheme", "colorScheme", "mode"]),
            in: &spec)
        try v.visit(
            .anim, \.animation, Standard(DecimalGrammar(range: RingLimits.animation), 0),
            ParameterAbout(
                .effects, "Animation", "seconds of a fill-in animation when the image loads; 0 is static",
                example: "1.5", aliases: ["animation", "animate", "duration"]), in: &spec)
        try v.visit(
            .shadow, \.shadow, Standard(FlagGrammar(), false),
            ParameterAbout(.effects, "Shadow", "soft drop shadow under the bar", example: "1", default: "false"),
            in: &spec)
        try v.visit(
            .title, \.title, Absent(TextGrammar(limit: RingLimits.titleScalars, placeholders: false)),
            ParameterAbout(
                .text, "Title", "accessible name (<title> and aria-label)", example: "Coverage",
                default: "the percentage", aliases: ["alt", "ariaLabel"]),
            in: &spec)
        try v.visit(
            .parts, \.partNames, Standard(NamesGrammar(limit: RingLimits.partNameScalars), []),
            ParameterAbout(
                .text, "Part names", "with stack: each part's name, in the title and aria-label",
                example: "passed,failed,skipped", default: "none", aliases: ["names", "legend"]), in: &spec)
    }
}

extension DerivedLength {
    /// `width`: a tenth of the size, 12 px at the default size.
    static let width = DerivedLength.sizeOver(10)
    /// `trackWidth`: the bar's.
    static let trackWidth = DerivedLength.barWidth
    /// `gap` between concentric rings: size/60, 2 px at the default size.
    static let gap = DerivedLength.sizeOver(60)
    /// `segmentGap`: size/40, 3 px at the default size.
    static let segmentGap = DerivedLength.sizeOver(40)
}

extension SchemeDefault {
    /// What the bar, the track, the label and the caption draw when no colour is given; the
    /// scene reads its defaults from here.
    static let bar = SchemeDefault(light: RingColor(rgb: 0x2F81F7), dark: RingColor(rgb: 0x2F81F7))
    static let track = SchemeDefault(light: RingColor(rgb: 0xE1E4E8), dark: RingColor(rgb: 0x30363D))
    static let label = SchemeDefault(light: RingColor(rgb: 0x24292F), dark: RingColor(rgb: 0xE6EDF3))
    /// Muted: a caption reads below its label, not beside it.
    static let caption = SchemeDefault(light: RingColor(rgb: 0x57606A), dark: RingColor(rgb: 0x8B949E))
    /// A target marker is drawn in the scheme's text colour.
    static let target = label
    /// A tick is muted too, yet visible on the scheme's track and on the default bar alike: at
    /// least 2:1 against both (#424a53: 7.05 on the light track, 2.40 on #2f81f7; #c9d1d9:
    /// 7.91 on the dark track, 2.43 on the bar), and less than the label's contrast on the
    /// track.
    static let tick = SchemeDefault(light: RingColor(rgb: 0x424A53), dark: RingColor(rgb: 0xC9D1D9))
    /// Each concentric ring's bar, or stacked part's, when no `color` is given, outermost or
    /// first first: distinct hues of one perceived lightness, the default blue's (OKLab L
    /// 0.618), so none dominates; each at least 3:1 against white and against GitHub's dark
    /// `#0d1117` (green 3.45 and 5.48, orange 3.91 and 4.84, purple 4.00 and 4.73, teal 3.50
    /// and 5.40, pink 4.09 and 4.63, olive 3.65 and 5.18, red 4.04 and 4.68), so one colour
    /// serves both schemes. The first is ``bar``, so a single ring is what it always was.
    static let palette: [RingColor] = [
        bar.light,
        RingColor(rgb: 0x3E9C52),  // green
        RingColor(rgb: 0xD15F23),  // orange
        RingColor(rgb: 0x9262F2),  // purple
        RingColor(rgb: 0x07989E),  // teal
        RingColor(rgb: 0xD74396),  // pink
        RingColor(rgb: 0x988602),  // olive
        RingColor(rgb: 0xE54243),  // red
    ]
}

extension RingSpec {
    /// `size` when none is given.
    package static let standardSize = 120
    /// `min` and `max` when none are given.
    package static let standardMinimum = 0.0
    package static let standardMaximum = 100.0
}

extension RingLimits {
    /// `ticks`: marks dividing the arc into 2 to 100 parts.
    package static let ticks: ClosedRange<Int> = 2...100
    /// The least track, in px, between two tick marks where they are closest.
    package static let tickSpacing = 1.0
    /// With `overflow=lap`, the most laps drawn; the label and the title still show the value.
    package static let laps = 10.0
}
