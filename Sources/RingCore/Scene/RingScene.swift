#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ring resolved for drawing, in no output format: every element in image pixels with its
/// final colours, the dark-scheme alternates for `theme=auto`, the animation and the accessible
/// title. The SVG writer serialises a scene; a rasteriser reads the same one, so colour, theme
/// and label rules live here, once.
///
/// Elements are listed in painting order: background, fill, then of every ring (outermost
/// first) the tracks, the outlines, the bars' shadows and the bars, and last the label and the
/// caption. One shadow and one animation serve every bar.
public struct RingScene: Sendable, Equatable {
    public typealias Arc = RingGeometry.Arc

    /// A colour, and the one to use instead under `prefers-color-scheme: dark` when the ring
    /// follows the reader's scheme (`theme=auto` with no colour of the URL's own).
    public struct SchemeColor: Sendable, Equatable {
        public var color: RingColor
        public var dark: RingColor?
    }

    /// A stroke along the ring's centre line (or a circle concentric with it).
    public struct Stroke: Sendable, Equatable {
        public var arc: Arc
        public var radius: Double
        public var width: Double
        /// The ends' shape; a closed stroke has none.
        public var cap: RingSpec.Cap
        /// The stroke is the whole circle: drawn closed, without caps.
        public var isClosed: Bool

        /// A round-capped stroke shorter than a quarter pixel: drawn as a disc, since renderers
        /// disagree on whether a (nearly) zero-length path shows its caps.
        public var isDot: Bool {
            !isClosed && cap == .round && arc.sweep.magnitude * .pi / 180 * radius < 0.25
        }
    }

    public struct Track: Sendable, Equatable {
        /// The whole usable arc.
        public var stroke: Stroke
        public var color: SchemeColor
        /// With `segments`, what is drawn instead of `stroke`: one stroke per segment.
        public var segments: [Stroke] = []
    }

    /// A thin stroke around the whole track shape, `offset` outside its edges: on a full
    /// ring two circles, on an open arc one closed contour that also goes round the track's
    /// caps (semicircles for round caps, straight across for butt ones).
    public struct Outline: Sendable, Equatable {
        /// The track's centre line.
        public var arc: Arc
        public var radius: Double
        /// From the track's centre line to the outline's: half the track and half the outline.
        public var offset: Double
        public var cap: RingSpec.Cap
        public var isClosed: Bool
        public var width: Double
        public var color: RingColor
    }

    /// Colours spread evenly along the usable arc (`span` degrees from the bar's start), as on
    /// a gauge: a low value shows only the first colours.
    public struct Gradient: Sendable, Equatable {
        public var stops: [RingColor]
        public var span: Double

        /// The colour at `position` (0…1) along the usable arc.
        public func color(at position: Double) -> RingColor {
            let scaled = position.clamped(to: 0...1) * Double(stops.count - 1)
            let index = min(Int(scaled), stops.count - 2)
            return stops[index].mixed(with: stops[index + 1], by: scaled - Double(index))
        }
    }

    public struct Bar: Sendable, Equatable {
        public enum Paint: Sendable, Equatable {
            case solid(RingColor)
            case gradient(Gradient)

            /// The paint's opacity, for its shadow: a solid colour's, or the most opaque stop's.
            public var alpha: UInt8 {
                switch self {
                case .solid(let color): color.alpha
                case .gradient(let gradient): gradient.stops.map(\.alpha).max() ?? 255
                }
            }
        }

        /// The bar's whole extent (with segments, from the first filled one to the value).
        public var stroke: Stroke
        public var paint: Paint
        /// The solid colour to use instead under `prefers-color-scheme: dark`: a ring of the
        /// default palette under `theme=auto` with no background of its own.
        public var dark: RingColor?
        /// With `segments`, what is drawn instead of `stroke`: the filled segments, the last cut
        /// at the value.
        public var segments: [Stroke] = []

        public init(stroke: Stroke, paint: Paint, dark: RingColor? = nil, segments: [Stroke] = []) {
            self.stroke = stroke
            self.paint = paint
            self.dark = dark
            self.segments = segments
        }
    }

    /// One of the concentric rings.
    public struct Ring: Sendable, Equatable {
        public var track: Track?
        public var outline: Outline?
        /// Nil at 0 %, so round caps leave no dot.
        public var bar: Bar?

