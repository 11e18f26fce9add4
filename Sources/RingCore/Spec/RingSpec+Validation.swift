/// The rules a spec keeps: each value's own (from its codec in the table), then the rules
/// between parameters, each declared once here: conflicts, per-ring counts and ranges, and
/// what only the layout can tell (fit). Then the normalisation that makes equal rings equal
/// specs.
extension RingSpec {
    /// Pairs of parameters that cannot be used together: the first when its value is not its
    /// default (`half=1`), with the second given at all (`slice`, even `slice=0`).
    static let conflicts: [Conflict] = [
        Conflict(.half, .slice), Conflict(.half, .start), Conflict(.segments, .gradient),
        Conflict(.thresholds, .color), Conflict(.thresholds, .gradient), Conflict(.overflow, .slice),
        Conflict(.overflow, .half), Conflict(.overflow, .segments), Conflict(.ticks, .segments),
        // `to` comes with `from` (or is refused): the pair's conflicts name `from`.
        Conflict(.maxField, .max), Conflict(.from, .src), Conflict(.from, .min), Conflict(.from, .max),
        // A stack's parts are counted from 0, in colours of their own, end to end.
        Conflict(.stack, .min), Conflict(.stack, .segments), Conflict(.stack, .thresholds), Conflict(.stack, .gradient),
    ]

    /// Two parameters that cannot be used together, with their positions in the table.
    struct Conflict: Sendable {
        let first: RingParameter
        let second: RingParameter
        let firstPosition: Int
        let secondPosition: Int

        init(_ first: RingParameter, _ second: RingParameter) {
            self.first = first
            self.second = second
            self.firstPosition = RingParameter.ordered.firstIndex(of: first)!
            self.secondPosition = RingParameter.ordered.firstIndex(of: second)!
        }
    }

    /// Checks every rule for a spec built in code (the parser applies them already).
    public func validate() throws(RingSpecError) {
        var spec = self
        try spec.validate(seen: ParameterSet())
    }

    /// Every rule; `seen` holds the parameters a query named, which count as given for
    /// conflicts even when they spell out their default.
    mutating func validate(seen: ParameterSet) throws(RingSpecError) {
        var checker = Checker(given: seen)
        try RingParameter.declare(to: &checker, in: &self)
        let given = checker.given
        for conflict in Self.conflicts
        where given.contains(conflict.firstPosition) && !checker.defaults.contains(conflict.firstPosition)
            && given.contains(conflict.secondPosition)
        {
            throw .conflict(parameter: conflict.first.rawValue, with: conflict.second.rawValue)
        }
        try checkStack()
        try checkSource()
        try checkTime()
        guard tracks.count == 1 || !tracks.contains(.standard) else {
            throw .unfit(parameter: RingParameter.track.rawValue, rule: "a list needs a colour or none for every ring")
        }
        for index in 0..<ringCount {
            let ring = ring(index)
            guard ring.maximum > ring.minimum else {
                throw .invalid(
                    parameter: RingParameter.max.rawValue, value: "\(ring.maximum)",
                    expected: "greater than min (\(ring.minimum))")
            }
            try Self.checkPercentage(of: ring.value, .p, in: ring)
            // The title shows the target's percentage as the label shows p's. A max from the
            // document is checked with the document's values.
            if let target = ring.target, maxFields.isEmpty { try Self.checkPercentage(of: target, .target, in: ring) }
        }
        // Last: the layout needs every other number valid.
        try checkFit()
    }

    /// Stacked parts: none below 0, laps none (a stack fills one ring), names one per part;
    /// `max=sum` and `parts` only with `stack`.
    private func checkStack() throws(RingSpecError) {
        guard stack else {
            if maximum.contains(Self.sumOfParts) {
                throw .unfit(parameter: RingParameter.max.rawValue, rule: "sum adds up stacked parts: give stack")
            }
            if !partNames.isEmpty {
                throw .unfit(parameter: RingParameter.parts.rawValue, rule: "names stacked parts: give stack")
            }
            return
        }
        // Checked here, not in `conflicts`: `overflow=clamp` stacks, and a stack has no time.
        if overflow == .lap {
            throw .conflict(parameter: RingParameter.stack.rawValue, with: RingParameter.overflow.rawValue)
        }
        if from != nil || to != nil {
            throw .conflict(
                parameter: RingParameter.stack.rawValue, with: (from != nil ? RingParameter.from : .to).rawValue)
        }
        if isLive && fields.isEmpty {
            throw .unfit(
                parameter: RingParameter.stack.rawValue,
                rule: "needs a field per part: a shields endpoint document has one value")
        }
        for (index, value) in values.enumerated() where !(value >= 0) {
            throw .outOfRange(
                parameter: isLive ? RingParameter.field.rawValue : RingParameter.p.rawValue,
                value: RingLimits.plain(value),
                range: "0…1e12 (part \(index + 1) of the stack: a count or an amount)")
        }
        guard partNames.isEmpty || partNames.count == values.count else {
            throw .unfit(
                parameter: RingParameter.parts.rawValue,
                rule: "\(partNames.count) names for \(values.count) parts: give one name per part")
        }
    }

