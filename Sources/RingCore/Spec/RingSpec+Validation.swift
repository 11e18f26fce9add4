/// The rules a spec keeps beyond each value's own grammar: counts per ring, ranges that
/// follow `size`, conflicts, what only the layout can tell (fit), and the normalisation that
/// makes equal rings equal specs.
extension RingSpec {
    /// Checks the cross-parameter rules for a spec built in code (the parser already applies them).
    public func validate() throws(RingSpecError) {
        guard RingLimits.rings.contains(values.count) else {
            throw .invalid(
                parameter: "p", value: "\(values.count) values",
                expected: "\(RingLimits.text(RingLimits.rings)) values, one per ring")
        }
        try Self.checkPerRing(minimum.count, "min", rings: ringCount)
        try Self.checkPerRing(maximum.count, "max", rings: ringCount)
        try Self.checkPerRing(tracks.count, "track", rings: ringCount)
        if !colors.isEmpty { try Self.checkPerRing(colors.count, "color", rings: ringCount) }
        guard tracks.count == 1 || !tracks.contains(.standard) else {
            throw .unfit(parameter: "track", rule: "a list needs a colour or none for every ring")
        }
        for index in 0..<ringCount {
            let ring = ring(index)
            guard ring.value.isFinite, ring.value.magnitude <= RingLimits.magnitude else {
                throw .outOfRange(parameter: "p", value: "\(ring.value)", range: RingLimits.magnitudeText)
            }
            guard ring.minimum.isFinite, ring.maximum.isFinite, ring.maximum > ring.minimum else {
                throw .invalid(
                    parameter: "max", value: "\(ring.maximum)", expected: "greater than min (\(ring.minimum))")
            }
            guard ring.percentage.magnitude <= RingLimits.percentage else {
                // The values of p whose percentage the label can show, with this min and max.
                let share = (ring.maximum - ring.minimum) * RingLimits.percentage / 100
                throw .outOfRange(
                    parameter: "p", value: RingLimits.plain(ring.value),
                    range: "\(RingLimits.plain(ring.minimum - share))…\(RingLimits.plain(ring.minimum + share)) "
                        + "(a percentage within ±1e9 of min \(RingLimits.plain(ring.minimum)) to max "
                        + "\(RingLimits.plain(ring.maximum)))")
            }
        }
        guard RingLimits.size.contains(size) else {
            throw .outOfRange(parameter: "size", value: "\(size)", range: RingLimits.text(RingLimits.size))
        }
        try Self.checkLength(width, "width", RingLimits.strokeWidth, size: size)
        try Self.checkLength(trackWidth, "trackWidth", RingLimits.strokeWidth, size: size)
        try Self.checkLength(gap, "gap", RingLimits.ringGap, size: size)
        try Self.checkLength(segmentGap, "segmentGap", RingLimits.segmentGap, size: size)
        if let segments {
            guard RingLimits.segments.contains(segments) else {
                throw .outOfRange(
                    parameter: "segments", value: "\(segments)", range: RingLimits.text(RingLimits.segments))
            }
            guard gradient.isEmpty else { throw .conflict(parameter: "segments", with: "gradient") }
        }
        guard RingLimits.slice.contains(slice) else {
            throw .outOfRange(parameter: "slice", value: "\(slice)", range: RingLimits.text(RingLimits.slice))
        }
        guard start.isFinite, start.magnitude <= RingLimits.magnitude else {
            throw .outOfRange(parameter: "start", value: "\(start)", range: RingLimits.magnitudeText)
        }
        guard RingLimits.decimals.contains(decimals) else {
            throw .outOfRange(parameter: "decimals", value: "\(decimals)", range: RingLimits.text(RingLimits.decimals))
        }
        guard RingLimits.animation.contains(animation) else {
            throw .outOfRange(parameter: "anim", value: "\(animation)", range: RingLimits.text(RingLimits.animation))
        }
        if let thresholds {
            guard colors.isEmpty, gradient.isEmpty else {
                throw .conflict(parameter: "thresholds", with: gradient.isEmpty ? "color" : "gradient")
            }
            guard RingLimits.thresholdSteps.contains(thresholds.steps.count),
                zip(thresholds.steps, thresholds.steps.dropFirst()).allSatisfy({ $0.value < $1.value }),
                thresholds.steps.allSatisfy({ $0.value.isFinite && $0.value.magnitude <= RingLimits.magnitude })
            else {
                throw .invalid(
                    parameter: "thresholds", value: "\(thresholds.steps.count) steps",
                    expected: "1 to 8 steps with finite values that increase")
            }
        }
        guard gradient.isEmpty || RingLimits.gradientColors.contains(gradient.count) else {
            let count = RingLimits.gradientColors
            throw .invalid(
                parameter: "gradient", value: "\(gradient.count) colours",
                expected: "\(count.lowerBound) to \(count.upperBound) colours")
        }
        if case .text(let text) = label {
            _ = try QueryValue.text(text, "label", limit: RingLimits.labelScalars)
            try Self.checkPlaceholders(text, "label", rings: ringCount)
        }
        if let title {
            _ = try QueryValue.text(title, "title", limit: RingLimits.titleScalars)
        }
        if let caption {
            _ = try QueryValue.text(caption, "caption", limit: RingLimits.captionScalars)
            try Self.checkPlaceholders(caption, "caption", rings: ringCount)
        }
        // Last: the layout needs every other number valid.
        try checkFit()
    }