        public init(track: Track? = nil, outline: Outline? = nil, bar: Bar? = nil) {
            self.track = track
            self.outline = outline
            self.bar = bar
        }
    }

    public struct Disc: Sendable, Equatable {
        public var radius: Double
        public var color: RingColor
    }

    /// A soft black shadow of the bar: the bar's alpha blurred, offset downwards, at `opacity`.
    public struct Shadow: Sendable, Equatable {
        public var blur: Double
        public var offset: Double
        public var opacity: Double
    }

    public struct Label: Sendable, Equatable {
        public var text: String
        public var x: Double
        public var baseline: Double
        /// 0 when the text has no width to size it by: nothing is drawn.
        public var fontSize: Double
        public var color: SchemeColor
    }

    public var width: Double
    public var height: Double
    public var centerX: Double
    public var centerY: Double
    /// The accessible name: `title`, or every ring's percentage (`72%, 45%, 90%`).
    public var title: String
    public var background: RingColor?
    /// Inside the innermost ring.
    public var fill: Disc?
    /// Outermost first; at least one.
    public var rings: [Ring]
    /// Only with a bar.
    public var shadow: Shadow?
    /// Seconds of the fill-in animation; only with a bar. The static scene is the final frame.
    public var animation: Double?
    public var label: Label?
    /// The second, smaller line under the label.
    public var caption: Label?
}

