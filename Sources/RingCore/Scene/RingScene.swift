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
package struct RingScene: Sendable, Equatable {
    package typealias Arc = RingGeometry.Arc

    /// A colour, and the one to use instead under `prefers-color-scheme: dark` when the ring
    /// follows the reader's scheme (`theme=auto` with no colour of the URL's own).
    package struct SchemeColor: Sendable, Equatable {
        package var color: RingColor
        package var dark: RingColor?
    }

    /// A stroke along the ring's centre line (or a circle concentric with it).
    package struct Stroke: Sendable, Equatable {
        package var arc: Arc
        package var radius: Double
        package var width: Double
        /// The ends' shape; a closed stroke has none.
        package var cap: RingSpec.Cap
        /// The stroke is the whole circle: drawn closed, without caps.
        package var isClosed: Bool

        /// A round-capped stroke shorter than a quarter pixel: drawn as a disc, since renderers
        /// disagree on whether a (nearly) zero-length path shows its caps.
        package var isDot: Bool {
            !isClosed && cap == .round && arc.sweep.magnitude * .pi / 180 * radius < 0.25
        }
    }

    package struct Track: Sendable, Equatable {
        /// The whole usable arc.
        package var stroke: Stroke
        package var color: SchemeColor
        /// With `segments`, what is drawn instead of `stroke`: one stroke per segment.
        package var segments: [Stroke] = []
    }

    /// A thin stroke around the whole track shape, `offset` outside its edges: on a full
    /// ring two circles, on an open arc one closed contour that also goes round the track's
    /// caps (semicircles for round caps, straight across for butt ones).
    package struct Outline: Sendable, Equatable {
        /// The track's centre line.
        package var arc: Arc
        package var radius: Double
        /// From the track's centre line to the outline's: half the track and half the outline.
        package var offset: Double
        package var cap: RingSpec.Cap
        package var isClosed: Bool
        package var width: Double
        package var color: RingColor
    }

    /// Colours spread evenly along the usable arc (`span` degrees from the bar's start), as on
    /// a gauge: a low value shows only the first colours.
    package struct Gradient: Sendable, Equatable {
        package var stops: [RingColor]
        package var span: Double

        /// The colour at `position` (0…1) along the usable arc.
        package func color(at position: Double) -> RingColor {
            let scaled = position.clamped(to: 0...1) * Double(stops.count - 1)
            let index = min(Int(scaled), stops.count - 2)
            return stops[index].mixed(with: stops[index + 1], by: scaled - Double(index))
        }
    }

    package struct Bar: Sendable, Equatable {
        package enum Paint: Sendable, Equatable {
            case solid(RingColor)
            case gradient(Gradient)

            /// The paint's opacity, for its shadow: a solid colour's, or the most opaque stop's.
            package var alpha: UInt8 {
                switch self {
                case .solid(let color): color.alpha
                case .gradient(let gradient): gradient.stops.map(\.alpha).max() ?? 255
                }
            }
        }

        /// The bar's whole extent (with segments, from the first filled one to the value).
        package var stroke: Stroke
        package var paint: Paint
        /// The solid colour to use instead under `prefers-color-scheme: dark`: a ring of the
        /// default palette under `theme=auto` with no background of its own.
        package var dark: RingColor?
        /// With `segments`, what is drawn instead of `stroke`: the filled segments, the last cut
        /// at the value.
        package var segments: [Stroke] = []

        package init(stroke: Stroke, paint: Paint, dark: RingColor? = nil, segments: [Stroke] = []) {
            self.stroke = stroke
            self.paint = paint
            self.dark = dark
            self.segments = segments
        }
    }

    /// One of the concentric rings.
    package struct Ring: Sendable, Equatable {
        package var track: Track?
        package var outline: Outline?
        /// Nil at 0 %, so round caps leave no dot.
        package var bar: Bar?

        package init(track: Track? = nil, outline: Outline? = nil, bar: Bar? = nil) {
            self.track = track
            self.outline = outline
            self.bar = bar
        }
    }

    package struct Disc: Sendable, Equatable {
        package var radius: Double
        package var color: RingColor
    }

    /// A soft black shadow of the bar: the bar's alpha blurred, offset downwards, at `opacity`.
    package struct Shadow: Sendable, Equatable {
        package var blur: Double
        package var offset: Double
        package var opacity: Double
    }

    package struct Label: Sendable, Equatable {
        package var text: String
        package var x: Double
        package var baseline: Double
        /// 0 when the text has no width to size it by: nothing is drawn.
        package var fontSize: Double
        package var color: SchemeColor
    }

    package var width: Double
    package var height: Double
    package var centerX: Double
    package var centerY: Double
    /// The accessible name: `title`, or every ring's percentage (`72%, 45%, 90%`).
    package var title: String
    package var background: RingColor?
    /// Inside the innermost ring.
    package var fill: Disc?
    /// Outermost first; at least one.
    package var rings: [Ring]
    /// Only with a bar.
    package var shadow: Shadow?
    /// Seconds of the fill-in animation; only with a bar. The static scene is the final frame.
    package var animation: Double?
    package var label: Label?
    /// The second, smaller line under the label.
    package var caption: Label?
}

extension RingScene {
    /// Resolves `spec`: layout, colours for its scheme, label text.
    package init(spec: borrowing RingSpec) {
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

    /// The point at `degrees` clockwise from 12 o'clock, `radius` from the centre.
    package func point(at degrees: Double, radius: Double) -> (x: Double, y: Double) {
        let radians = degrees * .pi / 180
        return (centerX + radius * sin(radians), centerY - radius * cos(radians))
    }
}
