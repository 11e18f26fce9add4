/// Where everything of a ring goes, in image pixels. Angles are degrees clockwise from
/// 12 o'clock; a sweep is positive clockwise and negative counter-clockwise.
///
/// Every stroke's centre line sits at ``radius``, far enough inside the box that the thickest
/// stroke, its outline and its shadow stay in the image (the `R − w/2` rule of
/// react-circular-progressbar and Material 3, plus the extras).
public struct RingGeometry: Sendable, Equatable {
    /// An arc of the ring's centre line.
    public struct Arc: Sendable, Equatable {
        public var start: Double
        public var sweep: Double
        public var end: Double { start + sweep }
    }

    public var width: Double
    public var height: Double
    public var centerX: Double
    public var centerY: Double
    /// Radius of the stroke centre line shared by bar and track.
    public var radius: Double
    public var barWidth: Double
    public var trackWidth: Double
    /// Thickness of each outline ring.
    public var outlineWidth: Double
    /// The usable arc: the whole circle, the circle less the slice, or the upper half.
    public var track: Arc
    /// The bar; nil when the fraction is 0 (so round caps leave no dot).
    public var bar: Arc?
    /// True when the bar is the closed full circle.
    public var barIsClosed: Bool
    /// Blur standard deviation and vertical offset of the shadow.
    public var shadowBlur: Double
    public var shadowOffset: Double
    /// Font size and baseline of the label.
    public var fontSize: Double
    public var labelBaseline: Double

    /// Lays out `spec`, whose `label` text (after `{p}` substitution) is `labelText`.
    public init(spec: borrowing RingSpec, labelText: String?) {
        let size = Double(spec.size)
        barWidth = spec.resolvedWidth
        trackWidth = spec.resolvedTrackWidth
        outlineWidth = (size / 100).clamped(to: 0.5...1.5)
        shadowBlur = max(0.5, size / 80)
        shadowOffset = size / 120
        let trackHalf = trackWidth / 2 + (spec.outline == nil ? 0 : outlineWidth)
        let strokeHalf = max(barWidth / 2, trackHalf)
        let shadowExtent = spec.shadow ? 3 * shadowBlur + shadowOffset : 0
        width = size
        centerX = size / 2
        centerY = size / 2
        radius = size / 2 - strokeHalf - shadowExtent

        let total: Double
        let barStart: Double
        if spec.half {
            total = 180
            track = Arc(start: 270, sweep: 180)
            barStart = spec.direction == .cw ? 270 : 90
        } else {
            total = 360 * (1 - spec.slice)
            let gapEdge = spec.slice > 0 ? spec.start + 180 + 180 * spec.slice : spec.start
            track = Arc(start: gapEdge, sweep: total)
            barStart = spec.slice > 0 && spec.direction == .ccw ? spec.start + 180 - 180 * spec.slice : gapEdge
        }
        let sign: Double = spec.direction == .cw ? 1 : -1
        if spec.direction == .ccw { track = Arc(start: barStart, sweep: -total) }

        let fraction = spec.fraction
        var sweep = fraction * total
        barIsClosed = fraction >= 1 && total >= 360
        if fraction < 1, total >= 360 {
            // Just under 100 % must not look closed: keep a visible gap, and with round caps
            // also the two caps' angles (mui #11887; Material 3 and MKRingProgressView do the same).
            let degreesPerPixel = 180 / (Double.pi * radius)
            let capDegrees = spec.cap == .round ? barWidth * degreesPerPixel : 0
            let gapDegrees = max(1.5, barWidth * 0.15) * degreesPerPixel
            sweep = min(sweep, max(total - capDegrees - gapDegrees, total / 2))
        }
        bar = fraction > 0 ? Arc(start: barStart, sweep: sign * sweep) : nil

        let inner = max(radius - strokeHalf, 1)
        let available = 2 * inner * (spec.half ? 0.8 : 0.78)
        let em = labelText.map(TextWidth.em) ?? 0
        let heightCap = inner * (spec.half ? 0.6 : 0.62)
        fontSize = em > 0 ? min(heightCap, available / em) : 0
        if spec.half {
            labelBaseline = centerY - max(inner * 0.08, 0)
            let below = max(strokeHalf + shadowExtent, 0.25 * fontSize)
            height = (centerY + below).rounded(.up)
        } else {
            // Centred without dominant-baseline: the digits' cap height is about 0.72 em.
            labelBaseline = centerY + 0.36 * fontSize
            height = size
        }
    }
}