extension RingScene {
    /// Resolves `spec`: layout, colours for its scheme, label text.
    public init(spec: borrowing RingSpec) {
        // One ring, the common case, builds no array of them.
        let first = Self.percentageText(spec, ring: 0)
        let others = spec.ringCount > 1 ? (1..<spec.ringCount).map { Self.percentageText(spec, ring: $0) } : []
        // Each percentage as wide as the widest its decimals produce within the range, for sizing.
        let widest = Self.widestPercentageText(decimals: spec.decimals)
        func sized(_ text: String) -> String { TextWidth.em(text) >= TextWidth.em(widest) ? text : widest }
        let sizingFirst = sized(first)
        let sizingOthers = others.map(sized)
        func line(_ text: String) -> RingGeometry.TextLine {
            let showsNumber = text.utf8.contains(UInt8(ascii: "{")) && text != Self.substitute(text, "", [])
            return RingGeometry.TextLine(
                text: Self.substitute(text, first, others), sizing: Self.substitute(text, sizingFirst, sizingOthers),
                mayShorten: !showsNumber)
        }
        let labelLine: RingGeometry.TextLine?
        switch spec.label {
        case .auto: labelLine = RingGeometry.TextLine(text: first, sizing: sizingFirst, mayShorten: false)
        case .none: labelLine = nil
        case .text(let text): labelLine = line(text)
        }
        let g = RingGeometry(spec: spec, label: labelLine, caption: spec.caption.map(line))
        let dark = spec.theme == .dark
        // A ring on a colour of its own does not switch with the reader's scheme: the track is
        // chosen for the background, the label for the fill under it and the background.
        let trackLayers = [spec.background].compactMap { $0 }
        let labelLayers = [spec.fill, spec.background].compactMap { $0 }

        width = g.width
        height = g.height
        centerX = g.centerX
        centerY = g.centerY
        title = spec.title ?? (others.isEmpty ? first : ([first] + others).joined(separator: ", "))
        background = spec.background
        let innermost = g.rings[g.rings.count - 1]
        fill = spec.fill.map { Disc(radius: max(innermost.radius - g.trackWidth / 2, 0), color: $0) }
        let standardTrack =
            trackLayers.isEmpty
            ? SchemeColor(
                color: dark ? DefaultColors.darkTrack : DefaultColors.lightTrack,
                dark: spec.theme == .auto ? DefaultColors.darkTrack : nil)
            : Self.choose(on: trackLayers, theme: spec.theme, Self.trackColor)
        let trackClosed = g.track.sweep.magnitude >= 360
        // The bar's colour: by value with thresholds, else the given or default one; a gradient's
        // is the colour where the bar ends (what `labelColor=bar` follows).
        let gradient = spec.gradient.isEmpty ? nil : Gradient(stops: spec.gradient, span: g.track.sweep.magnitude)
        var firstBarColor = DefaultColors.bar
        var hasBar = false
        var hasLength = false  // a bar that is not a dot, so there is something to animate
        var rings: [Ring] = []
        rings.reserveCapacity(g.rings.count)
        for index in g.rings.indices {
            let layout = g.rings[index]
            let given = spec.ring(index)
            let trackStroke = Stroke(
                arc: g.track, radius: layout.radius, width: g.trackWidth, cap: spec.cap, isClosed: trackClosed)
            let trackSegments =
                layout.trackSegments.isEmpty
                ? []
                : layout.trackSegments.map {
                    Stroke(arc: $0, radius: layout.radius, width: g.trackWidth, cap: spec.cap, isClosed: false)
                }
            let track: Track?
            switch given.track {
            case .none: track = nil
            case .color(let color):
                track = Track(stroke: trackStroke, color: SchemeColor(color: color, dark: nil), segments: trackSegments)
            case .standard: track = Track(stroke: trackStroke, color: standardTrack, segments: trackSegments)
            }
            let outline = spec.outline.map { color in
                Outline(
                    arc: g.track, radius: layout.radius, offset: g.trackWidth / 2 + g.outlineWidth / 2, cap: spec.cap,
                    isClosed: trackClosed, width: g.outlineWidth, color: color)
            }
            let palette = Self.paletteColor(index, on: trackLayers, theme: spec.theme)
            let solid = spec.thresholds?.color(for: given.value) ?? given.color ?? palette.color
            let solidDark = spec.thresholds == nil && given.color == nil ? palette.dark : nil
            if index == 0 {
                firstBarColor = gradient.map { $0.color(at: (layout.bar?.sweep.magnitude ?? 0) / $0.span) } ?? solid
            }
            var bar: Bar?
            if let arc = layout.bar {
                let stroke = Stroke(
                    arc: arc, radius: layout.radius, width: g.barWidth, cap: spec.cap, isClosed: layout.barIsClosed)
                let segments =
                    layout.barSegments.isEmpty
                    ? []
                    : layout.barSegments.map {
                        Stroke(arc: $0, radius: layout.radius, width: g.barWidth, cap: spec.cap, isClosed: false)
                    }
                bar = Bar(
                    stroke: stroke, paint: gradient.map { .gradient($0) } ?? .solid(solid),
                    dark: gradient == nil ? solidDark : nil, segments: segments)
                hasBar = true
                hasLength = hasLength || !stroke.isDot
            }
            rings.append(Ring(track: track, outline: outline, bar: bar))
        }
        self.rings = rings
        shadow = spec.shadow && hasBar ? Shadow(blur: g.shadowBlur, offset: g.shadowOffset, opacity: 0.35) : nil
        // A dot has no length to fill in along.
        animation = spec.animation > 0 && hasLength ? spec.animation : nil
        let barColor = firstBarColor
        label = g.labelText.map { text in
            let color: SchemeColor
            switch spec.labelColor {
            case .color(let given)?: color = SchemeColor(color: given, dark: nil)
            case .bar?: color = SchemeColor(color: barColor, dark: nil)
            case nil:
                color = Self.textColor(
                    light: DefaultColors.lightLabel, dark: DefaultColors.darkLabel, on: labelLayers, theme: spec.theme)
            }
            return Label(text: text, x: g.centerX, baseline: g.labelBaseline, fontSize: g.fontSize, color: color)
        }
        caption = g.captionText.map { text in
            let color =
                spec.captionColor.map { SchemeColor(color: $0, dark: nil) }
                ?? Self.captionColor(
                    on: labelLayers, theme: spec.theme)
            return Label(
                text: text, x: g.centerX, baseline: g.captionBaseline, fontSize: g.captionFontSize, color: color)
        }
    }