    /// The rings fit in the box, and so do their segments: what only the layout can tell.
    private func checkFit() throws(RingSpecError) {
        guard ringCount > 1 || segments != nil else { return }  // one plain ring always fits
        let geometry = RingGeometry(spec: self, labelText: nil)
        let innermost = geometry.rings[ringCount - 1]
        // One ring keeps the contract it always had: any width up to size/3.
        guard ringCount == 1 || innermost.radius >= geometry.strokeHalf else {
            let outer = geometry.rings[0].radius
            let pitch = 2 * geometry.strokeHalf + resolvedGap
            let fitting = max(Int(((outer - geometry.strokeHalf) / pitch).rounded(.down)) + 1, 1)
            throw .unfit(
                parameter: "p",
                rule: "\(ringCount) rings of width \(RingLimits.plain(2 * geometry.strokeHalf)) with gap "
                    + "\(RingLimits.plain(resolvedGap)) do not fit in size \(size) (\(fitting) "
                    + (fitting == 1 ? "does)" : "do)"))
        }
        guard let segments else { return }
        // The innermost ring has the shortest arc, so the fewest pixels to share.
        let total = geometry.track.sweep.magnitude
        let layout = RingGeometry.segmentLayout(self, radius: innermost.radius, total: total)
        let arc = total * .pi / 180 * innermost.radius
        let gaps = "\(segments) segments with gaps of \(RingLimits.plain(resolvedSegmentGap)) px"
        let ring = ringCount > 1 ? " of the innermost ring" : ""
        guard layout.length > 0 else {
            throw .invalid(
                parameter: "segments", value: "\(segments)",
                expected: "a count that fits: \(gaps)\(cap == .round ? " and round caps" : "") "
                    + "need more than the \(RingLimits.plain((arc * 10).rounded() / 10)) px arc\(ring)")
        }
        // What is drawn of a segment: its centre line, and the thinner stroke's round caps.
        let drawn =
            layout.length * .pi / 180 * innermost.radius + (cap == .round ? min(resolvedWidth, resolvedTrackWidth) : 0)
        guard drawn >= RingLimits.segmentLength else {
            throw .invalid(
                parameter: "segments", value: "\(segments)",
                expected: "a count that shows: \(gaps) would each be \(RingLimits.plain(drawn)) px long on the "
                    + "\(RingLimits.plain((arc * 10).rounded() / 10)) px arc\(ring), and a segment needs at least "
                    + "\(RingLimits.plain(RingLimits.segmentLength)) px")
        }
    }

    /// A length within `limit` at `size`: the limit its table entry declares, and whose words
    /// the error uses (`ParameterTableTests` checks both).
    private static func checkLength(_ value: Double?, _ name: String, _ limit: LengthLimit, size: Int)
        throws(RingSpecError)
    {
        guard let value, !limit.contains(value, size: size) else { return }
        throw .outOfRange(parameter: name, value: RingLimits.plain(value), range: limit.range(size: size))
    }

    /// A per-ring list has one item, or one per ring.
    private static func checkPerRing(_ count: Int, _ name: String, rings: Int) throws(RingSpecError) {
        guard count == 1 || count == rings else {
            throw .unfit(
                parameter: name,
                rule: "\(count) values for \(rings) \(rings == 1 ? "ring" : "rings"): give one value, or one per ring")
        }
    }

    /// `{p1}`…`{p4}` in `text` name rings that exist.
    private static func checkPlaceholders(_ text: String, _ name: String, rings: Int) throws(RingSpecError) {
        for index in 0...9 where !(1...rings).contains(index) && text.contains("{p\(index)}") {
            throw .unfit(
                parameter: name,
                rule: "{p\(index)} names a ring that is not there: with \(rings) "
                    + (rings == 1 ? "ring, use {p} or {p1}" : "rings, use {p1} to {p\(rings)}"))
        }
    }

    /// Drops values that only restate a default, so two queries for the same ring give equal
    /// specs, and equal specs give equal canonical keys.
    mutating func normalize() {
        Self.collapse(&minimum)
        Self.collapse(&maximum)
        Self.collapse(&colors)
        Self.collapse(&tracks)
        if gap == Double(size) / 60 || ringCount == 1 { gap = nil }
        if width == Double(size) / 10 { width = nil }
        if trackWidth == resolvedWidth { trackWidth = nil }
        if !gradient.isEmpty { colors = [] }
        if label == .text("{p}") { label = .auto }
        if segments == nil || segmentGap == Double(size) / 40 { segmentGap = nil }
    }

    /// A per-ring list whose items are all equal says what one item says.
    private static func collapse<Item: Equatable>(_ list: inout [Item]) {
        if list.count > 1, list.allSatisfy({ $0 == list[0] }) { list.removeLast(list.count - 1) }
    }

}
