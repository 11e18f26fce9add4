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
        /// The ends `cap` applies to; the others are cut straight across. A stacked part
        /// between others has neither: round caps are only at the stack's ends.
        package var capped: Ends = .both

        /// A stroke's two ends.
        package struct Ends: OptionSet, Sendable, Equatable {
            package let rawValue: UInt8
            package init(rawValue: UInt8) { self.rawValue = rawValue }
            package static let start = Ends(rawValue: 1)
            package static let end = Ends(rawValue: 2)
            package static let both: Ends = [.start, .end]
        }

        /// Whether the end at `start` or at the end is drawn round.
        package func isRound(_ end: Ends) -> Bool { cap == .round && !isClosed && capped.contains(end) }

        /// A round-capped stroke shorter than a quarter pixel: drawn as a disc, since renderers
        /// disagree on whether a (nearly) zero-length path shows its caps.
        package var isDot: Bool {
            !isClosed && cap == .round && capped == .both && arc.sweep.magnitude * .pi / 180 * radius < 0.25
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
    /// a gauge: a low value shows only the first colours. With laps, along the whole value
    /// (`span` is every lap's degrees), and `offset` is how far along it a lap's stroke starts.
    package struct Gradient: Sendable, Equatable {
        package var stops: [RingColor]
        package var span: Double
        package var offset: Double = 0

        package init(stops: [RingColor], span: Double, offset: Double = 0) {
            self.stops = stops
            self.span = span
            self.offset = offset
        }

        /// The colour `degrees` along a stroke painted with this gradient.
        package func color(along degrees: Double) -> RingColor { color(at: (offset + degrees) / span) }

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
        /// With `segments`, what is drawn instead of `stroke`: the filled segments, the last cut
        /// at the value.
        package var segments: [Stroke] = []
        /// With `stack`, what is drawn instead of `stroke` (which is their whole, for the
        /// shadow and the animation): each part in its colour, end to end.
        package var parts: [Part] = []

        package init(stroke: Stroke, paint: Paint, segments: [Stroke] = [], parts: [Part] = []) {
            self.stroke = stroke
            self.paint = paint
            self.segments = segments
            self.parts = parts
        }

        /// Every colour the bar shows: its parts', or its paint's (a gradient's stops).
        package var colors: [RingColor] {
            guard parts.isEmpty else { return parts.map(\.color) }
            switch paint {
            case .solid(let color): return [color]
            case .gradient(let gradient): return gradient.stops
            }
        }
    }

    /// A stacked part: a stretch of its bar, in its colour, round only at the stack's ends.
    package struct Part: Sendable, Equatable {
        package var stroke: Stroke
        package var color: RingColor
    }

    /// What a value past `max` adds to its bar with `overflow=lap`: the laps under the top one
    /// (the bar), and the head's shadow on what lies under it, with the head drawn again
    /// over its shadow.
    package struct Lap: Sendable, Equatable {
        /// The laps under the top one, as one closed ring; nil during the first lap.
        package var beneath: Bar?
        package var shadow: HeadShadow
        /// The head's round cap over its shadow; nil with butt caps, whose shadow starts at the
        /// head's edge.
        package var head: Bar?
    }

    /// The shadow the top lap's head casts forward along the bar: a piece of the bar's band,
    /// black, fading with the distance from the head's centre from `opacity` at `fade.lowerBound`
    /// to nothing at `fade.upperBound` px.
    package struct HeadShadow: Sendable, Equatable {
        package var stroke: Stroke
        /// The head's centre, in degrees.
        package var head: Double
        package var fade: ClosedRange<Double>
        package var opacity: Double
    }

    /// One of the concentric rings.
    package struct Ring: Sendable, Equatable {
        package var track: Track?
        package var outline: Outline?
        /// Nil at 0 %, so round caps leave no dot. With laps, the top lap.
        package var bar: Bar?
        /// With `overflow=lap` at or past `max`.
        package var lap: Lap?

        package init(track: Track? = nil, outline: Outline? = nil, bar: Bar? = nil, lap: Lap? = nil) {
            self.track = track
            self.outline = outline
            self.bar = bar
            self.lap = lap
        }
    }

    /// Thin radial marks across the tracks, all of one width and colour: the tick marks, or
    /// the targets. Each spans its ring's track, from `inner` to `outer` px from the centre.
    package struct Marks: Sendable, Equatable {
        package struct Mark: Sendable, Equatable {
            package var angle: Double
            package var inner: Double
            package var outer: Double
            /// How far the mark is moved across itself (clockwise, in px) so that an upright or
            /// level mark's edges fall on pixel edges: centred on a whole-pixel line, a 1 px
            /// mark covered two pixels at half strength, grey beside the diagonal marks.
            package var shift: Double = 0

            /// Where the mark's centre line crosses `radius`.
            package func point(at radius: Double, centerX: Double, centerY: Double) -> (x: Double, y: Double) {
                let radians = angle * .pi / 180
                let (x, y) = RingScene.point(at: angle, radius: radius, centerX: centerX, centerY: centerY)
                return (x + shift * cos(radians), y + shift * sin(radians))
            }
        }

        package var marks: [Mark]
        package var width: Double
        package var color: SchemeColor
        /// A thin outline in a contrasting colour, drawn under the marks, when a default
        /// colour would not keep its contrast on a bar under it (a light tick on a yellow bar
        /// in the dark scheme); nil when the marks read on everything under them.
        package var halo: SchemeColor? = nil

        /// The halo's width: half a mark, and at least a pixel, on each side.
        package var haloWidth: Double { width + 2 * max(1, width / 2) }
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
        /// A long label's second line, centred on the same `x`, and its baseline.
        package var secondLine: String? = nil
        package var secondBaseline: Double = 0

        /// Each line as a label of its own.
        package var lines: [Label] {
            guard let secondLine else { return [self] }
            var second = self
            second.text = secondLine
            second.baseline = secondBaseline
            second.secondLine = nil
            var first = self
            first.secondLine = nil
            return [first, second]
        }
    }

    package var width: Double
    package var height: Double
    package var centerX: Double
    package var centerY: Double
    /// The accessible name: `title`, or every ring's percentage (`72%, 45%, 90%`), or every
    /// stacked part's value and percentage (`passed 120 (88%), failed 12 (9%)`).
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
    /// Above the tracks and the bars: the tick marks, then the targets over them.
    package var ticks: Marks?
    package var targets: Marks?
    package var label: Label?
    /// The second, smaller line under the label.
    package var caption: Label?
}