    /// Label or caption text with `{p}` (the first ring) and `{p1}`…`{p4}` (each ring) replaced
    /// by the percentages: the first ring's, then the others'. Validation has refused
    /// placeholders of rings that do not exist.
    static func substitute(_ text: String, _ first: String, _ others: [String]) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = text.replacing("{p}", with: first).replacing("{p1}", with: first)
        for (index, percentage) in others.enumerated() {
            result = result.replacing("{p\(index + 2)}", with: percentage)
        }
        return result
    }

    /// The default colour of text (the label, the caption): the scheme's own, switching under
    /// `theme=auto`, when nothing lies under it; else chosen for the `layers` under it (top
    /// first), preferring the scheme's colour where it reads at ``minimumLabelContrast``.
    static func textColor(light: RingColor, dark: RingColor, on layers: [RingColor], theme: RingSpec.Theme)
        -> SchemeColor
    {
        let preferred = theme == .dark ? dark : light
        guard !layers.isEmpty else { return SchemeColor(color: preferred, dark: theme == .auto ? dark : nil) }
        return choose(on: layers, theme: theme) { labelColor(on: $0, preferring: preferred) }
    }

    /// Ring `index`'s default bar colour from ``DefaultColors/barPalette``: the scheme's form,
    /// switching under `theme=auto`; on a background of the URL's own, the form that suits it.
    static func paletteColor(_ index: Int, on layers: [RingColor], theme: RingSpec.Theme) -> SchemeColor {
        let entry = DefaultColors.barPalette[index % DefaultColors.barPalette.count]
        guard !layers.isEmpty else {
            let switches = theme == .auto && entry.dark != entry.light
            return SchemeColor(color: theme == .dark ? entry.dark : entry.light, dark: switches ? entry.dark : nil)
        }
        return choose(on: layers, theme: theme) { surface in
            trackColor(on: surface) == DefaultColors.darkTrack ? entry.dark : entry.light
        }
    }

    /// The default caption colour: the scheme's own when nothing lies under it; else, for
    /// each surface, a muted colour that keeps the hierarchy, reading at least
    /// ``minimumCaptionContrast`` but less than the label the ring would choose there.
    static func captionColor(on layers: [RingColor], theme: RingSpec.Theme) -> SchemeColor {
        let preferredLabel = theme == .dark ? DefaultColors.darkLabel : DefaultColors.lightLabel
        guard !layers.isEmpty else {
            return SchemeColor(
                color: theme == .dark ? DefaultColors.darkCaption : DefaultColors.lightCaption,
                dark: theme == .auto ? DefaultColors.darkCaption : nil)
        }
        return choose(on: layers, theme: theme) { surface in
            mutedColor(on: surface, below: labelColor(on: surface, preferring: preferredLabel))
        }
    }

    /// The least contrast a caption chosen by the ring keeps: WCAG's for large text, since it
    /// stays below its label, which keeps ``minimumLabelContrast``.
    public static let minimumCaptionContrast = 3.0

    /// A colour on `surface` with less contrast than `label` and at least
    /// ``minimumCaptionContrast``: a scheme's caption colour when one fits, else the label's
    /// colour moved towards the surface until its contrast is halfway between the two limits.
    static func mutedColor(on surface: RingColor, below label: RingColor) -> RingColor {
        let ceiling = label.contrast(with: surface)
        for candidate in [DefaultColors.lightCaption, DefaultColors.darkCaption] {
            let contrast = candidate.contrast(with: surface)
            if contrast >= minimumCaptionContrast, contrast < ceiling { return candidate }
        }
        guard ceiling > minimumCaptionContrast else { return label }  // no room below the label
        let target = (minimumCaptionContrast + ceiling) / 2
        var (low, high) = (0.0, 1.0)  // how far towards the surface: contrast falls as it grows
        for _ in 0..<20 {
            let middle = (low + high) / 2
            if label.mixed(with: surface, by: middle).contrast(with: surface) >= target {
                low = middle
            } else {
                high = middle
            }
        }
        return label.mixed(with: surface, by: low)
    }

    /// WCAG's minimum contrast for text, which a label chosen by the ring keeps.
    public static let minimumLabelContrast = 4.5

    /// What the reader sees under the label or the track: `layers` (top first) composited
    /// over the page; nil when they leave the page showing, so the result depends on it.
    static func surface(_ layers: [RingColor], page: RingColor) -> RingColor {
        layers.reversed().reduce(page) { below, layer in layer.over(below) }
    }

    /// Whether layers cover the page completely.
    static func isOpaque(_ layers: [RingColor]) -> Bool {
        layers.contains { $0.alpha == 255 }
    }

    /// A colour that reads on `layers` (top first): for `light` over a white page, `dark` a black
    /// one; for `auto` the same colour in both schemes when the layers are opaque, else one
    /// for each. `pick` chooses for one seen colour.
    static func choose(
        on layers: [RingColor], theme: RingSpec.Theme, _ pick: (RingColor) -> RingColor
    ) -> SchemeColor {
        let white = RingColor(rgb: 0xFFFFFF)
        let black = RingColor(rgb: 0x000000)
        switch theme {
        case .light: return SchemeColor(color: pick(surface(layers, page: white)), dark: nil)
        case .dark: return SchemeColor(color: pick(surface(layers, page: black)), dark: nil)
        case .auto:
            let light = pick(surface(layers, page: white))
            guard !isOpaque(layers) else { return SchemeColor(color: light, dark: nil) }
            let dark = pick(surface(layers, page: black))
            return SchemeColor(color: light, dark: dark == light ? nil : dark)
        }
    }

    /// A label colour for a label seen on `surface`: the preferred scheme colour when it
    /// reads at ``minimumLabelContrast``, else the other scheme's, else black or white,
    /// whichever reads better (one of them always does).
    static func labelColor(on surface: RingColor, preferring preferred: RingColor) -> RingColor {
        let other = preferred == DefaultColors.darkLabel ? DefaultColors.lightLabel : DefaultColors.darkLabel
        let candidates = [preferred, other, RingColor(rgb: 0x000000), RingColor(rgb: 0xFFFFFF)]
        return candidates.first { $0.contrast(with: surface) >= minimumLabelContrast }
            ?? candidates.max { $0.contrast(with: surface) < $1.contrast(with: surface) }!
    }

    /// The default track colour that suits `surface`: the dark scheme's on a dark surface.
    static func trackColor(on surface: RingColor) -> RingColor {
        DefaultColors.darkLabel.contrast(with: surface) > DefaultColors.lightLabel.contrast(with: surface)
            ? DefaultColors.darkTrack : DefaultColors.lightTrack
    }

    /// The percentage as the label shows it, e.g. `72%` or `72.50%` with `decimals=2`.
    ///
    /// It never claims more or less than the ring shows: a ring with a mark (above 0 %) whose
    /// value rounds to 0 at its precision reads `<1%` (`<0.1%`), since rounding up to `1%` would
    /// overstate 0.001 % a thousand times; an open ring (below 100 %) whose value rounds to 100
    /// reads the largest value under 100 (`99%`, `99.9%`), which is off by less than one unit
    /// and, unlike `>99%`, no wider than `100%`, so labels keep their size.
    public static func percentageText(_ spec: borrowing RingSpec, ring index: Int = 0) -> String {
        var shown = spec.ring(index).percentage
        let scale = [1.0, 10, 100, 1000][spec.decimals]
        if shown > 0, shown < 100 {
            let units = (shown * scale).rounded(.toNearestOrAwayFromZero)
            if units >= 100 * scale { shown = (100 * scale - 1) / scale }
            if units <= 0 { return text("<", 1 / scale, decimals: spec.decimals) }
        }
        return text(nil, shown, decimals: spec.decimals)
    }

    /// `72%`, or with a sign before it, `<1%`.
    private static func text(_ sign: Unicode.Scalar?, _ value: Double, decimals: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
            var writer = ByteWriter(scratch: scratch)
            if let sign { writer.append(byte: UInt8(sign.value)) }
            writer.append(number: value, decimals: decimals, keepZeros: true)
            writer.append(byte: UInt8(ascii: "%"))
            return writer.text
        }
    }

    /// The widest percentage a value within its range reads at `decimals`: `100%` (`<1%` and
    /// `99%` are narrower in the label's font). Labels are sized for it, so neighbouring values
    /// never change the label's size; a value beyond the range that needs more digits is sized
    /// for its own text.
    static func widestPercentageText(decimals: Int) -> String {
        text(nil, 100, decimals: decimals)
    }

    /// The point at `degrees` clockwise from 12 o'clock, `radius` from the centre.
    public func point(at degrees: Double, radius: Double) -> (x: Double, y: Double) {
        let radians = degrees * .pi / 180
        return (centerX + radius * sin(radians), centerY - radius * cos(radians))
    }
}
