extension RingSpec {
    /// Parses a URL query string (`p=72&slice=0.45`, without the `?`) into a validated spec.
    ///
    /// Unknown parameters are ignored, so cache-busters such as `&v=2` change nothing. A known
    /// parameter given twice is an error: the ring it means would be ambiguous.
    public init(query: String) throws(RingSpecError) {
        var query = query
        let definitions = RingParameter.Definition.all
        let parsed = query.withUTF8 { bytes -> Result<RingSpec, RingSpecError> in
            // One flag a parameter, on the stack: duplicates are found however many there are.
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: definitions.count) { seen in
                seen.initialize(repeating: false)
                var parser = QueryParser(definitions: definitions, seen: seen)
                do throws(RingSpecError) {
                    try parser.parse(bytes)
                    return .success(parser.spec)
                } catch {
                    return .failure(error)
                }
            }
        }
        self = try parsed.get()
    }

    /// Checks the cross-parameter rules for a spec built in code (the parser already applies them).
    public func validate() throws(RingSpecError) {
        guard value.isFinite, value.magnitude <= RingLimits.magnitude else {
            throw .outOfRange(parameter: "p", value: "\(value)", range: "±1e12")
        }
        guard maximum > minimum else {
            throw .invalid(parameter: "max", value: "\(maximum)", expected: "greater than min (\(minimum))")
        }
        guard percentage.magnitude <= RingLimits.percentage else {
            throw .outOfRange(
                parameter: "p", value: "\(value)", range: "of a percentage within ±1e9 (min \(minimum), max \(maximum))"
            )
        }
        guard RingLimits.size.contains(size) else {
            throw .outOfRange(parameter: "size", value: "\(size)", range: RingLimits.text(RingLimits.size))
        }
        let widthLimit = Double(size) / 3
        if let width, !(width > 0 && width <= widthLimit) {
            throw .outOfRange(
                parameter: "width", value: RingLimits.plain(width),
                range: "0…\(RingLimits.plain(widthLimit)) (> 0 and ≤ size/3)")
        }
        if let trackWidth, !(trackWidth > 0 && trackWidth <= widthLimit) {
            throw .outOfRange(
                parameter: "trackWidth", value: RingLimits.plain(trackWidth),
                range: "0…\(RingLimits.plain(widthLimit)) (> 0 and ≤ size/3)")
        }
        guard RingLimits.slice.contains(slice) else {
            throw .outOfRange(parameter: "slice", value: "\(slice)", range: RingLimits.text(RingLimits.slice))
        }
        guard start.isFinite, start.magnitude <= RingLimits.magnitude else {
            throw .outOfRange(parameter: "start", value: "\(start)", range: "±1e12")
        }
        guard RingLimits.decimals.contains(decimals) else {
            throw .outOfRange(parameter: "decimals", value: "\(decimals)", range: RingLimits.text(RingLimits.decimals))
        }
        guard RingLimits.animation.contains(animation) else {
            throw .outOfRange(parameter: "anim", value: "\(animation)", range: RingLimits.text(RingLimits.animation))
        }
        guard gradient.isEmpty || RingLimits.gradientColors.contains(gradient.count) else {
            let count = RingLimits.gradientColors
            throw .invalid(
                parameter: "gradient", value: "\(gradient.count) colours",
                expected: "\(count.lowerBound) to \(count.upperBound) colours")
        }
        if case .text(let text) = label {
            _ = try QueryValue.text(text, "label", limit: RingLimits.labelScalars)
        }
        if let title {
            _ = try QueryValue.text(title, "title", limit: RingLimits.titleScalars)
        }
    }

    /// Drops values that only restate a default, so two queries for the same ring give equal
    /// specs, and equal specs give equal canonical keys.
    mutating func normalize() {
        if width == Double(size) / 10 { width = nil }
        if trackWidth == resolvedWidth { trackWidth = nil }
        if !gradient.isEmpty { color = nil }
        if label == .text("{p}") { label = .auto }
    }

}

/// Splits a query into pairs, percent-decodes them and fills a `RingSpec` through each
/// parameter's definition.
///
/// Works on the raw bytes of the query; a pair's value becomes a `String` only after it is
/// known to belong to a parameter of the contract.
private struct QueryParser {
    let definitions: [RingParameter.Definition]
    /// Which parameters were seen, by position in `definitions`.
    let seen: UnsafeMutableBufferPointer<Bool>
    private(set) var spec = RingSpec(value: 0)

    init(definitions: [RingParameter.Definition], seen: UnsafeMutableBufferPointer<Bool>) {
        self.definitions = definitions
        self.seen = seen
    }

    /// Fills ``spec`` from `query` and validates it.
    mutating func parse(_ query: UnsafeBufferPointer<UInt8>) throws(RingSpecError) {
        var pairStart = 0
        var index = 0
        while index <= query.count {
            if index == query.count || query[index] == UInt8(ascii: "&") {
                if index > pairStart {
                    try pair(UnsafeBufferPointer(rebasing: query[pairStart..<index]))
                }
                pairStart = index + 1
            }
            index += 1
        }
        guard wasSeen(.p) else { throw .missing(parameter: "p") }
        if spec.half {
            if wasSeen(.slice) { throw .conflict(parameter: "half", with: "slice") }
            if wasSeen(.start) { throw .conflict(parameter: "half", with: "start") }
        }
        try spec.validate()
        spec.normalize()
    }

    private func wasSeen(_ parameter: RingParameter) -> Bool {
        seen[RingParameter.ordered.firstIndex(of: parameter)!]
    }

    private mutating func pair(_ bytes: UnsafeBufferPointer<UInt8>) throws(RingSpecError) {
        let equals = bytes.firstIndex(of: UInt8(ascii: "="))
        let rawName = UnsafeBufferPointer(rebasing: bytes[..<(equals ?? bytes.count)])
        let position: Int?
        if rawName.contains(UInt8(ascii: "%")) || rawName.contains(UInt8(ascii: "+")) {
            let name = QueryValue.decode(rawName)
            position = RingParameter.ordered.firstIndex { $0.rawValue == name }
        } else {
            position = RingParameter.Definition.names.firstIndex { $0.elementsEqual(rawName) }
        }
        guard let position else {
            return  // not ours: cache-busters and unknown parameters never change the ring
        }
        let definition = definitions[position]
        guard !seen[position] else { throw .duplicate(parameter: definition.name) }
        seen[position] = true
        guard let equals else {
            try definition.parse(&spec, nil)
            return
        }
        let rawValue = UnsafeBufferPointer(rebasing: bytes[(equals + 1)...])
        guard let value = QueryValue.decode(rawValue) else {
            throw .invalid(
                parameter: definition.name, value: String(decoding: rawValue, as: UTF8.self),
                expected: "valid percent-encoded UTF-8")
        }
        try definition.parse(&spec, value)
    }
}