    /// A live ring's paths: `field` only with `src`, one path a ring (they count the rings),
    /// or none for a shields endpoint document; `maxField` with `field`, one path for every
    /// ring or one per ring.
    private func checkSource() throws(RingSpecError) {
        guard isLive else {
            // Checked one by one, not in a list: a list of the two was allocated on every parse.
            let parameter: RingParameter? = !fields.isEmpty ? .field : !maxFields.isEmpty ? .maxField : nil
            if let parameter {
                throw .unfit(parameter: parameter.rawValue, rule: "reads the document of src, which is not given")
            }
            return
        }
        guard !fields.isEmpty else {
            // Without `field`, the document is read as a shields endpoint: its message is the
            // one value, with no path for a max.
            guard maxFields.isEmpty else {
                throw .unfit(
                    parameter: RingParameter.maxField.rawValue,
                    rule: "needs field: a shields endpoint document's value is its message")
            }
            return
        }
        guard fields.count == values.count else {
            throw .unfit(
                parameter: RingParameter.field.rawValue, rule: "\(fields.count) paths for \(values.count) values")
        }
        guard maxFields.count <= 1 || maxFields.count == fields.count else {
            throw .unfit(
                parameter: RingParameter.maxField.rawValue,
                rule: "\(maxFields.count) paths for \(fields.count) rings: give one path, or one per ring")
        }
    }

    /// Time progress: `from` and `to` together, `from` first; `{left}` only with them.
    private func checkTime() throws(RingSpecError) {
        switch (from, to) {
        case (nil, nil):
            for (parameter, text) in [(RingParameter.label, labelText), (.caption, caption)]
            where text?.contains("{left}") == true {
                throw .unfit(parameter: parameter.rawValue, rule: "{left} is the time left before to: give from and to")
            }
        case (_?, nil): throw .missing(parameter: RingParameter.to.rawValue)
        case (nil, _?): throw .missing(parameter: RingParameter.from.rawValue)
        case (let from?, let to?):
            guard from < to else {
                throw .unfit(
                    parameter: RingParameter.from.rawValue,
                    rule: "\(Moment.text(from)) is not before to (\(Moment.text(to)))")
            }
        }
    }

    /// `value` lies on `ring`'s scale (``RingSpec/Ring/scale``); the error states the range
    /// this ring enforces.
    private static func checkPercentage(of value: Double, _ parameter: RingParameter, in ring: Ring)
        throws(RingSpecError)
    {
        let scale = ring.scale
        guard !scale.range.contains(value) else { return }
        throw .outOfRange(parameter: parameter.rawValue, value: RingLimits.plain(value), range: scale.text)
    }

    /// The rings fit in the box, and so do their segments: what only the layout's first part
    /// (`RingGeometry.Bands`, the rings' radii and arc) can tell. The full layout is built
    /// once, by the scene.
    private func checkFit() throws(RingSpecError) {
        guard ringCount > 1 || segments != nil || ticks != nil else { return }  // one plain ring always fits
        let bands = RingGeometry.Bands(spec: self)
        let innermost = bands.radius(ofRing: ringCount - 1)
        // One ring keeps the contract it always had: any width up to size/3.
        guard ringCount == 1 || innermost >= bands.strokeHalf else {
            let fitting = max(Int(((bands.outerRadius - bands.strokeHalf) / bands.pitch).rounded(.down)) + 1, 1)
            throw .unfit(
                parameter: RingParameter.p.rawValue,
                rule: "\(ringCount) rings of width \(RingLimits.plain(2 * bands.strokeHalf)) with gap "
                    + "\(RingLimits.plain(resolvedGap)) do not fit in size \(size) (\(fitting) "
                    + (fitting == 1 ? "does)" : "do)"))
        }
        if let ticks { try checkTicks(ticks, bands: bands, innermost: innermost) }
        guard let segments else { return }
        // The innermost ring has the shortest arc, so the fewest pixels to share.
        let layout = RingGeometry.segmentLayout(self, radius: innermost, total: bands.total)
        let arc = bands.total * .pi / 180 * innermost
        let gaps = "\(segments) segments with gaps of \(RingLimits.plain(resolvedSegmentGap)) px"
        let ring = ringCount > 1 ? " of the innermost ring" : ""
        guard layout.length > 0 else {
            throw .invalid(
                parameter: RingParameter.segments.rawValue, value: "\(segments)",
                expected: "a count that fits: \(gaps)\(cap == .round ? " and round caps" : "") "
                    + "need more than the \(RingLimits.plain((arc * 10).rounded() / 10)) px arc\(ring)")
        }
        // What is drawn of a segment: its centre line, and the thinner stroke's round caps.
        let drawn =
            layout.length * .pi / 180 * innermost + (cap == .round ? min(resolvedWidth, resolvedTrackWidth) : 0)
        guard drawn >= RingLimits.segmentLength else {
            throw .invalid(
                parameter: RingParameter.segments.rawValue, value: "\(segments)",
                expected: "a count that shows: \(gaps) would each be \(RingLimits.plain(drawn)) px long on the "
                    + "\(RingLimits.plain((arc * 10).rounded() / 10)) px arc\(ring), and a segment needs at least "
                    + "\(RingLimits.plain(RingLimits.segmentLength)) px")
        }
    }

