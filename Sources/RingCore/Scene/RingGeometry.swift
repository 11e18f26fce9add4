/// Where everything of a ring goes, in image pixels. Angles are degrees clockwise from
/// 12 o'clock; a sweep is positive clockwise and negative counter-clockwise.
///
/// The outermost ring's centre line sits far enough inside the box that the thickest stroke,
/// its outline and its shadow stay in the image (the `R − w/2` rule of
/// react-circular-progressbar and Material 3, plus the extras). Each further ring sits one
/// stroke and one `gap` further in.
package struct RingGeometry: Sendable, Equatable {
    /// An arc of the ring's centre line.
    package struct Arc: Sendable, Equatable {
        package var start: Double
        package var sweep: Double
        package var end: Double { start + sweep }
    }

    /// One of the concentric rings: its radius and its bar.
    package struct Ring: Sendable, Equatable {
        /// Radius of the stroke centre line shared by this ring's bar and track.
        package var radius: Double
        /// The bar; nil when the fraction is 0 (so round caps leave no dot). With segments, the
        /// span from the first filled segment's start to the end of the last piece.
        package var bar: Arc?
        /// With `segments`: each segment's centre line, in order from the bar's start; else empty.
        package var trackSegments: [Arc] = []
        /// With `segments`: the filled segments, the last one cut at the value; else empty.
        package var barSegments: [Arc] = []
        /// True when the bar is the closed full circle.
        package var barIsClosed: Bool
        /// With `overflow=lap` at or past `max`: the laps under `bar`, which is the top lap.
        package var laps: Laps?
        /// The target's angle on the arc; nil for none.
        package var target: Double?
        /// The tick marks' angles on this ring: N on a closed track, N + 1 on an arc.
        package var ticks: [Double] = []
        /// With `stack`: each part's stretch of the bar's centre line, in the parts' order; nil
        /// for a part that is 0 or lies past `max`.
        package var parts: [Arc?] = []
    }

    /// A value that goes round more than once (`overflow=lap`): the laps beneath the top one
    /// are one closed ring (only the top one shows over them), and the top lap's head casts a
    /// shadow forward onto what lies under it.
    package struct Laps: Sendable, Equatable {
        /// The laps drawn, at most ``RingLimits/laps``: 2.3 at `p=230`.
        package var count: Double
        /// Whether a closed lap lies under the top one (from the second lap on).
        package var beneath: Bool
        /// Degrees along the value, from the start, to the centre of the top lap's head.
        package var headAlong: Double
        /// Degrees of the value before the top lap's start, for a gradient run along every lap.
        package var topOffset: Double
    }

    package var width: Double
    package var height: Double
    package var centerX: Double
    package var centerY: Double
    /// The rings, outermost first.
    package var rings: [Ring]
    package var barWidth: Double
    package var trackWidth: Double
    /// Half the thickest stroke: the bar's, or the track's with its outlines.
    package var strokeHalf: Double
    /// Thickness of each outline ring.
    package var outlineWidth: Double
    /// The usable arc, the same on every ring: the whole circle, the circle less the slice, or
    /// the upper half.
    package var track: Arc
    /// Blur standard deviation and vertical offset of the shadow.
    package var shadowBlur: Double
    package var shadowOffset: Double
    /// Font size and baseline of the label.
    package var fontSize: Double
    /// The label as drawn: the text, shortened with `…` when free text would need a font
    /// smaller than ``minimumFontSize``, or nil when it does not fit (a number never shortens).
    package var labelText: String?
    package var labelBaseline: Double
    /// A long label's second line, and its baseline: the label wrapped where two lines draw it
    /// larger than one (``wrap(_:inner:heightCap:centerY:half:)``).
    package var labelSecondLine: String?
    package var labelSecondBaseline: Double = 0
    /// The caption as drawn (shortened like the label, or nil), its font size and baseline.
    package var captionText: String?
    package var captionFontSize: Double
    package var captionBaseline: Double

    /// A line of text to lay out.
    package struct TextLine: Sendable, Equatable {
        /// What is drawn.
        package var text: String
        /// What the line is sized for: `text` with each percentage in its widest form at the
        /// ring's `decimals`, so neighbouring values keep one size (99 % and 100 % alike).
        package var sizing: String
        /// Free text may be cut with `…`; a line that shows a number is drawn whole or not at
        /// all, since a cut number reads as another number ("-10000…").
        package var mayShorten: Bool

        package init(text: String, sizing: String? = nil, mayShorten: Bool = true) {
            self.text = text
            self.sizing = sizing ?? text
            self.mayShorten = mayShorten
        }
    }

    /// Lays out `spec` with free-text label and caption (as sized and drawn), for tests and
    /// the fit checks.
    /// Where the rings' centre lines lie and how much arc they have: the first part of the
    /// layout, and all that validation's fit check needs, so it builds no layout of its own.
    package struct Bands {
        package let outlineWidth: Double
        package let shadowBlur: Double
        package let shadowOffset: Double
        /// Half the thickest of bar and track (with its outline): each ring's half-width.
        package let strokeHalf: Double
        /// How far the shadow reaches past the strokes.
        package let shadowExtent: Double
        /// The outermost ring's radius.
        package let outerRadius: Double
        /// From one ring's centre line to the next: a stroke and a gap.
        package let pitch: Double
        /// The usable arc in degrees: 180 on a half gauge, the circle less the slice otherwise.
        package let total: Double

        package init(spec: borrowing RingSpec) {
            let size = Double(spec.size)
            outlineWidth = (size / 100).clamped(to: 0.5...1.5)
            shadowBlur = max(0.5, size / 80)
            shadowOffset = size / 120
            let trackHalf = spec.resolvedTrackWidth / 2 + (spec.outline == nil ? 0 : outlineWidth)
            strokeHalf = max(spec.resolvedWidth / 2, trackHalf)
            shadowExtent = spec.shadow ? 3 * shadowBlur + shadowOffset : 0
            outerRadius = size / 2 - strokeHalf - shadowExtent
            pitch = 2 * strokeHalf + spec.resolvedGap
            total = spec.half ? 180 : 360 * (1 - spec.slice)
        }

        /// Ring `index`'s radius, 0 the outermost.
        package func radius(ofRing index: Int) -> Double { outerRadius - Double(index) * pitch }
    }

    package init(spec: borrowing RingSpec, labelText: String?, captionText: String? = nil) {
        self.init(
            spec: spec, label: labelText.map { TextLine(text: $0) }, caption: captionText.map { TextLine(text: $0) })
    }

    /// Lays out `spec`, whose label and caption (after `{p}` substitution) are `label` and
    /// `caption`. Only what is drawn takes room: a caption that does not fit leaves the label
    /// its whole size, and a label that does not fit beside a caption is laid out alone.
    package init(spec: borrowing RingSpec, label: TextLine?, caption: TextLine?) {
        let size = Double(spec.size)
        let bands = Bands(spec: spec)
        barWidth = spec.resolvedWidth
        trackWidth = spec.resolvedTrackWidth
        outlineWidth = bands.outlineWidth
        shadowBlur = bands.shadowBlur
        shadowOffset = bands.shadowOffset
        let strokeHalf = bands.strokeHalf
        self.strokeHalf = strokeHalf
        let shadowExtent = bands.shadowExtent
        width = size
        centerX = size / 2
        centerY = size / 2

        let total = bands.total
        let barStart: Double
        if spec.half {
            track = Arc(start: 270, sweep: 180)
            barStart = spec.direction == .cw ? 270 : 90
        } else {
            let gapEdge = spec.slice > 0 ? spec.start + 180 + 180 * spec.slice : spec.start
            track = Arc(start: gapEdge, sweep: total)
            barStart = spec.slice > 0 && spec.direction == .ccw ? spec.start + 180 - 180 * spec.slice : gapEdge
        }
        // The track starts where the bar does, and runs the bar's way.
        if spec.direction == .ccw { track = Arc(start: barStart, sweep: -total) }
        rings = (0..<spec.ringCount).map { index in
            let values = spec.ring(index)
            let mapping = ValueMapping(spec, radius: bands.radius(ofRing: index), total: total, barStart: barStart)
            var ring = Self.ring(spec, fraction: values.fraction, mapping)
            if spec.overflow == .lap, values.laps >= 1 { Self.lap(&ring, spec, laps: values.laps, start: barStart) }
            if spec.stack { ring.parts = Self.parts(spec, of: ring, values, mapping) }
            if let laps = values.targetLaps {
                ring.target =
                    spec.overflow == .lap && laps > 1
                    // Where the head will be when the value reaches the target: 150 % of a
                    // lap is half way round, 200 % at the start.
                    ? barStart + mapping.sign * (laps - laps.rounded(.down)) * 360
                    : Self.markAngle(laps.clamped(to: 0...1), on: ring, mapping)
            }
            if let count = spec.ticks {
                let marks = mapping.fullCircle ? count : count + 1  // both ends of an arc
                ring.ticks = (0..<marks).map { Self.markAngle(Double($0) / Double(count), on: ring, mapping) }
            }
            return ring
        }
        let radius = rings[rings.count - 1].radius
        let inner = max(radius - strokeHalf, 1)
        let available = 2 * inner * (spec.half ? 0.8 : 0.78)
        let heightCap = inner * (spec.half ? 0.6 : 0.62)
        // A half gauge's height depends on its size, widths and shape alone, never on its text,
        // so gauges side by side line up: below the centre, the stroke and its shadow, or the
        // descent (a quarter em) of the largest label the height cap allows, whose baseline
        // sits 0.08 of the inner radius above the centre.
        let halfHeight = (centerY + max(strokeHalf + shadowExtent, 0.25 * heightCap - inner * 0.08)).rounded(.up)
        // Label and caption as one block: the label gets 75 % of the height it would have alone,
        // the caption half the label's size (or 40 % of the label's place when there is no
        // label), each as wide as the inner circle allows, and the block is centred as one (on
        // a half gauge, sitting where the label alone would).
        var twoLines: (label: String?, fontSize: Double, caption: String, captionFontSize: Double)?
        if let caption {
            let (labelText, fontSize) = Self.fit(label, width: available * 0.95, height: heightCap * 0.75)
            let captionHeight = label != nil ? fontSize * 0.5 : heightCap * 0.4
            let (captionText, captionFontSize) = Self.fit(caption, width: available * 0.9, height: captionHeight)
            // Both lines, or a caption alone where no label was asked for; else the label alone.
            if let captionText, label == nil || labelText != nil {
                twoLines = (labelText, fontSize, captionText, captionFontSize)
            }
        }
        guard let twoLines else {
            (labelText, fontSize) = Self.fit(label, width: available, height: heightCap)
            captionText = nil
            captionFontSize = 0
            if spec.half {
                labelBaseline = centerY - max(inner * 0.08, 0)
                height = halfHeight
            } else {
                // Centred without dominant-baseline: the digits' cap height is about 0.72 em.
                labelBaseline = centerY + 0.36 * fontSize
                height = size
            }
            // A label that one line would draw at less than half its height cap, wrapped onto
            // two lines when they draw it larger.
            if let label, fontSize < 0.5 * heightCap,
                let wrapped = Self.wrap(label, inner: inner, heightCap: heightCap, centerY: centerY, half: spec.half),
                wrapped.fontSize > fontSize
            {
                labelText = wrapped.first
                labelSecondLine = wrapped.second
                fontSize = wrapped.fontSize
                labelBaseline = wrapped.baselines.first
                labelSecondBaseline = wrapped.baselines.second
            }
            captionBaseline = labelBaseline
            return
        }
        (labelText, fontSize, captionText, captionFontSize) = twoLines
        // Under a label, the caption's baseline leaves room for the label's descent, a gap of at
        // least a pixel and the caption's ascent, accents on capitals included: the font's own
        // metrics, so "qypg" over "ÉÀÎÔ" never touch. A caption alone is centred on its digits.
        let labelBlock = self.labelText != nil ? 0.72 * fontSize : 0
        let captionBlock =
            labelBlock > 0 ? Self.ascent(of: captionText ?? "") * captionFontSize : 0.72 * captionFontSize
        let gap = labelBlock > 0 ? Self.descent * fontSize + max(1, 0.15 * captionFontSize) : 0
        let block = labelBlock + gap + captionBlock
        if spec.half {
            let bottom = centerY - max(inner * 0.08, 0)
            captionBaseline = bottom
            labelBaseline = bottom - captionBlock - gap
            height = halfHeight
        } else {
            let top = centerY - block / 2
            labelBaseline = top + labelBlock
            captionBaseline = labelBaseline + gap + captionBlock
            height = size
        }
    }

    /// A label on two lines, broken where the larger of the two lines is narrowest: at a
    /// space (dropped) or beside a CJK character, never before closing punctuation. Each line
    /// keeps its box, from its ascent to its descent, within 0.88 of the inner radius (where a
    /// one-line percentage's corners reach), and at most 3/4 of the height cap (as a label
    /// beside a caption); the lines sit `descent`, a gap and the second line's ascent apart,
    /// centred as a block on a ring and ending where one line would on a half gauge. Nil when
    /// the text has no place to break or two lines fit no better than the minimum size.
    static func wrap(_ line: TextLine, inner: Double, heightCap: Double, centerY: Double, half: Bool)
        -> (first: String, second: String, fontSize: Double, baselines: (first: Double, second: Double))?
    {
        let breaks = TextBreaks(line.text)
        let sizingBreaks = TextBreaks(line.sizing)
        guard !breaks.offsets.isEmpty, breaks.offsets.count == sizingBreaks.offsets.count else { return nil }
        let radius = 0.88 * inner
        var best: (first: String, second: String, fontSize: Double, baselines: (first: Double, second: Double))?
        for index in breaks.offsets.indices {
            let (first, second) = breaks.split(at: index)
            let (sizedFirst, sizedSecond) = sizingBreaks.split(at: index)
            let widths = (
                max(TextWidth.em(first), TextWidth.em(sizedFirst)), max(TextWidth.em(second), TextWidth.em(sizedSecond))
            )
            guard widths.0 > 0, widths.1 > 0 else { continue }
            let ascents = (ascent(of: first), ascent(of: second))
            let pitch = descent + 0.15 + ascents.1  // in em
            // Baselines, in em from the centre, and how far each line's box reaches from it.
            func baselines(_ size: Double) -> (Double, Double) {
                if half {
                    let second = -max(inner * 0.08, 0)
                    return (second - pitch * size, second)
                }
                let first = -(0.72 + pitch) / 2 * size + 0.72 * size
                return (first, first + pitch * size)
            }
            func fits(_ size: Double) -> Bool {
                let (b1, b2) = baselines(size)
                let reach1 = max((b1 - ascents.0 * size).magnitude, (b1 + descent * size).magnitude)
                let reach2 = max((b2 - ascents.1 * size).magnitude, (b2 + descent * size).magnitude)
                let half1 = widths.0 * size / 2
                let half2 = widths.1 * size / 2
                return half1 * half1 + reach1 * reach1 <= radius * radius
                    && half2 * half2 + reach2 * reach2 <= radius * radius
            }
            // The largest size that fits, to 1/64 px: fit is monotonic in the size.
            var low = minimumFontSize
            var high = 0.75 * heightCap
            guard high >= low, fits(low) else { continue }
            if fits(high) {
                low = high
            } else {
                while high - low > 1.0 / 64 {
                    let middle = (low + high) / 2
                    if fits(middle) { low = middle } else { high = middle }
                }
            }
            guard low > best?.fontSize ?? 0 else { continue }
            let (b1, b2) = baselines(low)
            best = (first, second, low, (centerY + b1, centerY + b2))
        }
        return best
    }

    /// The embedded font's descent, in em (DejaVu Sans Bold's `hhea`): how far below its
    /// baseline a line's ink may reach.
    static let descent = 0.236

    /// How far above its baseline `text`'s ink may reach, in em: the font's ascent (0.928,
    /// accented capitals included), or 1.13 with a letter of Latin Extended Additional, whose
    /// capitals carry two marks (Ẳ reaches 1.123 in DejaVu Sans Bold, Ổ 1.093).
    static func ascent(of text: String) -> Double {
        text.unicodeScalars.contains { (0x1E00...0x1EFF).contains($0.value) } ? 1.13 : 0.928
    }

    /// How a value becomes a visible bar on one ring: the usable arc's length with the caps,
    /// and the cap and the least gap in degrees at the ring's radius.
    struct ValueMapping {
        let sign: Double
        let barStart: Double
        let radius: Double
        let total: Double
        let fullCircle: Bool
        let capDegrees: Double
        let minimumGap: Double
        /// The bar's visible length when full: the circle, or the arc and its two half caps.
        let full: Double
        let smallest: Double

        init(_ spec: borrowing RingSpec, radius: Double, total: Double, barStart: Double) {
            sign = spec.direction == .cw ? 1 : -1
            self.barStart = barStart
            self.radius = radius
            self.total = total
            fullCircle = total >= 360
            let degreesPerPixel = 180 / (Double.pi * radius)
            capDegrees = spec.cap == .round ? spec.resolvedWidth * degreesPerPixel : 0
            minimumGap = max(1.5, spec.resolvedWidth * 0.15) * degreesPerPixel
            full = fullCircle ? 360 : total + capDegrees
            smallest = spec.cap == .round ? capDegrees : minimumGap
        }

        /// The bar's visible extent, caps included, at `fraction` strictly between 0 and 1.
        func visible(_ fraction: Double) -> Double {
            RingGeometry.visibleExtent(fraction, full: full, smallest: smallest, gap: minimumGap)
        }
    }

    /// One ring filled to `fraction` of the usable arc.
    private static func ring(_ spec: borrowing RingSpec, fraction: Double, _ mapping: ValueMapping) -> Ring {
        let sign = mapping.sign
        let barStart = mapping.barStart
        let capDegrees = mapping.capDegrees
        // The bar's visible extent, caps included, follows the value; see `visibleExtent`.
        var ring = Ring(radius: mapping.radius, bar: nil, barIsClosed: fraction >= 1 && mapping.fullCircle)
        if fraction <= 0 {
            ring.bar = nil  // no dot at 0
        } else if ring.barIsClosed {
            ring.bar = Arc(start: barStart, sweep: sign * 360)
        } else {
            let visible = fraction >= 1 ? mapping.full : mapping.visible(fraction)
            // On a full ring the visible bar starts at `start`, its cap included; on an open arc
            // the bar's caps sit where the track's do.
            let offset = mapping.fullCircle ? capDegrees / 2 : 0
            ring.bar = Arc(start: barStart + sign * offset, sweep: sign * max(visible - capDegrees, 0))
        }
        guard let count = spec.segments else { return ring }
        let layout = segmentLayout(spec, radius: mapping.radius, total: mapping.total)
        ring.trackSegments = (0..<count).map { index in
            Arc(
                start: barStart + sign * (layout.lead + Double(index) * (layout.length + layout.gap)),
                sweep: sign * layout.length)
        }
        // The bar fills continuously across segments: p=50 of 5 is two and a half.
        let filled = fraction.clamped(to: 0...1) * Double(count)
        for (index, segment) in ring.trackSegments.enumerated() where Double(index) < filled {
            let share = min(filled - Double(index), 1)
            ring.barSegments.append(Arc(start: segment.start, sweep: segment.sweep * share))
        }
        ring.barIsClosed = false
        if let first = ring.barSegments.first, let last = ring.barSegments.last {
            ring.bar = Arc(start: first.start, sweep: last.end - first.start)
        } else {
            ring.bar = nil
        }
        return ring
    }

    /// A stack's parts along `ring`'s bar: each part's share of the bar's visible length when
    /// full (the circle, or the arc and its caps) is its value over the whole, so part
    /// boundaries fall at the running sums' shares, cut straight across; the first and last
    /// parts drawn carry the bar's caps. A boundary within a cap is held at the cap's centre.
    private static func parts(
        _ spec: borrowing RingSpec, of ring: Ring, _ whole: RingSpec.Ring, _ mapping: ValueMapping
    )
        -> [Arc?]
    {
        guard let bar = ring.bar else { return Array(repeating: nil, count: spec.values.count) }
        let sign = mapping.sign
        let span = whole.maximum - whole.minimum
        // Where a running sum's share lands on the centre line, within the bar.
        let visibleStart = mapping.barStart - sign * (mapping.fullCircle ? 0 : mapping.capDegrees / 2)
        let length = bar.sweep.magnitude
        func along(_ sum: Double) -> Double {
            let angle = visibleStart + sign * (sum / span).clamped(to: 0...1) * mapping.full
            return ((angle - bar.start) * sign).clamped(to: 0...length)
        }
        // The first and last parts drawn reach the bar's ends, caps and all.
        let first = spec.values.firstIndex { $0 > 0 } ?? 0
        let last = spec.values.lastIndex { $0 > 0 } ?? 0
        var parts: [Arc?] = []
        parts.reserveCapacity(spec.values.count)
        var sum = whole.minimum
        var from = 0.0
        for (index, value) in spec.values.enumerated() {
            sum += value
            let to = index == last ? length : along(sum)
            let drawn = value > 0 && (to > from || index == first)
            parts.append(drawn ? Arc(start: bar.start + sign * from, sweep: sign * max(to - from, 0)) : nil)
            from = max(from, to)
        }
        return parts
    }

    /// Turns a full ring's bar into the top lap of `laps` (at least 1): it runs from the start
    /// for the value's last part-lap (a whole lap at a whole number), its head's visible edge
    /// at the value's angle, as a plain ring's bar is.
    private static func lap(_ ring: inout Ring, _ spec: borrowing RingSpec, laps: Double, start: Double) {
        let count = min(laps, RingLimits.laps)
        let whole = (count - 1).rounded(.up)  // laps wholly under the top one
        let top = count - whole  // 0 < top ≤ 1
        let sign: Double = spec.direction == .cw ? 1 : -1
        let capDegrees = spec.cap == .round ? spec.resolvedWidth * 180 / (Double.pi * ring.radius) : 0
        // The top lap starts at the start itself: its start cap lies over the end of the lap
        // beneath, which has the same colour there, gradient or not. Its head's centre is half
        // a cap behind the value's angle, before the start when the value is just past a lap,
        // so the head's edge is at the value's angle wherever the value is.
        let head = top * 360 - capDegrees / 2
        ring.bar =
            top >= 1
            ? Arc(start: start, sweep: sign * 360) : Arc(start: start + sign * min(head, 0), sweep: sign * max(head, 0))
        ring.barIsClosed = top >= 1
        ring.laps = Laps(count: count, beneath: whole >= 1, headAlong: whole * 360 + head, topOffset: whole * 360)
    }

    /// Where a mark at `fraction` (0…1) of the usable arc goes on `ring`: where a bar at that
    /// value ends, round cap included, so a bar at a mark's value ends at the mark on every
    /// shape. On a full ring that is the value's share of the circle from about 10 % on, and
    /// further on near 0, where the bar's dot is longer than its value. On an open arc the
    /// mark stays on the track, between its ends: a mark at 0 or 1, or within half a cap of an
    /// end, sits on the end, in the middle of the cap. With segments, where the filled pieces
    /// end.
    private static func markAngle(_ fraction: Double, on ring: Ring, _ mapping: ValueMapping) -> Double {
        if !ring.trackSegments.isEmpty {
            // In the segment the bar's last piece is cut in: a whole number ends a segment.
            let filled = fraction * Double(ring.trackSegments.count)
            let index = max(min(Int(filled.rounded(.up)) - 1, ring.trackSegments.count - 1), 0)
            let segment = ring.trackSegments[index]
            return segment.start + segment.sweep * (filled - Double(index)).clamped(to: 0...1)
        }
        guard fraction > 0, fraction < 1 else {
            return mapping.barStart + mapping.sign * (fraction <= 0 || mapping.fullCircle ? 0 : mapping.total)
        }
        let visible = mapping.visible(fraction)
        let end = mapping.fullCircle ? visible : (visible - mapping.capDegrees / 2).clamped(to: 0...mapping.total)
        return mapping.barStart + mapping.sign * end
    }

    /// A tick mark's thickness: `max(1, size/120, trackWidth/12)` px, so it grows with a thick
    /// track (1 px at the defaults, 3.3 on a 40 px track).
    package static func tickWidth(_ spec: borrowing RingSpec) -> Double {
        max(1, Double(spec.size) / 120, spec.resolvedTrackWidth / 12)
    }
    /// A target marker's thickness: twice a tick's, `max(2, size/60, trackWidth/6)` px.
    package static func targetWidth(_ spec: borrowing RingSpec) -> Double {
        max(2, Double(spec.size) / 60, spec.resolvedTrackWidth / 6)
    }

    /// The bar's visible extent in degrees, caps included, for a value strictly between 0 and
    /// 1 of the usable arc, whose visible length when full is `full`.
    ///
    /// It is the value's share of `full` exactly, except near the ends, where it is squeezed
    /// so that it still grows strictly: from `smallest` (a round cap's dot, or a short butt
    /// mark) just above 0, to `full - gap` just below 1, so an open ring always shows a gap.
    /// The squeeze spans values below `2·smallest/full` and above `1 − 2·gap/full`.
    static func visibleExtent(_ fraction: Double, full: Double, smallest: Double, gap: Double) -> Double {
        let low = 2 * smallest / full
        let high = 1 - 2 * gap / full
        guard low < high else {
            return smallest + (full - gap - smallest) * fraction  // too short an arc to be exact anywhere
        }
        if fraction < low { return smallest + (low * full - smallest) * fraction / low }
        if fraction > high { return high * full + gap * (fraction - high) / (1 - high) }
        return fraction * full
    }

    /// Where segments go on a usable arc of `total` degrees at `radius`: each segment's length
    /// and the gap between two, in degrees along the centre line, and the offset of the first
    /// from the arc's start (half a gap on a full circle, so its start falls in a gap).
    ///
    /// The gap is `segmentGap` between what is drawn: round caps reach half a stroke past each
    /// segment's centre line, so the centre lines keep a stroke's width more apart. A length of
    /// 0 or less means the segments do not fit.
    static func segmentLayout(_ spec: borrowing RingSpec, radius: Double, total: Double)
        -> (length: Double, gap: Double, lead: Double)
    {
        let count = Double(spec.segments ?? 1)
        let caps = spec.cap == .round ? max(spec.resolvedWidth, spec.resolvedTrackWidth) : 0
        let gap = (spec.resolvedSegmentGap + caps) / max(radius, 1e-9) * 180 / .pi
        let closed = total >= 360
        let length = (total - gap * (closed ? count : count - 1)) / count
        return (length, gap, closed ? gap / 2 : 0)
    }

    /// Labels are never drawn smaller than this, in px: below it text is not legible.
    package static let minimumFontSize = 6.0

    /// A line and its font size: as large as fits `width` and `height` (sized by its `sizing`
    /// text); free text at the minimum size is shortened character by character with a
    /// trailing `…` until it fits; nil when not even that fits, or when a number does not fit
    /// whole at the minimum size.
    static func fit(_ line: TextLine?, width: Double, height: Double) -> (String?, Double) {
        guard let line, height >= minimumFontSize else { return (nil, 0) }
        let em = max(TextWidth.em(line.sizing), TextWidth.em(line.text))
        guard em > 0 else { return (line.text, 0) }
        let size = min(height, width / em)
        if size >= minimumFontSize { return (line.text, size) }
        guard line.mayShorten else { return (nil, 0) }
        // The longest prefix that fits with `…` after it, by bisection: a longer prefix is
        // never narrower. (Dropping a character at a time measured the text once per
        // character: 75 µs for a 40-character label.)
        let characters = Array(line.text)
        func shortened(_ count: Int) -> String { String(characters[..<count]) + "…" }
        func fits(_ count: Int) -> Bool { TextWidth.em(shortened(count)) * minimumFontSize <= width }
        // From `…` alone to the text less its last character.
        guard !characters.isEmpty, fits(0) else { return (nil, 0) }
        var low = 0
        var high = characters.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if fits(middle) { low = middle } else { high = middle - 1 }
        }
        return (shortened(low), minimumFontSize)
    }
}
