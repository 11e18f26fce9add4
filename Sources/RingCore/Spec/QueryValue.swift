import ByteGrammar

/// The grammars of query values: each turns a decoded value into a typed one or throws an
/// error naming the parameter, the value and what would have been accepted.
enum QueryValue {
    /// A plain decimal: optional sign, digits, optional fraction. No exponent, hex, NaN or Infinity.
    /// Magnitudes below ``RingLimits/smallestMagnitude`` read as 0; how large a number may be is
    /// the caller's range (at most 32 characters bound it anyway).
    ///
    /// Up to 15 significant digits the value is the integer of its digits divided by a power of
    /// ten, both exact in a `Double`, so the one division is correctly rounded, as `strtod` would
    /// be, at a fraction of its cost. Longer numbers go to the standard library.
    static func number(_ text: String, _ name: String) throws(RingSpecError) -> Double {
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var digits = 0
        var dots = 0
        var negative = false
        var valid = !text.utf8.isEmpty && text.utf8.count <= RingLimits.numberLength
        // Over the contiguous bytes by index: iterating `utf8.enumerated()` cost about 60
        // instructions a character, on every number of every new ring.
        var text = text
        text.withUTF8 { utf8 in
            for offset in utf8.indices where valid {
                let byte = utf8[offset]
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    digits += 1
                    if dots == 1 { fractionDigits += 1 }
                    if mantissa > 0 || byte != UInt8(ascii: "0") { significant += 1 }
                    if significant <= 15 { mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0")) }
                case UInt8(ascii: "."): dots += 1
                case UInt8(ascii: "-"):
                    valid = offset == 0
                    negative = true
                case UInt8(ascii: "+"): valid = offset == 0
                default: valid = false
                }
            }
        }
        guard valid, digits > 0, dots <= 1 else {
            throw .invalid(parameter: name, value: text, expected: "a decimal number such as 72 or -0.5")
        }
        let number: Double
        if significant <= 15, fractionDigits <= 22 {
            let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
            number = negative ? -magnitude : magnitude
        } else if let parsed = Double(text) {
            number = parsed
        } else {
            throw .invalid(parameter: name, value: text, expected: "a decimal number such as 72 or -0.5")
        }
        // Read to 1e-9: below it no ring differs, and the canonical key stays short.
        guard number.magnitude >= RingLimits.smallestMagnitude else { return 0 }
        return number
    }

    /// A decimal of at most ``RingLimits/magnitude`` (a parameter with no range of its own).
    static func decimal(_ text: String, _ name: String) throws(RingSpecError) -> Double {
        let number = try number(text, name)
        guard number.magnitude <= RingLimits.magnitude else {
            throw .outOfRange(parameter: name, value: text, range: RingLimits.magnitudeText)
        }
        return number
    }

    /// A decimal within `range`: the one range its errors state.
    static func decimal(_ text: String, _ name: String, in range: ClosedRange<Double>) throws(RingSpecError) -> Double {
        let number = try number(text, name)
        guard range.contains(number) else {
            throw .outOfRange(parameter: name, value: text, range: RingLimits.text(range))
        }
        return number
    }

    /// Plain digits, at most 9 of them, within `range`.
    static func integer(_ text: String, _ name: String, in range: ClosedRange<Int>) throws(RingSpecError) -> Int {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let number = Int(text)
        else {
            throw .invalid(parameter: name, value: text, expected: "a whole number")
        }
        guard range.contains(number) else {
            throw .outOfRange(parameter: name, value: text, range: RingLimits.text(range))
        }
        return number
    }

