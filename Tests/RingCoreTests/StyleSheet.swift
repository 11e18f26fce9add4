/// A strict reader of the small CSS subset our SVGs use, so a test can tell a stylesheet
/// browsers accept from one they drop: rules `.class{property:value;…}`, `@media (…){rules}`
/// and `@keyframes name{from{…} to{…}}`. A brace, colon or semicolon out of place is an error,
/// as it is for a browser, which then ignores the declaration or the whole rule.
struct StyleSheet: Equatable {
    struct Rule: Equatable {
        /// The enclosing `@media` condition, or nil at top level.
        var media: String?
        /// One class selector, without its dot.
        var className: String
        var declarations: [String: String]
    }

    struct Keyframes: Equatable {
        var name: String
        var frames: [String: [String: String]]
    }

    enum Failure: Error, Equatable, CustomStringConvertible {
        case unexpected(String, at: Int)
        var description: String {
            switch self {
            case .unexpected(let what, let offset): "unexpected \(what) at offset \(offset)"
            }
        }
    }

    private(set) var rules: [Rule] = []
    private(set) var keyframes: [Keyframes] = []

    init(parsing text: String) throws(Failure) {
        var reader = Reader(Array(text.unicodeScalars))
        while !reader.atEnd {
            if reader.peek == "@" {
                let keyword = reader.take { $0 != " " && $0 != "(" && $0 != "{" }
                switch keyword {
                case "@media":
                    let condition = reader.take { $0 != "{" }.trimmingSpaces
                    try reader.expect("{")
                    while reader.peek != "}" {
                        guard !reader.atEnd else { throw .unexpected("end inside @media", at: reader.offset) }
                        rules.append(try Self.rule(&reader, media: condition))
                    }
                    try reader.expect("}")
                case "@keyframes":
                    let name = reader.take { $0 != "{" }.trimmingSpaces
                    try reader.expect("{")
                    var frames: [String: [String: String]] = [:]
                    while reader.peek != "}" {
                        let selector = reader.take { $0 != "{" && $0 != "}" }.trimmingSpaces
                        guard ["from", "to"].contains(selector) || selector.hasSuffix("%") else {
                            throw .unexpected("keyframe selector \(selector)", at: reader.offset)
                        }
                        try reader.expect("{")
                        frames[selector] = try Self.declarations(&reader)
                        try reader.expect("}")
                    }
                    try reader.expect("}")
                    keyframes.append(Keyframes(name: name, frames: frames))
                default:
                    throw .unexpected("at-rule \(keyword)", at: reader.offset)
                }
            } else {
                rules.append(try Self.rule(&reader, media: nil))
            }
        }
    }

    /// `.class{declarations}`.
    private static func rule(_ reader: inout Reader, media: String?) throws(Failure) -> Rule {
        try reader.expect(".")
        let name = reader.take { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        guard !name.isEmpty else { throw .unexpected("selector", at: reader.offset) }
        try reader.expect("{")
        let declarations = try declarations(&reader)
        try reader.expect("}")
        return Rule(media: media, className: name, declarations: declarations)
    }

    /// `property:value;…` up to (not including) the closing brace.
    private static func declarations(_ reader: inout Reader) throws(Failure) -> [String: String] {
        var result: [String: String] = [:]
        while reader.peek != "}" {
            let property = reader.take { $0 != ":" && $0 != "{" && $0 != "}" && $0 != ";" }
            guard !property.isEmpty, property.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == "-" })
            else { throw .unexpected("property \(property)", at: reader.offset) }
            try reader.expect(":")
            let value = reader.take { $0 != ";" && $0 != "}" && $0 != "{" }
            guard !value.isEmpty, reader.peek != "{" else {
                throw .unexpected("value of \(property)", at: reader.offset)
            }
            result[property] = value
            if reader.peek == ";" { reader.advance() }
        }
        return result
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var offset = 0
        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }
        var atEnd: Bool { offset >= scalars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : scalars[offset] }
        mutating func advance() { offset += 1 }
        mutating func take(while accept: (Unicode.Scalar) -> Bool) -> String {
            var text = String.UnicodeScalarView()
            while let scalar = peek, accept(scalar) {
                text.append(scalar)
                offset += 1
            }
            return String(text)
        }
        mutating func expect(_ scalar: Unicode.Scalar) throws(Failure) {
            guard peek == scalar else {
                throw .unexpected(peek.map { "\"\($0)\" (wanted \"\(scalar)\")" } ?? "end", at: offset)
            }
            offset += 1
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(unicodeScalars.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().map(Character.init))
    }
}
