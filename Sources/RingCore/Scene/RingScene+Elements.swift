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
            let shown = spec.values.count  // the rings, or a stack's parts
            let others = shown > 1 ? (1..<shown).map { RingScene.percentageText(spec, ring: $0) } : []
            // Each percentage as wide as the widest its decimals produce within the range, for
            // sizing.
            let widest = RingScene.widestPercentageText(decimals: spec.decimals, spec.locale)
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
            // A ring's target joins its percentage: `64%, target 80%`.
            func named(_ text: String, ring index: Int) -> String {
                guard let target = spec.ring(index).target else { return text }
                return "\(text), target \(RingScene.percentageText(of: target, spec, ring: index))"
            }
            guard !spec.stack else {
                title = RingScene.stackTitle(spec, percentages: [first] + others)
                return
            }
            title =
                others.isEmpty && spec.ring(0).target == nil
                ? first
                : ([first] + others).enumerated().map { named($1, ring: $0) }.joined(separator: ", ")
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
            // Made without a list of optionals to compact: two arrays allocated a ring, and
            // none is needed for a ring without fill and background.
            trackLayers = spec.background.map { [$0] } ?? []
            var labelLayers: [RingColor] = []
            if let fill = spec.fill { labelLayers.append(fill) }
            if let background = spec.background { labelLayers.append(background) }
            self.labelLayers = labelLayers
            let dark = spec.theme == .dark
            standardTrack =
                trackLayers.isEmpty
                ? SchemeColor(
                    color: dark ? SchemeDefault.track.dark : SchemeDefault.track.light,
                    dark: spec.theme == .auto ? SchemeDefault.track.dark : nil)
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

    /// Ring `index`'s solid colour: by value with thresholds, else the given one, else the
    /// palette's.
    @inline(__always)
    static func solidColor(_ spec: borrowing RingSpec, ring index: Int) -> RingColor {
        let given = spec.ring(index)
        return spec.thresholds?.color(for: given.value) ?? given.color ?? paletteColor(index)
    }

    /// The colour `labelColor=bar` follows: the first ring's solid colour (a stack's first
    /// drawn part's), or a gradient's where the bar ends.
    @inline(__always)
    static func barColor(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context) -> RingColor {
        guard let gradient = context.gradient else {
            return spec.stack ? leadingPartColor(spec, g.rings[0]) : solidColor(spec, ring: 0)
        }
        if let laps = g.rings[0].laps { return lapGradient(gradient, laps).color(along: laps.headAlong) }
        return gradient.color(at: (g.rings[0].bar?.sweep.magnitude ?? 0) / gradient.span)
    }

    /// The gradient of a ring that laps: its colours run along the whole value, so the head
    /// always has the last colour, as Apple's rings deepen theirs.
    static func lapGradient(_ gradient: Gradient, _ laps: RingGeometry.Laps, offset: Double = 0) -> Gradient {
        Gradient(stops: gradient.stops, span: laps.count * 360, offset: offset)
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
            let paint = layout.laps.map { lapGradient(gradient, $0, offset: $0.topOffset) } ?? gradient
            return Bar(stroke: stroke, paint: .gradient(paint), segments: segments)
        }
        if spec.stack { return stackBar(spec, layout, stroke: stroke) }
        return Bar(stroke: stroke, paint: .solid(solidColor(spec, ring: index)), segments: segments)
    }

    /// Stacked part `index`'s colour: the given one, else the palette's.
    static func partColor(_ spec: borrowing RingSpec, _ index: Int) -> RingColor {
        spec.part(index).color ?? paletteColor(index)
    }

    /// The colour of a stack's first drawn part (the first part's when none is drawn): its
    /// bar's, and what `labelColor=bar` follows.
    static func leadingPartColor(_ spec: borrowing RingSpec, _ layout: RingGeometry.Ring) -> RingColor {
        partColor(spec, layout.parts.firstIndex { $0 != nil } ?? 0)
    }

    /// A stack's bar: its parts end to end, the first drawn with the bar's start cap and the
    /// last with its end cap. One part drawn, or a bar too short for its caps, is a plain bar
    /// in the first drawn part's colour.
    static func stackBar(_ spec: borrowing RingSpec, _ layout: RingGeometry.Ring, stroke: Stroke) -> Bar {
        var parts: [Part] = []
        for (index, arc) in layout.parts.enumerated() {
            guard let arc else { continue }
            parts.append(
                Part(
                    stroke: Stroke(
                        arc: arc, radius: stroke.radius, width: stroke.width, cap: stroke.cap, isClosed: false,
                        capped: []),
                    color: partColor(spec, index)))
        }
        let paint = Bar.Paint.solid(leadingPartColor(spec, layout))
        guard parts.count > 1, !stroke.isDot else { return Bar(stroke: stroke, paint: paint) }
        if !stroke.isClosed {
            parts[0].stroke.capped.insert(.start)
            parts[parts.count - 1].stroke.capped.insert(.end)
        }
        return Bar(stroke: stroke, paint: paint, parts: parts)
    }

    /// The laps under ring `index`'s top lap `top`, its head's shadow and its head again:
    /// nil unless the value laps.
    static func lap(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, ring index: Int, top: Bar)
        -> Lap?
    {
        guard let laps = g.rings[index].laps else { return nil }
        let radius = g.rings[index].radius
        let start = g.track.start
        let sign: Double = spec.direction == .cw ? 1 : -1
        let head = start + sign * laps.headAlong
        var beneath: Bar?
        if laps.beneath {
            var bar = top
            bar.stroke = Stroke(
                arc: Arc(start: start, sweep: sign * 360), radius: radius, width: g.barWidth, cap: spec.cap,
                isClosed: true)
            if let gradient = context.gradient {
                bar.paint = .gradient(lapGradient(gradient, laps, offset: laps.topOffset - 360))
            }
            beneath = bar
        }
        // The shadow reaches a bar and a half's width past the head's edge (at least 3 px),
        // fading out from 30 %: a soft, long fade, as Apple's rings draw it, where 45 % over half
        // a width read as a hard crescent on thick bars.
        let edge = spec.cap == .round ? g.barWidth / 2 : 0
        let reach = edge + max(g.barWidth * 1.5, 3)
        let shadow = HeadShadow(
            stroke: Stroke(
                arc: Arc(start: head, sweep: sign * reach / radius * 180 / .pi), radius: radius, width: g.barWidth,
                cap: .butt, isClosed: false),
            head: head, fade: edge...reach, opacity: 0.3)
        var cap: Bar?
        if spec.cap == .round {
            let color: RingColor
            switch top.paint {
            case .solid(let solid): color = solid
            case .gradient(let gradient): color = gradient.color(along: laps.headAlong - laps.topOffset)
            }
            cap = Bar(
                stroke: Stroke(
                    arc: Arc(start: head, sweep: 0), radius: radius, width: g.barWidth, cap: .round, isClosed: false),
                paint: .solid(color))
        }
        return Lap(beneath: beneath, shadow: shadow, head: cap)
    }

    /// The tick marks across each ring's track, where a bar at each tick's value ends.
    static func ticks(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, rings: [Ring]) -> Marks? {
        guard spec.ticks != nil else { return nil }
        let color =
            spec.tickColor.map { SchemeColor(color: $0, dark: nil) }
            ?? (context.trackLayers.isEmpty
                ? SchemeColor(
                    color: spec.theme == .dark ? SchemeDefault.tick.dark : SchemeDefault.tick.light,
                    dark: spec.theme == .auto ? SchemeDefault.tick.dark : nil)
                : choose(on: context.trackLayers, theme: spec.theme) { surface in
                    trackColor(on: surface) == SchemeDefault.track.dark
                        ? SchemeDefault.tick.dark : SchemeDefault.tick.light
                })
        let width = RingGeometry.tickWidth(spec)
        var marks: [Marks.Mark] = []
        marks.reserveCapacity(g.rings.reduce(0) { $0 + $1.ticks.count })
        for ring in g.rings {
            for angle in ring.ticks { marks.append(across(ring, at: angle, width: width, g)) }
        }
        // Every bar has a tick on it: the one at 0, where it starts.
        let halo =
            spec.tickColor == nil
            ? Self.halo(for: color, on: rings.compactMap(\.bar), minimum: 2, candidates: SchemeDefault.tick) : nil
        return Marks(marks: marks, width: width, color: color, halo: halo)
    }

    /// A halo for marks of `color` when it reads below `minimum` on one of the `bars` under
    /// them (a solid colour, or each stop of a gradient), in either scheme: per scheme, the
    /// candidate that contrasts more with the marks' colour there.
    private static func halo(for color: SchemeColor, on bars: [Bar], minimum: Double, candidates: SchemeDefault)
        -> SchemeColor?
    {
        let dark = color.dark ?? color.color
        let short = bars.contains { bar in
            bar.colors.contains { color.color.contrast(with: $0) < minimum || dark.contrast(with: $0) < minimum }
        }
        guard short else { return nil }
        func against(_ mark: RingColor) -> RingColor {
            candidates.light.contrast(with: mark) >= candidates.dark.contrast(with: mark)
                ? candidates.light : candidates.dark
        }
        let light = against(color.color)
        let inDark = against(dark)
        return SchemeColor(color: light, dark: color.dark == nil || inDark == light ? nil : inDark)
    }

    /// Every ring's target marker, in `targetColor` or the scheme's text colour. Among ticks it
    /// reaches a quarter of the track into the ring (no further than half the gap to the next
    /// ring in), so it does not read as one more tick.
    static func targets(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, rings: [Ring]) -> Marks? {
        let width = RingGeometry.targetWidth(spec)
        let reach = spec.ticks == nil ? 0 : g.trackWidth / 4
        let innermost = g.rings.count - 1
        let marks = g.rings.enumerated().compactMap { index, ring in
            ring.target.map { angle in
                var mark = across(ring, at: angle, width: width, g)
                mark.inner = max(mark.inner - (index == innermost ? reach : min(reach, spec.resolvedGap / 2)), 0)
                return mark
            }
        }
        guard !marks.isEmpty else { return nil }
        let color =
            spec.targetColor.map { SchemeColor(color: $0, dark: nil) }
            ?? textColor(
                light: SchemeDefault.target.light, dark: SchemeDefault.target.dark, on: context.trackLayers,
                theme: spec.theme)
        // The bars a target lies on: its value is reached, or the ring laps.
        let bars = rings.indices.compactMap { index -> Bar? in
            let values = spec.ring(index)
            guard let target = values.targetFraction,
                values.fraction >= target || (spec.overflow == .lap && values.laps >= 1)
            else { return nil }
            return rings[index].bar
        }
        let halo =
            spec.targetColor == nil
            ? Self.halo(for: color, on: bars, minimum: 3, candidates: SchemeDefault.target) : nil
        return Marks(marks: marks, width: width, color: color, halo: halo)
    }

    /// A mark `width` px thick across `ring`'s track at `angle`; an upright or level one moved
    /// by less than half a pixel so that its edges fall on pixel edges.
    private static func across(_ ring: RingGeometry.Ring, at angle: Double, width: Double, _ g: RingGeometry)
        -> Marks.Mark
    {
        var mark = Marks.Mark(
            angle: angle, inner: max(ring.radius - g.trackWidth / 2, 0), outer: ring.radius + g.trackWidth / 2)
        let quarter = (angle / 90).rounded()
        guard abs(angle / 90 - quarter) < 1e-9 else { return mark }
        // Clockwise across the mark is +x at 12 o'clock, +y at 3, −x at 6 and −y at 9.
        let turn = ((Int(quarter) % 4) + 4) % 4
        let (coordinate, sign) = [(g.centerX, 1.0), (g.centerY, 1), (g.centerX, -1), (g.centerY, -1)][turn]
        mark.shift = sign * ((coordinate - width / 2).rounded() + width / 2 - coordinate)
        return mark
    }

    /// The label, in its given colour, the bar's, or the scheme's on what lies under it.
    @inline(__always)
    static func label(_ spec: borrowing RingSpec, _ g: RingGeometry, _ context: Context, barColor: RingColor?) -> Label?
    {
        g.labelText.map { text in
            let color: SchemeColor
            switch spec.labelColor {
            case .color(let given)?: color = SchemeColor(color: given, dark: nil)
            case .bar?: color = SchemeColor(color: barColor ?? SchemeDefault.bar.light, dark: nil)
            case nil:
                color = textColor(
                    light: SchemeDefault.label.light, dark: SchemeDefault.label.dark, on: context.labelLayers,
                    theme: spec.theme)
            }
            return Label(
                text: text, x: g.centerX, baseline: g.labelBaseline, fontSize: g.fontSize, color: color,
                secondLine: g.labelSecondLine, secondBaseline: g.labelSecondBaseline)
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
