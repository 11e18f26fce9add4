extension RingSpec {
    /// Parses a URL query string (`p=72&slice=0.45`, without the `?`) into a validated spec.
    ///
    /// Unknown parameters are ignored, so cache-busters such as `&v=2` change nothing. A known
    /// parameter given twice is an error: the ring it means would be ambiguous.
    public init(query: String) throws(RingSpecError) {
        var query = query
        var parser = QueryParser()
        let failure = query.withUTF8 { bytes -> RingSpecError? in
            do throws(RingSpecError) {
                try parser.parse(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        self = parser.spec
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
            throw .outOfRange(parameter: "size", value: "\(size)", range: "16…1024")
        }
        let widthLimit = Double(size) / 3
        if let width, !(width > 0 && width <= widthLimit) {
            throw .outOfRange(
                parameter: "width", value: Self.describe(width),
                range: "0…\(Self.describe(widthLimit)) (> 0 and ≤ size/3)")
        }
        if let trackWidth, !(trackWidth > 0 && trackWidth <= widthLimit) {
            throw .outOfRange(
                parameter: "trackWidth", value: Self.describe(trackWidth),
                range: "0…\(Self.describe(widthLimit)) (> 0 and ≤ size/3)")
        }
        guard RingLimits.slice.contains(slice) else {
            throw .outOfRange(parameter: "slice", value: "\(slice)", range: "0…0.9")
        }
        guard start.isFinite, start.magnitude <= RingLimits.magnitude else {
            throw .outOfRange(parameter: "start", value: "\(start)", range: "±1e12")
        }
        guard RingLimits.decimals.contains(decimals) else {
            throw .outOfRange(parameter: "decimals", value: "\(decimals)", range: "0…3")
        }
        guard RingLimits.animation.contains(animation) else {
            throw .outOfRange(parameter: "anim", value: "\(animation)", range: "0…10")
        }
        guard gradient.isEmpty || RingLimits.gradientColors.contains(gradient.count) else {
            throw .invalid(parameter: "gradient", value: "\(gradient.count) colours", expected: "2 to 8 colours")
        }
        if case .text(let text) = label {
            try Self.checkText(text, parameter: "label", limit: RingLimits.labelScalars)
        }
        if let title {
            try Self.checkText(title, parameter: "title", limit: RingLimits.titleScalars)
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

    static func checkText(_ text: String, parameter: String, limit: Int) throws(RingSpecError) {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= limit else {
                throw .invalid(parameter: parameter, value: text, expected: "text of at most \(limit) characters")
            }
            guard !TextRules.isForbidden(scalar) else {
                throw .invalid(
                    parameter: parameter, value: text, expected: "text without control or bidi-override characters")
            }
        }
    }

    static func describe(_ number: Double) -> String {
        var writer = ByteWriter(capacity: 16)
        writer.append(number: number, decimals: 3)
        return writer.text
    }
}

/// Splits a query into pairs, percent-decodes them and fills a `RingSpec`.
///
/// Works on the raw bytes of the query; a pair's value becomes a `String` only after it is
/// known to belong to a parameter of the contract.
private struct QueryParser {
    /// Parameters seen so far, one bit each (by `RingParameter` case index).
    private var seen: UInt32 = 0
    private(set) var spec = RingSpec(value: 0)
    private var hasValue = false
    private var halfExplicit = false

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
        guard hasValue else { throw .missing(parameter: "p") }
        if spec.half {
            if seen & (1 << RingParameter.slice.index) != 0 { throw .conflict(parameter: "half", with: "slice") }
            if seen & (1 << RingParameter.start.index) != 0 { throw .conflict(parameter: "half", with: "start") }
        }
        try spec.validate()
        spec.normalize()
    }

    private mutating func pair(_ bytes: UnsafeBufferPointer<UInt8>) throws(RingSpecError) {
        let equals = bytes.firstIndex(of: UInt8(ascii: "="))
        let rawName = UnsafeBufferPointer(rebasing: bytes[..<(equals ?? bytes.count)])
        let parameter: RingParameter?
        if rawName.contains(UInt8(ascii: "%")) || rawName.contains(UInt8(ascii: "+")) {
            parameter = Self.decode(rawName).flatMap { RingParameter(rawValue: $0) }
        } else {
            parameter = RingParameter(name: rawName)
        }
        guard let parameter else {
            return  // not ours: cache-busters and unknown parameters never change the ring
        }
        let name = parameter.rawValue
        let bit = UInt32(1) << parameter.index
        guard seen & bit == 0 else { throw .duplicate(parameter: name) }
        seen |= bit
        guard let equals else {
            try assign(parameter, value: nil)
            return
        }
        let rawValue = UnsafeBufferPointer(rebasing: bytes[(equals + 1)...])
        guard let value = Self.decode(rawValue) else {
            throw .invalid(
                parameter: name, value: String(decoding: rawValue, as: UTF8.self),
                expected: "valid percent-encoded UTF-8")
        }
        try assign(parameter, value: value)
    }

    /// Assigns one parameter. `value` is nil for a bare name without `=`.
    private mutating func assign(_ parameter: RingParameter, value: String?) throws(RingSpecError) {
        let name = parameter.rawValue
        let text = value ?? ""
        switch parameter {
        case .p:
            spec.value = try Self.decimal(text, name)
            hasValue = true
        case .min: spec.minimum = try Self.decimal(text, name)
        case .max: spec.maximum = try Self.decimal(text, name)
        case .slice: spec.slice = try Self.decimal(text, name, in: RingLimits.slice, "0…0.9")
        case .half: spec.half = value == nil ? true : try Self.boolean(text, name)
        case .start:
            let degrees = try Self.decimal(text, name).truncatingRemainder(dividingBy: 360)
            spec.start = degrees < 0 ? degrees + 360 : degrees + 0  // + 0 turns -0 into 0
        case .dir: spec.direction = try Self.keyword(text, name)
        case .size:
            let size = try Self.integer(text, name)
            guard RingLimits.size.contains(size) else {
                throw .outOfRange(parameter: name, value: text, range: "16…1024")
            }
            spec.size = size
        case .width: spec.width = try Self.positive(text, name)
        case .trackWidth: spec.trackWidth = try Self.positive(text, name)
        case .color: spec.color = try Self.color(text, name)
        case .gradient:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard RingLimits.gradientColors.contains(parts.count) else {
                throw .invalid(parameter: name, value: text, expected: "2 to 8 comma-separated colours")
            }
            var colors: [RingColor] = []
            for part in parts { colors.append(try Self.color(String(part), name)) }
            spec.gradient = colors
        case .track:
            spec.track = text == "none" ? .none : .color(try Self.color(text, name))
        case .fill: spec.fill = try Self.optionalColor(text, name)
        case .bg: spec.background = try Self.optionalColor(text, name)
        case .outline: spec.outline = try Self.optionalColor(text, name)
        case .cap: spec.cap = try Self.keyword(text, name)
        case .label:
            switch text {
            case "auto": spec.label = .auto
            case "none": spec.label = .none
            default:
                guard !text.isEmpty else {
                    throw .invalid(parameter: name, value: text, expected: "auto, none or text")
                }
                try RingSpec.checkText(text, parameter: name, limit: RingLimits.labelScalars)
                spec.label = .text(text)
            }
        case .labelColor: spec.labelColor = try Self.color(text, name)
        case .decimals:
            let decimals = try Self.integer(text, name)
            guard RingLimits.decimals.contains(decimals) else {
                throw .outOfRange(parameter: name, value: text, range: "0…3")
            }
            spec.decimals = decimals
        case .theme: spec.theme = try Self.keyword(text, name)
        case .anim: spec.animation = try Self.decimal(text, name, in: RingLimits.animation, "0…10")
        case .shadow: spec.shadow = value == nil ? true : try Self.boolean(text, name)
        case .title:
            guard !text.isEmpty else { throw .invalid(parameter: name, value: text, expected: "non-empty text") }
            try RingSpec.checkText(text, parameter: name, limit: RingLimits.titleScalars)
            spec.title = text
        }
    }

    /// A plain decimal: optional sign, digits, optional fraction. No exponent, hex, NaN or Infinity.
    ///
    /// Up to 15 significant digits the value is the integer of its digits divided by a power of
    /// ten, both exact in a `Double`, so the one division is correctly rounded, as `strtod` would
    /// be, at a fraction of its cost. Longer numbers go to the standard library.
    private static func decimal(_ text: String, _ name: String) throws(RingSpecError) -> Double {
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var digits = 0
        var dots = 0
        var negative = false
        var valid = !text.utf8.isEmpty && text.utf8.count <= RingLimits.numberLength
        for (offset, byte) in text.utf8.enumerated() where valid {
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
        guard valid, digits > 0, dots <= 1 else {
            throw .invalid(parameter: name, value: text, expected: "a decimal number such as 72 or -0.5")
        }
        let number: Double
        if significant <= 15, fractionDigits <= 22 {
            let magnitude = Double(mantissa) / Self.exactPowersOfTen[fractionDigits]
            number = negative ? -magnitude : magnitude
        } else if let parsed = Double(text) {
            number = parsed
        } else {
            throw .invalid(parameter: name, value: text, expected: "a decimal number such as 72 or -0.5")
        }
        guard number.magnitude <= RingLimits.magnitude, number == 0 || number.magnitude >= RingLimits.smallestMagnitude
        else {
            throw .outOfRange(parameter: name, value: text, range: "0 or 1e-9…1e12 in magnitude")
        }
        return number + 0  // + 0 turns -0 into 0
    }

    private static func decimal(
        _ text: String, _ name: String, in range: ClosedRange<Double>, _ rangeText: String
    ) throws(RingSpecError) -> Double {
        let number = try decimal(text, name)
        guard range.contains(number) else { throw .outOfRange(parameter: name, value: text, range: rangeText) }
        return number
    }

    /// A positive decimal; its upper bound depends on `size` and is checked by `validate()`.
    private static func positive(_ text: String, _ name: String) throws(RingSpecError) -> Double {
        let number = try decimal(text, name)
        guard number > 0 else { throw .outOfRange(parameter: name, value: text, range: "> 0 and ≤ size/3") }
        return number
    }

    /// Plain digits, at most 9 of them.
    private static func integer(_ text: String, _ name: String) throws(RingSpecError) -> Int {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let number = Int(text)
        else {
            throw .invalid(parameter: name, value: text, expected: "a whole number")
        }
        return number
    }

    private static func boolean(_ text: String, _ name: String) throws(RingSpecError) -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .invalid(parameter: name, value: text, expected: "a boolean (1/0, true/false, yes/no, on/off)")
        }
    }

    private static func keyword<K: RawRepresentable & CaseIterable>(_ text: String, _ name: String)
        throws(RingSpecError) -> K
    where K.RawValue == String {
        guard let value = K(rawValue: text) else {
            let allowed = K.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalid(parameter: name, value: text, expected: "one of \(allowed)")
        }
        return value
    }

    private static func color(_ text: String, _ name: String) throws(RingSpecError) -> RingColor {
        guard let color = RingColor(parsing: text) else {
            throw .invalid(
                parameter: name, value: text, expected: "a colour (#rgb, #rgba, #rrggbb, #rrggbbaa or a CSS name)")
        }
        return color
    }

    private static func optionalColor(_ text: String, _ name: String) throws(RingSpecError) -> RingColor? {
        text == "none" ? nil : try color(text, name)
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
                guard index + 2 < bytes.count, let high = RingColor.hexValue(bytes[index + 1]),
                    let low = RingColor.hexValue(bytes[index + 2])
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
