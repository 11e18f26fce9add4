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
/// Elements are listed in painting order: background, fill, track, outline, bar (with its
/// shadow and animation), label.
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
        public var stroke: Stroke
        public var color: SchemeColor
    }

    /// Thin strokes along both edges of the track, following its arc.
    public struct Outline: Sendable, Equatable {
        public var arc: Arc
        /// Outer and inner radius; an inner one at or below 0 is not drawn.
        public var radii: [Double]
        public var width: Double
        public var color: RingColor
        public var isClosed: Bool
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
        }

        public var stroke: Stroke
        public var paint: Paint
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
    /// The accessible name: `title`, or the percentage.
    public var title: String
    public var background: RingColor?
    public var fill: Disc?
    public var track: Track?
    public var outline: Outline?
    /// Nil at 0 %, so round caps leave no dot.
    public var bar: Bar?
    /// Only with a bar.
    public var shadow: Shadow?
    /// Seconds of the fill-in animation; only with a bar. The static scene is the final frame.
    public var animation: Double?
    public var label: Label?
}

extension RingScene {
    /// Resolves `spec`: layout, colours for its scheme, label text.
    public init(spec: borrowing RingSpec) {
        let percentage = Self.percentageText(spec)
        let labelText: String?
        switch spec.label {
        case .auto: labelText = percentage
        case .none: labelText = nil
        case .text(let text): labelText = text.replacing("{p}", with: percentage)
        }
        let g = RingGeometry(spec: spec, labelText: labelText)
        let dark = spec.theme == .dark
        let followsScheme = spec.theme == .auto

        width = g.width
        height = g.height
        centerX = g.centerX
        centerY = g.centerY
        title = spec.title ?? percentage
        background = spec.background
        fill = spec.fill.map { Disc(radius: max(g.radius - g.trackWidth / 2, 0), color: $0) }
        let trackClosed = g.track.sweep.magnitude >= 360
        let trackStroke = Stroke(
            arc: g.track, radius: g.radius, width: g.trackWidth, cap: spec.cap, isClosed: trackClosed)
        switch spec.track {
        case .none: track = nil
        case .color(let color): track = Track(stroke: trackStroke, color: SchemeColor(color: color, dark: nil))
        case .standard:
            track = Track(
                stroke: trackStroke,
                color: SchemeColor(
                    color: dark ? DefaultColors.darkTrack : DefaultColors.lightTrack,
                    dark: followsScheme ? DefaultColors.darkTrack : nil))
        }
        outline = spec.outline.map { color in
            let offset = g.trackWidth / 2 + g.outlineWidth / 2
            return Outline(
                arc: g.track, radii: [g.radius + offset, g.radius - offset], width: g.outlineWidth, color: color,
                isClosed: trackClosed)
        }
        if let arc = g.bar {
            let stroke = Stroke(arc: arc, radius: g.radius, width: g.barWidth, cap: spec.cap, isClosed: g.barIsClosed)
            let paint: Bar.Paint =
                spec.gradient.isEmpty
                ? .solid(spec.color ?? DefaultColors.bar)
                : .gradient(Gradient(stops: spec.gradient, span: g.track.sweep.magnitude))
            bar = Bar(stroke: stroke, paint: paint)
            shadow = spec.shadow ? Shadow(blur: g.shadowBlur, offset: g.shadowOffset, opacity: 0.35) : nil
            // A dot has no length to fill in along.
            animation = spec.animation > 0 && !stroke.isDot ? spec.animation : nil
        } else {
            bar = nil
            shadow = nil
            animation = nil
        }
        label = g.labelText.map { text in
            let color =
                spec.labelColor.map { SchemeColor(color: $0, dark: nil) }
                ?? SchemeColor(
                    color: dark ? DefaultColors.darkLabel : DefaultColors.lightLabel,
                    dark: followsScheme ? DefaultColors.darkLabel : nil)
            return Label(text: text, x: g.centerX, baseline: g.labelBaseline, fontSize: g.fontSize, color: color)
        }
    }

    /// The percentage as the label shows it, e.g. `72%` or `72.50%` with `decimals=2`.
    ///
    /// It never claims more or less than the ring shows: an open ring (below 100 %) reads at
    /// most the largest value under 100 at its precision (`99%`, `99.9%`), and a ring with a
    /// mark (above 0 %) at least the smallest value over 0 (`1%`, `0.1%`).
    public static func percentageText(_ spec: borrowing RingSpec) -> String {
        var shown = spec.percentage
        if shown > 0, shown < 100 {
            let scale = [1.0, 10, 100, 1000][spec.decimals]
            let units = (shown * scale).rounded(.toNearestOrAwayFromZero)
            if units >= 100 * scale {
                shown = (100 * scale - 1) / scale
            } else if units <= 0 {
                shown = 1 / scale
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
            var writer = ByteWriter(scratch: scratch)
            writer.append(number: shown, decimals: spec.decimals, keepZeros: true)
            writer.append(byte: UInt8(ascii: "%"))
            return writer.text
        }
    }

    /// The point at `degrees` clockwise from 12 o'clock, `radius` from the centre.
    public func point(at degrees: Double, radius: Double) -> (x: Double, y: Double) {
        let radians = degrees * .pi / 180
        return (centerX + radius * sin(radians), centerY - radius * cos(radians))
    }
}
