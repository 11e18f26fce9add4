extension RingSpec {
    /// Parses a URL query string (`p=72&slice=0.45`, without the `?`) into a validated spec.
    ///
    /// A name that is not a parameter is an error that names it and suggests the parameter
    /// most likely meant (`colour` → `color`): a misspelt parameter silently drawing the
    /// default would hide the mistake. The one exception is ``RingParameter/cacheBuster``
    /// (`v`), accepted and ignored, so `&v=2` changes a URL without changing its ring. A
    /// known parameter given twice is an error: the ring it means would be ambiguous.
    public init(query: String) throws(RingSpecError) {
        self.init(values: [])
        var parser = QueryParser()
        try Self.parse(query, with: &parser, into: &self)
    }

    /// Every mistake in `query`, for validators (`/ring.json`) that show them all at once;
    /// empty when ``init(query:)`` accepts it. Each pair is checked on its own: every unknown
    /// name, repeated parameter and invalid value is reported, in query order. Rules between
    /// parameters (`width` against `size`, the rings fitting) are checked only when every pair
    /// is valid, and the first one broken is reported, as ``init(query:)`` does.
    public static func errors(inQuery query: String) -> [RingSpecError] {
        var parser = QueryParser()
        parser.collectsErrors = true
        var spec = RingSpec(values: [])
        do throws(RingSpecError) {
            try parse(query, with: &parser, into: &spec)
            return parser.errors
        } catch {
            return parser.errors + [error]
        }
    }

    /// Runs `parser` over the query's bytes, filling `spec` where it lies: a closure that
    /// captured an initialiser's `self` instead made the spec in a local and copied it out (a
    /// retain for each of its many fields).
    private static func parse(_ query: String, with parser: inout QueryParser, into spec: inout RingSpec)
        throws(RingSpecError)
    {
        var query = query
        let failure = query.withUTF8 { bytes -> RingSpecError? in
            do throws(RingSpecError) {
                try parser.parse(bytes, into: &spec)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}

/// Splits a query into pairs, percent-decodes them and fills a `RingSpec` (made with no values:
/// an empty list allocates nothing, and `p` is required).
///
/// Works on the raw bytes of the query; a pair's value becomes a `String` only after it is
/// known to belong to a parameter of the contract.
private struct QueryParser {
    /// Which parameters were seen, by position in ``RingParameter/ordered``: one flag each,
    /// as many as there are parameters.
    private var seen = ParameterSet()
    /// Whether a pair's error is kept in ``errors`` and the parse goes on to the next pair,
    /// rather than thrown.
    var collectsErrors = false
    /// The pairs' errors, when ``collectsErrors``.
    var errors: [RingSpecError] = []

    private static let sourcePosition = RingParameter.ordered.firstIndex(of: .src)!
    private static let fromPosition = RingParameter.ordered.firstIndex(of: .from)!
    private static let toPosition = RingParameter.ordered.firstIndex(of: .to)!

    /// Fills `spec` from `query` and validates it.
    mutating func parse(_ query: UnsafeBufferPointer<UInt8>, into spec: inout RingSpec) throws(RingSpecError) {
        var pairStart = 0
        var index = 0
        while index <= query.count {
            if index == query.count || query[index] == UInt8(ascii: "&") {
                if index > pairStart {
                    do throws(RingSpecError) {
                        try pair(UnsafeBufferPointer(rebasing: query[pairStart..<index]), into: &spec)
                    } catch {
                        guard collectsErrors else { throw error }
                        errors.append(error)
                    }
                }
                pairStart = index + 1
            }
            index += 1
        }
        // `p` is the table's first parameter: position 0. A live ring has `src` instead, and
        // one value a ring to hold the place of the document's until the service reads them.
        let live = seen.contains(Self.sourcePosition)
        if live, seen.contains(0) {
            throw .conflict(parameter: RingParameter.p.rawValue, with: RingParameter.src.rawValue)
        }
        // Time progress (`from` and `to`) too: its value is the moment's.
        let timed = seen.contains(Self.fromPosition) || seen.contains(Self.toPosition)
        if timed, seen.contains(0) {
            let other = seen.contains(Self.fromPosition) ? RingParameter.from : .to
            throw .conflict(parameter: RingParameter.p.rawValue, with: other.rawValue)
        }
        guard seen.contains(0) || live || timed else { throw .missing(parameter: RingParameter.p.rawValue) }
        if live || timed, spec.values.isEmpty {
            spec.values = Array(repeating: 0, count: max(spec.fields.count, 1))
        }
        guard errors.isEmpty else { return }
        try spec.validate(seen: seen)
        spec.normalize()
    }

    private mutating func pair(_ bytes: UnsafeBufferPointer<UInt8>, into spec: inout RingSpec) throws(RingSpecError) {
        let equals = bytes.firstIndex(of: UInt8(ascii: "="))
        let rawName = UnsafeBufferPointer(rebasing: bytes[..<(equals ?? bytes.count)])
        let position: Int?
        let encoded = rawName.contains(UInt8(ascii: "%")) || rawName.contains(UInt8(ascii: "+"))
        if encoded {
            let name = QueryValue.decode(rawName)
            position = RingParameter.ordered.firstIndex { $0.rawValue == name }
        } else {
            position = RingParameter.Definition.names.firstIndex { $0.elementsEqual(rawName) }
        }
        guard let position else {
            let name = (encoded ? QueryValue.decode(rawName) : nil) ?? String(decoding: rawName, as: UTF8.self)
            if name == RingParameter.cacheBuster { return }
            throw .unknown(
                parameter: RingSpecError.displayName(name), suggestion: RingParameter.suggestion(for: name)?.rawValue)
        }
        let parameter = RingParameter.ordered[position]
        guard seen.insert(position) else { throw .duplicate(parameter: parameter.rawValue) }
        guard let equals else {
            try Self.assign(parameter, nil, to: &spec)
            return
        }
        let rawValue = UnsafeBufferPointer(rebasing: bytes[(equals + 1)...])
        guard let value = QueryValue.decode(rawValue) else {
            throw .invalid(
                parameter: parameter.rawValue, value: String(decoding: rawValue, as: UTF8.self),
                expected: "valid percent-encoded UTF-8")
        }
        try Self.assign(parameter, value, to: &spec)
    }

    /// Sets `parameter`'s field from its decoded value with the table's codec.
    @inline(__always)
    private static func assign(_ parameter: RingParameter, _ value: String?, to spec: inout RingSpec)
        throws(RingSpecError)
    {
        var assignment = Assignment(parameter: parameter, text: value)
        try RingParameter.declare(to: &assignment, in: &spec)
    }
}

/// Walks the table for one query pair: the parameter's codec reads the value into its field.
private struct Assignment: ParameterVisitor {
    typealias Failure = RingSpecError
    let parameter: RingParameter
    let text: String?

    @inline(__always)
    mutating func visit<Codec: ParameterCodec>(
        _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
        _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
    ) throws(RingSpecError) {
        guard parameter == self.parameter else { return }
        spec[keyPath: field] = try codec.read(text, parameter)
    }
}
/// A set of parameter positions: one bit each in as many 64-bit words as the contract needs,
/// held inline so parsing allocates nothing. `ParameterTableTests` checks the words suffice.
struct ParameterSet {
    static let capacity = 128
    private var words: (UInt64, UInt64) = (0, 0)

    /// Adds `position`; false when it was there already.
    @inline(__always)
    mutating func insert(_ position: Int) -> Bool {
        precondition(position < Self.capacity, "ParameterSet holds 128 parameters")
        let bit = UInt64(1) << UInt64(position & 63)
        if position < 64 {
            defer { words.0 |= bit }
            return words.0 & bit == 0
        }
        defer { words.1 |= bit }
        return words.1 & bit == 0
    }

    @inline(__always)
    func contains(_ position: Int) -> Bool {
        (position < 64 ? words.0 : words.1) & UInt64(1) << UInt64(position & 63) != 0
    }
}