    /// The count is within ``RingLimits/ticks`` and its marks stay apart: where they are
    /// closest, on the innermost track's inner edge, neighbours keep at least
    /// ``RingLimits/tickSpacing`` px of track between them. The error states the counts that
    /// this ring allows.
    private func checkTicks(_ ticks: Int, bands: RingGeometry.Bands, innermost: Double) throws(RingSpecError) {
        let edge = max(innermost - resolvedTrackWidth / 2, 0)
        let arc = bands.total * .pi / 180 * edge
        let width = RingGeometry.tickWidth(self)
        func shows(_ count: Int) -> Bool { arc / Double(count) - width >= RingLimits.tickSpacing }
        // The largest count that shows, from the closed form, then confirmed by the rule itself.
        var most = min(Int((arc / (RingLimits.tickSpacing + width)).rounded(.down)), RingLimits.ticks.upperBound)
        while most >= RingLimits.ticks.lowerBound && !shows(most) { most -= 1 }
        guard !(RingLimits.ticks.lowerBound...most).contains(ticks) else { return }
        let ring = ringCount > 1 ? " of the innermost ring" : ""
        let why =
            "marks \(RingLimits.plain(width)) px wide on the \(RingLimits.plain((arc * 10).rounded() / 10)) px "
            + "inner edge\(ring) need at least \(RingLimits.plain(RingLimits.tickSpacing)) px between them"
        guard most >= RingLimits.ticks.lowerBound else {
            throw .unfit(parameter: RingParameter.ticks.rawValue, rule: "no count fits this ring: \(why)")
        }
        let range = RingLimits.text(RingLimits.ticks.lowerBound...most)
        throw .outOfRange(
            parameter: RingParameter.ticks.rawValue, value: "\(ticks)",
            range: most < RingLimits.ticks.upperBound ? "\(range) for this ring (\(why))" : range)
    }

    /// Drops values that only restate a default, so two queries for the same ring give equal
    /// specs, and equal specs give equal canonical keys: each value as its codec normalises
    /// it, then what other parameters make meaningless.
    /// This spec with what only restates a default dropped: what ``init(query:)`` gives for
    /// the same ring. ``canonicalKey`` and ``digest`` are those of the normalised spec.
    public func normalized() -> RingSpec {
        var spec = self
        spec.normalize()
        return spec
    }

    mutating func normalize() {
        var normalizer = Normalizer()
        RingParameter.declare(to: &normalizer, in: &self)
        if ringCount == 1 { gap = nil }  // no neighbours to keep apart
        if segments == nil { segmentGap = nil }  // no segments to part
        if !gradient.isEmpty { colors = [] }  // the gradient colours the bar
        if targets.allSatisfy({ $0 == nil }) { targetColor = nil }  // no marker to colour
        if ticks == nil { tickColor = nil }  // no marks to colour
    }
}

/// Walks the table for ``RingSpec/validate(seen:)``: each value's own rules, and which
/// parameters are given (not at their default) and which are at their default.
private struct Checker: ParameterVisitor {
    typealias Failure = RingSpecError
    /// Given: named by the query, or not at the default.
    var given: ParameterSet
    var defaults = ParameterSet()
    private var position = 0

    init(given: ParameterSet) { self.given = given }

    @inline(__always)
    mutating func visit<Codec: ParameterCodec>(
        _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
        _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
    ) throws(RingSpecError) {
        defer { position += 1 }
        let value = spec[keyPath: field]
        if codec.isDefault(value, in: spec) {
            _ = defaults.insert(position)
            return
        }
        _ = given.insert(position)
        try codec.check(value, parameter, in: spec)
    }
}

/// Walks the table for ``RingSpec/normalize()``.
private struct Normalizer: ParameterVisitor {
    typealias Failure = Never
    @inline(__always)
    mutating func visit<Codec: ParameterCodec>(
        _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
        _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
    ) {
        let value = spec[keyPath: field]
        let normal = codec.normalized(value, in: spec)
        if normal != value { spec[keyPath: field] = normal }
    }
}
