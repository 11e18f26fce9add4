import RingCore

/// A fetched JSON document (RFC 8259), parsed by our own code with explicit bounds, and the
/// values a ring's paths select from it.
///
/// Nothing in a fetched document is trusted: the parser takes at most the bytes the fetch
/// allowed, nests at most ``maxDepth`` arrays and objects, keeps numbers as their text (so
/// the ring reads them with `p`'s rules, not with a `Double` parse of its own), refuses
/// anything RFC 8259 does not allow (a trailing comma, a comment, a lone surrogate, invalid
/// UTF-8, bytes after the value), and keeps the last of repeated member names, as JavaScript
/// and Python do.
package struct JSONDocument: Sendable {
    indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number as the document writes it: `72.4`, `-3`, `1e3`.
        case number(String)
        case string(String)
        case array([Value])
        /// Members in document order; a repeated name keeps its last value.
        case object([(String, Value)])

        static func == (left: Value, right: Value) -> Bool {
            switch (left, right) {
            case (.null, .null): true
            case (.bool(let a), .bool(let b)): a == b
            case (.number(let a), .number(let b)), (.string(let a), .string(let b)): a == b
            case (.array(let a), .array(let b)): a == b
            case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0 == $1 }
            default: false
            }
        }
    }

    /// Why a document was refused, as the error image says it after `src: not JSON: `.
    package struct Refusal: Error, Equatable {
        package var reason: String
    }

    /// Arrays and objects nested deeper than this refuse the document.
    static let maxDepth = 32

    let root: Value
    /// The size of the body it was read from, which the source cache counts.
    let bytes: Int

    package init(_ bytes: [UInt8]) throws(Refusal) {
        var parser = Parser(bytes: bytes)
        root = try parser.document()
        self.bytes = bytes.count
    }

    /// What `path` selects: the number's text, or why there is none, in words for the error
    /// image after the path (`totals.pct is missing`, `… is a string, not a number`).
    func number(at path: FieldPath) -> Result<DocumentValue, Refusal> {
        var value = root
        for step in path.steps {
            switch (step, value) {
            case (.member(let name), .object(let members)):
                guard let member = members.last(where: { $0.0 == name }) else { return .failure(missing(path)) }
                value = member.1
            case (.index(let index), .array(let items)):
                guard index < items.count else { return .failure(missing(path)) }
                value = items[index]
            default:
                return .failure(missing(path))
            }
        }
        switch value {
        case .number(let text): return .success(DocumentValue(text: text, isString: false))
        // A number sent as a string (`"72.4"`) is read as the string says, with p's rules.
        case .string(let text): return .success(DocumentValue(text: text, isString: true))
        case .null: return .failure(Refusal(reason: "\(path) is null, not a number"))
        case .bool: return .failure(Refusal(reason: "\(path) is true or false, not a number"))
        case .array: return .failure(Refusal(reason: "\(path) is an array, not a number"))
        case .object: return .failure(Refusal(reason: "\(path) is an object, not a number"))
        }
    }

    private func missing(_ path: FieldPath) -> Refusal { Refusal(reason: "\(path) is not in the document") }

    /// The document as a shields endpoint (https://shields.io/badges/endpoint-badge), or nil
    /// when it is not one: an object whose `schemaVersion` is 1.
    var endpoint: Endpoint? {
        guard case .object(let members) = root else { return nil }
        func member(_ name: String) -> Value? { members.last(where: { $0.0 == name })?.1 }
        guard case .number(let version)? = member("schemaVersion"), version == "1" else { return nil }
        func string(_ name: String) -> String? {
            if case .string(let text)? = member(name) { text } else { nil }
        }
        var cacheSeconds: Int?
        if case .number(let text)? = member("cacheSeconds"), let seconds = Double(text), seconds.isFinite {
            cacheSeconds = Int(min(max(seconds, 0), Double(Int32.max)))
        }
        var isError = false
        if case .bool(let flag)? = member("isError") { isError = flag }
        return Endpoint(
            message: string("message"), color: string("color"), label: string("label"), isError: isError,
            cacheSeconds: cacheSeconds)
    }

    /// What ring reads of a shields endpoint document.
    struct Endpoint: Equatable {
        /// The value, as shields shows it (`72%`); nil when absent or not a string.
        var message: String?
        var color: String?
        var label: String?
        var isError: Bool
        /// How long the document's author asks that it be kept.
        var cacheSeconds: Int?
    }

    /// A recursive-descent parser over the bytes, depth-bounded.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte order mark is tolerated (RFC 8259 §8.1 lets a parser ignore it).
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func document() throws(Refusal) -> Value {
            let value = try self.value()
            skipSpace()
            guard index == bytes.count else { throw fail("more after the document's value") }
            return value
        }

        func fail(_ reason: String) -> Refusal { Refusal(reason: "\(reason) at byte \(index)") }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws(Refusal) -> Value {
            skipSpace()
            guard index < bytes.count else { throw fail("the document ends early") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try container(close: UInt8(ascii: "}"), object: true)
            case UInt8(ascii: "["): return try container(close: UInt8(ascii: "]"), object: false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw fail("an unexpected character")
            }
        }

        mutating func literal(_ word: StaticString, _ value: Value) throws(Refusal) -> Value {
            let count = word.utf8CodeUnitCount
            let matches = word.withUTF8Buffer { word in
                index + count <= bytes.count && bytes[index..<(index + count)].elementsEqual(word)
            }
            guard matches else { throw fail("an unexpected character") }
            index += count
            return value
        }

        mutating func container(close: UInt8, object: Bool) throws(Refusal) -> Value {
            depth += 1
            guard depth <= JSONDocument.maxDepth else { throw fail("nested deeper than \(JSONDocument.maxDepth)") }
            defer { depth -= 1 }
            index += 1
            var items: [Value] = []
            var members: [(String, Value)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == close {
                index += 1
                return object ? .object([]) : .array([])
            }
            while true {
                skipSpace()
                if object {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw fail("a member name expected")
                    }
                    let name = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("':' expected") }
                    index += 1
                    members.append((name, try value()))
                } else {
                    items.append(try value())
                }
                skipSpace()
                guard index < bytes.count else { throw fail("the document ends early") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == close else {
                    throw fail("',' or the end of the \(object ? "object" : "array") expected")
                }
                index += 1
                return object ? .object(members) : .array(items)
            }
        }

        /// A number's text, checked against RFC 8259's grammar.
        mutating func number() throws(Refusal) -> String {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                return index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw fail("a number without digits") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { throw fail("a number without digits") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw fail("a number without digits after its point") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { throw fail("a number without digits in its exponent") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A string, its escapes decoded; invalid UTF-8 and lone surrogates refuse it.
        mutating func string() throws(Refusal) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var runStart = index
            func flush(_ parser: Parser, _ scalars: inout String.UnicodeScalarView) throws(Refusal) {
                guard runStart < parser.index else { return }
                var decoder = UTF8()
                var iterator = parser.bytes[runStart..<parser.index].makeIterator()
                while true {
                    switch decoder.decode(&iterator) {
                    case .scalarValue(let scalar): scalars.append(scalar)
                    case .emptyInput: return
                    case .error: throw parser.fail("text that is not UTF-8")
                    }
                }
            }
            while true {
                guard index < bytes.count else { throw fail("a string that does not end") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try flush(self, &scalars)
                    index += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw fail("a control character in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                try flush(self, &scalars)
                index += 1
                guard index < bytes.count else { throw fail("a string that does not end") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail("a lone surrogate") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw fail("a lone surrogate") }
                    scalars.append(scalar)
                default:
                    throw fail("an unknown escape")
                }
                runStart = index
            }
        }

        mutating func hex4() throws(Refusal) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("a short \\u escape") }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x57
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x37
                default: throw fail("a \\u escape that is not hexadecimal")
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }
    }
}
