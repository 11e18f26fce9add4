/// `src`: the JSON document a live ring reads its values from, as an absolute `http` or
/// `https` URL.
///
/// The core only reads and checks the URL's shape; whether this server may fetch it (the
/// allowlist, the scheme, the addresses the host resolves to) is the service's decision, and
/// the fetch is the service's. What is refused here is refused whatever the server allows: a
/// URL with credentials in it (`user:pass@`), a fragment, a character that is not printable
/// ASCII (send it percent-encoded), a host that is not a name or an IP literal, or a port past
/// 65535. The scheme and the host are lower-cased, so `HTTPS://Example.COM/x` and
/// `https://example.com/x` are one source, one cache entry and one fetch.
public struct SourceURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// A lower-case DNS name (`example.com`), an IPv4 literal, or an IPv6 literal without its
    /// brackets (`::1`).
    public let host: String
    /// The port given, if any.
    public let port: Int?
    /// Everything after the authority: the path and the query, `/` when none was given.
    public let target: String

    /// The URL as fetched: `https://example.com/coverage.json`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)\(port.map { ":\($0)" } ?? "")\(target)"
    }

    /// Longest URL accepted, in bytes.
    public static let maxBytes = 2048

    /// Parses `text`; the error names `parameter`.
    public init(_ text: String, _ parameter: String) throws(RingSpecError) {
        func refuse(_ expected: String) -> RingSpecError {
            .invalid(parameter: parameter, value: text, expected: expected)
        }
        guard text.utf8.count <= Self.maxBytes else {
            throw .unfit(parameter: parameter, rule: "longer than \(Self.maxBytes) bytes")
        }
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw refuse("a URL of printable ASCII (percent-encode spaces and other characters)")
        }
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[(colon + 1)...].starts(with: "//".utf8)
        else { throw refuse("an absolute URL such as https://example.com/coverage.json") }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { throw refuse("an http or https URL") }
        guard !bytes.contains(UInt8(ascii: "#")) else { throw refuse("a URL without a #fragment") }
        let authorityStart = colon + 3
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
        let authority = bytes[authorityStart..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else { throw refuse("a URL without credentials (user@)") }
        var hostPart = authority[...]
        var port: Int?
        if hostPart.first == UInt8(ascii: "[") {
            guard let close = hostPart.firstIndex(of: UInt8(ascii: "]")) else { throw refuse("a valid IPv6 literal") }
            let literal = hostPart[(hostPart.startIndex + 1)..<close]
            guard !literal.isEmpty,
                literal.allSatisfy({ Self.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { throw refuse("a valid IPv6 literal") }
            let rest = hostPart[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else { throw refuse("a valid host and port") }
                port = try Self.port(rest.dropFirst(), refuse)
            }
            hostPart = literal
        } else if let portColon = hostPart.firstIndex(of: UInt8(ascii: ":")) {
            port = try Self.port(hostPart[(portColon + 1)...], refuse)
            hostPart = hostPart[..<portColon]
        }
        let host = String(decoding: hostPart, as: UTF8.self).lowercased()
        let isName = host.utf8.allSatisfy { byte in
            Self.isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":")
        }
        guard !host.isEmpty, host.utf8.count <= 253, isName, !host.hasPrefix("."), !host.contains("..") else {
            throw refuse("a URL with a host name or IP address")
        }
        self.scheme = scheme
        self.host = host
        self.port = port
        let target = String(decoding: bytes[authorityEnd...], as: UTF8.self)
        self.target = target.hasPrefix("/") ? target : "/" + target
    }

    private static func port(_ digits: ArraySlice<UInt8>, _ refuse: (String) -> RingSpecError) throws(RingSpecError)
        -> Int
    {
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let port = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(port)
        else { throw refuse("a URL with a port of 1 to 65535") }
        return port
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

/// `field` and `maxField`: where a value is in the JSON document, in a small grammar of our
/// own: names separated by dots, each followed by any number of array indices,
/// `totals.lines.pct`, `data[0].value`, `[2]`.
///
/// It is evaluated by the service's own code, step by step, and nothing else: no filters, no
/// expressions, no recursion, no library. (shields' JSONPath library allowed remote code
/// execution, GHSA-rxvx-x284-4445.) A name is ASCII letters, digits, `_`, `-` and `$`; an
/// index has at most 6 digits; a path has at most ``maxSteps`` steps and ``maxBytes`` bytes.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// One step into the document.
    public enum Step: Sendable, Hashable {
        /// A member of an object.
        case member(String)
        /// An element of an array, from 0.
        case index(Int)
    }

    public let steps: [Step]

    public static let maxSteps = 16
    public static let maxBytes = 128

    /// The path as written: `data[0].value`.
    public var description: String {
        var text = ""
        for step in steps {
            switch step {
            case .member(let name): text += (text.isEmpty ? "" : ".") + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    init(_ text: Substring, _ parameter: String) throws(RingSpecError) {
        func refuse() -> RingSpecError {
            .invalid(
                parameter: parameter, value: String(text),
                expected: "a path of names and [indices] such as totals.pct or data[0].value")
        }
        guard !text.isEmpty, text.utf8.count <= Self.maxBytes else { throw refuse() }
        var steps: [Step] = []
        let bytes = Array(text.utf8)
        var index = 0
        var expectsName = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "[") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")), close > index + 1,
                    close - index - 1 <= 6, bytes[(index + 1)..<close].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let number = Int(String(decoding: bytes[(index + 1)..<close], as: UTF8.self))
                else { throw refuse() }
                steps.append(.index(number))
                index = close + 1
                expectsName = false
            } else if byte == UInt8(ascii: ".") {
                guard !steps.isEmpty, !expectsName else { throw refuse() }
                index += 1
                expectsName = true
            } else {
                guard expectsName else { throw refuse() }
                let end = bytes[index...].firstIndex { !Self.isNameByte($0) } ?? bytes.count
                guard end > index else { throw refuse() }
                steps.append(.member(String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end
                expectsName = false
            }
        }
        guard !expectsName, steps.count <= Self.maxSteps else { throw refuse() }
        self.steps = steps
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "$"):
            true
        default: false
        }
    }
}

/// `src`.
struct SourceGrammar: ValueGrammar {
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> SourceURL {
        try SourceURL(text ?? "", parameter.rawValue)
    }

    func write(_ value: SourceURL, into w: inout ByteWriter) { CanonicalKey.escape(value.description, into: &w) }

    var kind: RingParameter.Kind { .source }
    var values: String { "an absolute https URL of a JSON document, percent-encoded" }
}

/// `field` and `maxField`: one path, or one per ring separated by commas.
struct FieldPathsGrammar: ValueGrammar {
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> [FieldPath] {
        let items = (text ?? "").split(separator: ",", omittingEmptySubsequences: false)
        guard RingLimits.rings.contains(items.count) else {
            throw .invalid(
                parameter: parameter.rawValue, value: "\(items.count) paths",
                expected: "\(RingLimits.text(RingLimits.rings)) paths, one per ring")
        }
        var paths: [FieldPath] = []
        for item in items { paths.append(try FieldPath(item, parameter.rawValue)) }
        return paths
    }

    func write(_ value: [FieldPath], into w: inout ByteWriter) {
        for (index, path) in value.enumerated() {
            if index > 0 { w.append(byte: UInt8(ascii: ",")) }
            CanonicalKey.escape(path.description, into: &w)
        }
    }

    var kind: RingParameter.Kind { .paths }
    var values: String { "a path such as totals.pct or data[0].value; or one per ring, comma-separated" }
}

extension RingSpec {
    /// Whether the values come from a JSON document (`src`) that the service reads.
    /// Asked on every new ring. A pattern, not `source != nil`: with `SourceURL` `Equatable`,
    /// that compares two optionals and copies the URL's three strings to do it.
    public var isLive: Bool {
        if case .some = source { true } else { false }
    }

    /// The ring a live spec draws once its document is read: `values`, one number a ring as
    /// the document writes it (a JSON number, or a string holding one), and with `maxField`
    /// `maximums`, one for every ring or one per ring. Each is read with `p`'s rules (plain
    /// decimals, within -1e12…1e12: JSON's `1e3` is refused as `p=1e3` is), and the ring is
    /// validated again, so a document can make no ring a URL could not.
    ///
    /// The result has no source: its canonical key is the one of the same ring written with
    /// `p` (and `max`), so it shares that ring's cache entry and ETag, and its digest covers
    /// the values read.
    public func resolving(values: [String], maximums: [String] = []) throws(RingSpecError) -> RingSpec {
        try resolving(values.map(DocumentValue.init(number:)), maximums: maximums.map(DocumentValue.init(number:)))
    }

    /// ``resolving(values:maximums:)`` with what each value was in its document: a JSON
    /// string's text is quoted in messages, a number shown as written.
    package func resolving(_ values: [DocumentValue], maximums: [DocumentValue]) throws(RingSpecError) -> RingSpec {
        precondition(isLive && values.count == fields.count && maximums.count == maxFields.count)
        var ring = self
        if !maximums.isEmpty {
            ring.maximum = try Self.numbers(maximums, paths: maxFields, parameter: .maxField) { _ in
                RingSpec.Ring.Scale(range: -RingLimits.magnitude...RingLimits.magnitude, minimum: 0, maximum: 0)
            }
            // A max from the document is named by its field and its text in the document, not
            // as a `max` the URL does not have.
            for index in 0..<ring.ringCount where ring.ring(index).maximum <= ring.ring(index).minimum {
                let field = maxFields.count == 1 ? 0 : index
                throw .unfit(
                    parameter: RingParameter.maxField.rawValue,
                    rule: "\(maxFields[field]) is \(maximums[field].shown) in the document, not greater than "
                        + "min (\(RingLimits.plain(ring.ring(index).minimum)))")
            }
        }
        // Each value on its ring's scale, as `p` would be; validation names a URL's own max.
        let scales = ring
        ring.values = try Self.numbers(values, paths: fields, parameter: .field) { index in
            let scale = scales.ring(index)
            return scale.maximum > scale.minimum ? scale.scale : nil
        }
        if ring.stack, let index = ring.values.firstIndex(where: { !($0 >= 0) }) {
            throw .unfit(
                parameter: RingParameter.field.rawValue,
                rule: "\(fields[index]) is \(values[index].shown) in the document: a stacked part is 0 or more")
        }
        ring.source = nil
        ring.fields = []
        ring.maxFields = []
        try ring.validate()
        ring.normalize()
        return ring
    }

    /// The ring a shields endpoint document (`schemaVersion` 1, read when `src` has no
    /// `field`) makes: its `message` is the value (`72%`, `72`, `72.5 %`); its `color`, one of
    /// shields' names or a colour `color=` accepts, the bar's colour; and its `label` the
    /// caption, each unless the URL gives its own. A colour neither knows is left out, as
    /// shields leaves it; a message that is no number, or a label `caption=` would refuse, is an
    /// error naming `src`.
    package func resolving(endpoint message: String, color: String?, label: String?) throws(RingSpecError)
        -> RingSpec
    {
        precondition(isLive && fields.isEmpty)
        var ring = self
        // The number, without spaces around it and a `%` after it (shields writes `72%`,
        // French text `72 %` with a no-break space).
        func isSpace(_ character: Character) -> Bool {
            character == " " || character == "\u{A0}" || character == "\u{202F}"
        }
        var number = Substring(message).drop(while: isSpace)
        while let last = number.last, isSpace(last) { number.removeLast() }
        if number.last == "%" { number.removeLast() }
        while let last = number.last, isSpace(last) { number.removeLast() }
        guard let read = try? QueryValue.number(String(number), RingParameter.src.rawValue) else {
            throw .unfit(
                parameter: RingParameter.src.rawValue,
                rule: "the endpoint's message \(DocumentValue(text: message, isString: true).shown) is not a number "
                    + "such as 72%")
        }
        let scale = ring.ring(0).scale
        guard ring.ring(0).maximum <= ring.ring(0).minimum || scale.range.contains(read) else {
            throw .unfit(
                parameter: RingParameter.src.rawValue,
                rule: "the endpoint's message \(DocumentValue(text: message, isString: true).shown) is out of range "
                    + scale.text)
        }
        ring.values = [read]
        if ring.colors.isEmpty, let color {
            if let named = Self.shieldsColors[color.lowercased()] {
                ring.colors = [named]
            } else if let given = try? ColorGrammar().read(color, .color) {
                ring.colors = [given]
            }
        }
        if ring.caption == nil, let label, !label.isEmpty {
            do throws(RingSpecError) {
                ring.caption = try TextGrammar(limit: RingLimits.captionScalars, placeholders: true).read(
                    label, .caption)
            } catch {
                throw .unfit(parameter: RingParameter.src.rawValue, rule: "the endpoint's label: \(error)")
            }
        }
        ring.source = nil
        try ring.validate()
        ring.normalize()
        return ring
    }

    /// shields' named colours and their aliases (badge-maker's palette).
    static let shieldsColors: [String: RingColor] = {
        let named: [(String, UInt32)] = [
            ("brightgreen", 0x44cc11), ("green", 0x97ca00), ("yellowgreen", 0xa4a61d), ("yellow", 0xdfb317),
            ("orange", 0xfe7d37), ("red", 0xe05d44), ("blue", 0x007ec6), ("grey", 0x555555), ("gray", 0x555555),
            ("lightgrey", 0x9f9f9f), ("lightgray", 0x9f9f9f), ("success", 0x44cc11), ("important", 0xfe7d37),
            ("critical", 0xe05d44), ("informational", 0x007ec6), ("inactive", 0x9f9f9f),
        ]
        return Dictionary(uniqueKeysWithValues: named.map { ($0.0, RingColor(rgb: $0.1)) })
    }()

    /// The documents' numbers, each read as the URL's would be and within `range(index)`
    /// when it gives one; an error names the field and the text in the document.
    private static func numbers(
        _ values: [DocumentValue], paths: [FieldPath], parameter: RingParameter,
        range: (Int) -> RingSpec.Ring.Scale?
    ) throws(RingSpecError) -> [Double] {
        var numbers: [Double] = []
        for (index, (value, path)) in zip(values, paths).enumerated() {
            let problem: String
            if let number = try? QueryValue.number(value.text, parameter.rawValue) {
                guard let allowed = range(index), !allowed.range.contains(number) else {
                    numbers.append(number)
                    continue
                }
                problem = "out of range \(allowed.text)"
            } else if !value.isString, let number = Double(value.text) {
                // A JSON number that is not a plain decimal: past what the URL's 32 characters
                // or a Double hold (`1e400`) is out of range, any other (`1e3`) is refused as
                // `p=1e3` is.
                let allowed = range(index)?.text ?? RingLimits.magnitudeText
                problem =
                    number.magnitude > RingLimits.magnitude || !number.isFinite
                    ? "out of range \(allowed)" : "not a number such as 72 or -0.5"
            } else {
                problem = "not a number such as 72 or -0.5"
            }
            throw .unfit(parameter: parameter.rawValue, rule: "\(path) is \(value.shown), \(problem)")
        }
        return numbers
    }

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fileprivate static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Bool {
            let count = bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 }).count
            bytes = bytes.dropFirst(count)
            return count > 0
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if !digits() {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }
}

/// A value read from a live document: the text of a JSON number, or of a JSON string (a
/// number sent as a string is read as the string says, with p's rules).
package struct DocumentValue: Sendable, Equatable {
    package var text: String
    package var isString: Bool

    package init(text: String, isString: Bool) {
        self.text = text
        self.isString = isString
    }

    /// A value given as bare text: a string unless it is written as a JSON number.
    init(number text: String) {
        self.init(text: text, isString: !RingSpec.isJSONNumber(text))
    }

    /// As a message shows it: a JSON number as written (`1e400`), a string's text quoted.
    var shown: String { isString ? RingSpecError.quote(text) : text }
}
