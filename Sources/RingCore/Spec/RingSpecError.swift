/// Why a query does not describe a ring. Every case names the parameter at fault.
///
/// `description` is the message users see, in the error image, in the `X-Ring-Error`
/// header and on the CLI's stderr, e.g. `size: "100000" is out of range 16…1024`.
public enum RingSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A required parameter is absent.
    case missing(parameter: String)
    /// The value does not match the parameter's grammar; `expected` says what would.
    case invalid(parameter: String, value: String, expected: String)
    /// The value parses but lies outside its allowed range.
    case outOfRange(parameter: String, value: String, range: String)
    /// The same parameter appears twice, so the intended ring is ambiguous.
    case duplicate(parameter: String)
    /// Two parameters that cannot be used together.
    case conflict(parameter: String, with: String)
    /// The value is valid alone but not with the rest of the ring; `rule` says why, with the
    /// numbers: `p: 4 rings of width 12 with gap 3 do not fit in size 32`.
    case unfit(parameter: String, rule: String)
    /// A name that is not a parameter of the contract, with the parameter most likely meant
    /// (a near spelling or a known alias), if any. `parameter` is the name as the query had
    /// it, quoted and escaped unless it is a plain ASCII name.
    case unknown(parameter: String, suggestion: String?)

    /// The parameter this error is about.
    public var parameter: String {
        switch self {
        case .missing(let name), .invalid(let name, _, _), .outOfRange(let name, _, _),
            .duplicate(let name), .conflict(let name, _), .unfit(let name, _), .unknown(let name, _):
            name
        }
    }

    /// The message users see: the parameter, then what is wrong with its value.
    public var description: String {
        switch self {
        case .missing(let name):
            "\(name): is required"
        case .invalid(let name, let value, let expected):
            "\(name): \(Self.quote(value)) is not \(expected)"
        case .outOfRange(let name, let value, let range):
            "\(name): \(Self.quote(value)) is out of range \(range)"
        case .duplicate(let name):
            "\(name): is given more than once"
        case .conflict(let name, let other):
            "\(name): cannot be combined with \(other)"
        case .unfit(let name, let rule):
            "\(name): \(rule)"
        case .unknown(let name, _) where Self.copiedFromHTML(name) != nil:
            "\(name): is not a parameter; the query was copied from HTML, where & is written &amp;: "
                + "write & before \(Self.copiedFromHTML(name)!)"
        case .unknown(let name, let suggestion?):
            "\(name): is not a parameter; did you mean \(suggestion)?"
        case .unknown(let name, nil):
            "\(name): is not a parameter"
        }
    }

    /// The name after `amp;`, when a shown name is one that `&amp;` in a query copied from an
    /// HTML attribute makes (`p=72&amp;slice=0.45` has the name `amp;slice`).
    static func copiedFromHTML(_ shown: String) -> String? {
        var name = Substring(shown)
        if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = name.dropFirst().dropLast() }
        guard name.hasPrefix("amp;"), name.count > 4 else { return nil }
        return String(name.dropFirst(4))
    }

    /// A name from a query as a message shows it: as it is when it is a plain name of ASCII
    /// letters, digits, `_`, `-` and `.` of at most `quotedValueLimit` characters, else quoted
    /// and escaped as values are, so no name can break the message, the header or the image.
    static func displayName(_ name: String) -> String {
        let plain =
            !name.isEmpty && name.utf8.count <= quotedValueLimit
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    true
                default: false
                }
            }
        return plain ? name : quote(name)
    }

    /// Longest value quoted back, in unicode scalars.
    static let quotedValueLimit = 32

    /// The value in double quotes, cut to `quotedValueLimit` scalars, with quotes, backslashes,
    /// controls and invisible formatting characters escaped so a message is always one plain line.
    package static func quote(_ value: String) -> String {
        var result = "\""
        for (index, scalar) in value.unicodeScalars.enumerated() {
            if index == quotedValueLimit {
                result += "…"
                break
            }
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where TextRules.isForbidden(scalar):
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