    /// A boolean; a bare name (`value` nil) is true.
    static func boolean(_ value: String?, _ name: String) throws(RingSpecError) -> Bool {
        guard let value else { return true }
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .invalid(parameter: name, value: value, expected: "a boolean (1/0, true/false, yes/no, on/off)")
        }
    }

    static func keyword<K: RawRepresentable & CaseIterable>(_ text: String, _ name: String)
        throws(RingSpecError) -> K
    where K.RawValue == String {
        guard let value = K(rawValue: text) else {
            throw .invalid(parameter: name, value: text, expected: "one of \(keywords(K.self).joined(separator: ", "))")
        }
        return value
    }

    /// The keywords of an enum, in declaration order.
    static func keywords<K: RawRepresentable & CaseIterable>(_: K.Type) -> [String] where K.RawValue == String {
        K.allCases.map(\.rawValue)
    }

    static func color(_ text: String, _ name: String) throws(RingSpecError) -> RingColor {
        guard let color = RingColor(parsing: text) else {
            throw .invalid(
                parameter: name, value: text, expected: "a colour (#rgb, #rgba, #rrggbb, #rrggbbaa or a CSS name)")
        }
        return color
    }

    /// A colour, or nil for `none`.
    static func optionalColor(_ text: String, _ name: String) throws(RingSpecError) -> RingColor? {
        text == "none" ? nil : try color(text, name)
    }

    /// `count` comma-separated colours.
    static func colors(_ text: String, _ name: String, count: ClosedRange<Int>) throws(RingSpecError) -> [RingColor] {
        try list(text, name, count: count, of: "comma-separated colours") { item throws(RingSpecError) in
            try color(item, name)
        }
    }

    /// One value for every ring, or one per ring: 1 to ``RingLimits/rings`` comma-separated
    /// items, each read by `item`. Whether the count matches the rings is `validate()`'s to say.
    static func perRing<Item>(
        _ text: String, _ name: String, item: (String) throws(RingSpecError) -> Item
    ) throws(RingSpecError) -> [Item] {
        try list(text, name, count: RingLimits.rings, of: "comma-separated values, one per ring", item: item)
    }

    /// One item per ring, or per stacked part: validation counts them once it knows which.
    static func perPart<Item>(
        _ text: String, _ name: String, item: (String) throws(RingSpecError) -> Item
    ) throws(RingSpecError) -> [Item] {
        try list(
            text, name, count: 1...RingLimits.parts.upperBound, of: partsText, item: item, counted: ringsText)
    }

    /// The words of ``perPart(_:_:item:)``'s error, written once: built at each call, they cost
    /// a new SVG more than reading its values.
    private static let partsText =
        "comma-separated values, one per ring (or \(RingLimits.words(RingLimits.parts)) parts of one ring with stack)"
    private static let ringsText = RingLimits.words(RingLimits.rings)

    /// 2 to 8 comma-separated items, one per stacked part.
    static func parts<Item>(
        _ text: String, _ name: String, item: (String) throws(RingSpecError) -> Item
    ) throws(RingSpecError) -> [Item] {
        try list(text, name, count: RingLimits.parts, of: "comma-separated names, one per part", item: item)
    }

    /// `count` comma-separated items, none empty, each read by `item`.
    /// `counted` is the count the error states, when it is not `count`'s bounds.
    private static func list<Item>(
        _ text: String, _ name: String, count: ClosedRange<Int>, of what: String,
        item: (String) throws(RingSpecError) -> Item, counted: String? = nil
    ) throws(RingSpecError) -> [Item] {
        // Written only for an error: on every list it cost more than reading one.
        func expected() -> String { "\(counted ?? RingLimits.words(count)) \(what)" }
        // One item, the common case: no split. A byte loop, which costs less than `contains`.
        var hasComma = false
        for byte in text.utf8 where byte == UInt8(ascii: ",") {
            hasComma = true
            break
        }
        guard hasComma else {
            guard count.contains(1) else {
                throw .invalid(parameter: name, value: text, expected: expected())
            }
            return [try item(text)]
        }
        let parts = text.split(separator: ",", maxSplits: count.upperBound, omittingEmptySubsequences: false)
        guard count.contains(parts.count) else {
            throw .invalid(parameter: name, value: text, expected: expected())
        }
        guard !parts.contains(where: \.isEmpty) else {
            throw .invalid(parameter: name, value: text, expected: "a list without empty items")
        }
        var items: [Item] = []
        items.reserveCapacity(parts.count)
        for part in parts { items.append(try item(String(part))) }
        return items
    }

    /// `BASE,V1:C1,V2:C2,…`: a colour, then `steps` value-colour pairs with strictly increasing
    /// values.
    static func thresholds(_ text: String, _ name: String, steps: ClosedRange<Int>) throws(RingSpecError)
        -> Thresholds
    {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard steps.contains(parts.count - 1) else {
            throw .invalid(
                parameter: name, value: text,
                expected: "a base colour and \(steps.lowerBound) to \(steps.upperBound) value:colour steps")
        }
        let base = try color(String(parts[0]), name)
        var list: [Thresholds.Step] = []
        for part in parts.dropFirst() {
            let pair = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pair.count == 2 else {
                throw .invalid(parameter: name, value: String(part), expected: "a step value:colour such as 80:22c55e")
            }
            let value = try decimal(String(pair[0]), name)
            if let previous = list.last, value <= previous.value {
                throw .invalid(
                    parameter: name, value: String(part),
                    expected:
                        "values that increase: \(RingLimits.plain(value)) after \(RingLimits.plain(previous.value))")
            }
            list.append(Thresholds.Step(value: value, color: try color(String(pair[1]), name)))
        }
        return Thresholds(base: base, steps: list)
    }

    /// Text of at most `limit` scalars, none of them forbidden.
    static func text(_ text: String, _ name: String, limit: Int) throws(RingSpecError) -> String {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= limit else {
                throw .invalid(parameter: name, value: text, expected: "text of at most \(limit) characters")
            }
            guard !TextRules.isForbidden(scalar) else {
                throw .invalid(
                    parameter: name, value: text, expected: "text without control or bidi-override characters")
            }
        }
        return text
    }

    /// 10^0 … 10^22: every one exact in a `Double`.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Percent-decodes (`+` is a space) into UTF-8 text; nil for a broken escape or invalid UTF-8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var plainASCII = true
        for byte in bytes where byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte >= 0x80 {
            plainASCII = false
            break
        }
        if plainASCII {
            return String(decoding: bytes, as: UTF8.self)  // ASCII is valid UTF-8: skip validation
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = ByteClass.hexValue(bytes[index + 1]),
                    let low = ByteClass.hexValue(bytes[index + 2])
                else {
                    return nil
                }
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return String(validating: decoded, as: UTF8.self)
    }
}