extension RingScene {
    /// Resolves `spec`: its words, its layout (built once), then each element from its own
    /// builder (`RingScene+Elements.swift`), with the colours of its scheme.
    package init(spec: borrowing RingSpec) {
        let words = Words(spec)
        let g = RingGeometry(spec: spec, label: words.label, caption: words.caption)
        let context = Context(spec, g)
        var hasBar = false
        var hasLength = false  // a bar that is not a dot, so there is something to animate
        var rings: [Ring] = []
        rings.reserveCapacity(g.rings.count)
        for index in g.rings.indices {
            let bar = Self.bar(spec, g, context, ring: index)
            // Read through the optional, not bound: `if let` copied the bar.
            if let isDot = bar?.stroke.isDot {
                hasBar = true
                hasLength = hasLength || !isDot
            }
            let lap = bar.flatMap { Self.lap(spec, g, context, ring: index, top: $0) }
            rings.append(
                Ring(
                    track: Self.track(spec, g, context, ring: index),
                    outline: Self.outline(spec, g, context, ring: index), bar: bar, lap: lap))
        }
        // Every field in one memberwise call: assigned one by one, the scene was built in a
        // local and copied out (a retain for each of its arrays and strings, then a release).
        self.init(
            width: g.width, height: g.height, centerX: g.centerX, centerY: g.centerY,
            title: spec.title ?? words.title, background: spec.background,
            fill: spec.fill.map {
                Disc(radius: max(g.rings[g.rings.count - 1].radius - g.trackWidth / 2, 0), color: $0)
            },
            rings: rings,
            shadow: spec.shadow && hasBar ? Shadow(blur: g.shadowBlur, offset: g.shadowOffset, opacity: 0.35) : nil,
            // A dot has no length to fill in along.
            animation: spec.animation > 0 && hasLength ? spec.animation : nil,
            ticks: Self.ticks(spec, g, context, rings: rings), targets: Self.targets(spec, g, context, rings: rings),
            label: Self.label(
                spec, g, context, barColor: spec.labelColor == .bar ? Self.barColor(spec, g, context) : nil),
            caption: Self.caption(spec, g, context))
    }

    /// The point at `degrees` clockwise from 12 o'clock, `radius` from the centre.
    package func point(at degrees: Double, radius: Double) -> (x: Double, y: Double) {
        Self.point(at: degrees, radius: radius, centerX: centerX, centerY: centerY)
    }

    /// The point at `degrees` clockwise from 12 o'clock, `radius` from (`centerX`, `centerY`).
    package static func point(at degrees: Double, radius: Double, centerX: Double, centerY: Double)
        -> (x: Double, y: Double)
    {
        let radians = degrees * .pi / 180
        return (centerX + radius * sin(radians), centerY - radius * cos(radians))
    }
}
