/// How a locale writes a percentage, by CLDR's rules: the decimal separator, the text before
/// and after the number (`72 %` in French, `%72` in Turkish) and the minus sign. The digits stay
/// Latin. `locale=` picks one; without it the label reads `72%` and `72.5%`.
///
/// The table (`cldr`) is generated from CLDR's data by scripts/generators/make-locales.py.
public struct PercentFormat: Sendable, Hashable {
    /// The locale's tag in CLDR's spelling: `fr`, `fr-CA`, `zh-Hant`.
    public let tag: String
    let decimal: String
    let prefix: String
    let suffix: String
    let minus: String

    /// The format a BCP 47 tag names: the tag itself (letter case aside), else the tag
    /// without its last subtag, and so on (`de-DE` is `de`, `fr-CA` is its own), as CLDR
    /// inherits. Nil when no prefix of the tag is known.
    public static func named(_ tag: String) -> PercentFormat? {
        // BCP 47's shape: subtags of 1 to 8 ASCII letters and digits, joined by `-` (or `_`).
        var subtags = tag.lowercased().split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard tag.utf8.count <= 35,
            subtags.allSatisfy({ (1...8).contains($0.utf8.count) && $0.utf8.allSatisfy(Self.isAlphanumeric) })
        else { return nil }
        while !subtags.isEmpty {
            if let format = byTag[subtags.joined(separator: "-")] { return format }
            subtags.removeLast()
        }
        return nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The table by lower-cased tag.
    private static let byTag: [String: PercentFormat] = Dictionary(
        uniqueKeysWithValues: cldr.map { ($0.tag.lowercased(), $0) })

    /// The languages the table covers, for error messages and the docs.
    static let languages: [String] = {
        var seen: Set<String> = []
        return cldr.compactMap { format in
            let language = String(format.tag.prefix { $0 != "-" })
            return seen.insert(language).inserted ? language : nil
        }
    }()

    /// Whether this locale writes what no locale writes (`72%`, `72.5%`, `-5%`).
    var isStandard: Bool { decimal == "." && prefix.isEmpty && suffix == "%" && minus == "-" }

    /// `digits` (`72`, `-72.5`, as the label's writer makes them) in this locale's form, with
    /// `sign` (`<`) before it all. A negative number is the minus sign before the positive
    /// pattern (`-%5` in Turkish), as CLDR's patterns without a negative subpattern say.
    func write(_ digits: String, sign: String) -> String {
        var number = Substring(digits)
        let negative = number.first == "-"
        if negative { number = number.dropFirst() }
        let written = decimal == "." ? String(number) : String(number.replacing(".", with: decimal))
        return sign + (negative ? minus : "") + prefix + written + suffix
    }
}
