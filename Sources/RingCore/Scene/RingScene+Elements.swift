/// One builder per element of the scene, each from the spec, the layout and what the scene's
/// colours are chosen against.
extension RingScene {
    /// The label's and the caption's lines, with the percentages they show.
    struct Words {
        let label: RingGeometry.TextLine?
        let caption: RingGeometry.TextLine?
        /// The accessible name when no `title` is given: every ring's percentage.
        let title: String

        @inline(__always)
        init(_ spec: borrowing RingSpec) {
            // One ring, the common case, builds no array of them.
            let first = RingScene.percentageText(spec, ring: 0)
            let others =
                spec.ringCount > 1 ? (1..<spec.ringCount).map { RingScene.percentageText(spec, ring: $0) } : []
            // Each percentage as wide as the widest its decimals produce within the range, for
            // sizing.
            let widest = RingScene.widestPercentageText(decimals: spec.decimals)
            func sized(_ text: String) -> String { TextWidth.em(text) >= TextWidth.em(widest) ? text : widest }
            let sizingFirst = sized(first)
            let sizingOthers = others.map(sized)
            func line(_ text: String) -> RingGeometry.TextLine {
                let showsNumber = text.utf8.contains(UInt8(ascii: "{")) && text != RingScene.substitute(text, "", [])
                return RingGeometry.TextLine(
                    text: RingScene.substitute(text, first, others),
                    sizing: RingScene.substitute(text, sizingFirst, sizingOthers), mayShorten: !showsNumber)
            }
            switch spec.label {
            case .auto: label = RingGeometry.TextLine(text: first, sizing: sizingFirst, mayShorten: false)
            case .none: label = nil
            case .text(let text): label = line(text)
            }
            caption = spec.caption.map(line)
            title = others.isEmpty ? first : ([first] + others).joined(separator: ", ")
        }
    }

    /// What every ring's elements share: the surfaces colours are chosen against, the track's
    /// default colour, whether the track is closed, the gradient.
    struct Context {
        /// A ring on a colour of its own does not switch with the reader's scheme: the track is
        /// chosen for the background, the label for the fill under it and the background.
        let trackLayers: [RingColor]
        let labelLayers: [RingColor]
        let standardTrack: SchemeColor
        let trackClosed: Bool
        let gradient: Gradient?

        @inline(__always)
        init(_ spec: borrowing RingSpec, _ g: RingGeometry) {
            trackLayers = [spec.background].compactMap { $0 }
            labelLayers = [spec.fill, spec.background].compactMap { $0 }
            let dark = spec.theme == .dark
            standardTrack =
                trackLayers.isEmpty
                ? SchemeColor(
                    color: dark ? DefaultColors.darkTrack : DefaultColors.lightTrack,
                    dark: spec.theme == .auto ? DefaultColors.darkTrack : nil)
                : RingScene.choose(on: trackLayers, theme: spec.theme, RingScene.trackColor)
            trackClosed = g.track.sweep.magnitude >= 360
            gradient = spec.gradient.isEmpty ? nil : Gradient(stops: spec.gradient, span: g.track.sweep.magnitude)
        }
    }

    /// Ring `index`'s track, in its given colour or the scheme's; nil for `track=none`.
    @inline(__always)
    static func track(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, ring index: Int) -> Track? {
        let layout = g.rings[index]
        let stroke = Stroke(
            arc: g.track, radius: layout.radius, width: g.trackWidth, cap: spec.cap, isClosed: context.trackClosed)
        let segments =
            layout.trackSegments.isEmpty
            ? []
            : layout.trackSegments.map {
                Stroke(arc: $0, radius: layout.radius, width: g.trackWidth, cap: spec.cap, isClosed: false)
            }
        switch spec.ring(index).track {
        case .none: return nil
        case .color(let color):
            return Track(stroke: stroke, color: SchemeColor(color: color, dark: nil), segments: segments)
        case .standard: return Track(stroke: stroke, color: context.standardTrack, segments: segments)
        }
    }

    /// Ring `index`'s outline, when `outline` is given.
    @inline(__always)
    static func outline(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, ring index: Int) -> Outline?
    {
        spec.outline.map { color in
            Outline(
                arc: g.track, radius: g.rings[index].radius, offset: g.trackWidth / 2 + g.outlineWidth / 2,
                cap: spec.cap, isClosed: context.trackClosed, width: g.outlineWidth, color: color)
        }
    }

    /// Ring `index`'s solid colour and its dark alternate: by value with thresholds, else the
    /// given one, else the palette's (which switches with the scheme).
    @inline(__always)
    static func solidColor(
        _ spec: borrowing RingSpec, _ context: Context, ring index: Int
    ) -> (color: RingColor, dark: RingColor?) {
        let given = spec.ring(index)
        let palette = paletteColor(index, on: context.trackLayers, theme: spec.theme)
        let solid = spec.thresholds?.color(for: given.value) ?? given.color ?? palette.color
        return (solid, spec.thresholds == nil && given.color == nil ? palette.dark : nil)
    }

    /// The colour `labelColor=bar` follows: the first ring's solid colour, or a gradient's
    /// where the bar ends.
    @inline(__always)
    static func barColor(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context) -> RingColor {
        guard let gradient = context.gradient else { return solidColor(spec, context, ring: 0).color }
        return gradient.color(at: (g.rings[0].bar?.sweep.magnitude ?? 0) / gradient.span)
    }

    /// Ring `index`'s bar; nil at 0 %, so round caps leave no dot.
    @inline(__always)
    static func bar(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, ring index: Int) -> Bar? {
        let layout = g.rings[index]
        guard let arc = layout.bar else { return nil }
        let stroke = Stroke(
            arc: arc, radius: layout.radius, width: g.barWidth, cap: spec.cap, isClosed: layout.barIsClosed)
        let segments =
            layout.barSegments.isEmpty
            ? []
            : layout.barSegments.map {
                Stroke(arc: $0, radius: layout.radius, width: g.barWidth, cap: spec.cap, isClosed: false)
            }
        if let gradient = context.gradient {
            return Bar(stroke: stroke, paint: .gradient(gradient), dark: nil, segments: segments)
        }
        let solid = solidColor(spec, context, ring: index)
        return Bar(stroke: stroke, paint: .solid(solid.color), dark: solid.dark, segments: segments)
    }

    /// The label, in its given colour, the bar's, or the scheme's on what lies under it.
    @inline(__always)
    static func label(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, barColor: RingColor?) -> Label?
    {
        g.labelText.map { text in
            let color: SchemeColor
            switch spec.labelColor {
            case .color(let given)?: color = SchemeColor(color: given, dark: nil)
            case .bar?: color = SchemeColor(color: barColor ?? DefaultColors.bar, dark: nil)
            case nil:
                color = textColor(
                    light: DefaultColors.lightLabel, dark: DefaultColors.darkLabel, on: context.labelLayers,
                    theme: spec.theme)
            }
            return Label(text: text, x: g.centerX, baseline: g.labelBaseline, fontSize: g.fontSize, color: color)
        }
    }

    /// The caption, in its given colour or the scheme's muted one.
    @inline(__always)
    static func caption(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context) -> Label? {
        g.captionText.map { text in
            let color =
                spec.captionColor.map { SchemeColor(color: $0, dark: nil) }
                ?? captionColor(on: context.labelLayers, theme: spec.theme)
            return Label(
                text: text, x: g.centerX, baseline: g.captionBaseline, fontSize: g.captionFontSize, color: color)
        }
    }
}
