extension RingSpec {
    /// A query string that names this ring and no other: parameters in contract order, only
    /// those that differ from their defaults, numbers as plain decimals (`72`, not `72.0`), colours as
    /// lowercase `rrggbbaa`, `start` normalised to 0…360. `p=72&color=ff0000` and
    /// `color=%23FF0000&p=72.0` both give `p=72&color=ff0000ff`.
    ///
    /// It is itself a valid query for the same ring.
    public var canonicalKey: String {
        var writer = ByteWriter(capacity: 64)
        writeCanonicalKey(into: &writer)
        return writer.text
    }

    /// This ring's identity: SHA-256 of ``canonicalKey``, truncated to 128 bits. The same on
    /// every process, machine and Swift version (unlike Swift's seeded `Hasher`), and not
    /// collidable by a URL's author. The cache, the ETag and the SVG's element ids use it.
    public var digest: RingDigest {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { scratch in
            var writer = ByteWriter(scratch: scratch)
            writeCanonicalKey(into: &writer)
            return writer.withBytes { RingDigest(of: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes the key straight into bytes: rendering needs its hash for every ring.
    func writeCanonicalKey(into w: inout ByteWriter) {
        w.append("p=")
        Self.number(value, into: &w)
        Self.number("min", minimum, unless: 0, into: &w)
        Self.number("max", maximum, unless: 100, into: &w)
        Self.number("slice", slice, unless: 0, into: &w)
        if half { Self.keyword("half", "1", into: &w) }
        Self.number("start", start, unless: 0, into: &w)
        if direction != .cw { Self.keyword("dir", "ccw", into: &w) }
        if size != 120 {
            Self.name("size", into: &w)
            w.append(integer: size)
        }
        if let width { Self.number("width", width, unless: Double(size) / 10, into: &w) }
        if let trackWidth { Self.number("trackWidth", trackWidth, unless: resolvedWidth, into: &w) }
        if gradient.isEmpty { Self.color("color", color, into: &w) }
        if !gradient.isEmpty {
            Self.name("gradient", into: &w)
            for (index, color) in gradient.enumerated() {
                if index > 0 { w.append(byte: UInt8(ascii: ",")) }
                Self.hex(color, into: &w)
            }
        }
        switch track {
        case .standard: break
        case .none: Self.keyword("track", "none", into: &w)
        case .color(let color): Self.color("track", color, into: &w)
        }
        Self.color("fill", fill, into: &w)
        Self.color("bg", background, into: &w)
        Self.color("outline", outline, into: &w)
        if cap != .round { Self.keyword("cap", "butt", into: &w) }
        switch label {
        case .auto: break
        case .none: Self.keyword("label", "none", into: &w)
        case .text(let text): Self.text("label", text, into: &w)
        }
        Self.color("labelColor", labelColor, into: &w)
        if decimals != 0 {
            Self.name("decimals", into: &w)
            w.append(integer: decimals)
        }
        if theme != .auto { Self.keyword("theme", theme == .light ? "light" : "dark", into: &w) }
        Self.number("anim", animation, unless: 0, into: &w)
        if shadow { Self.keyword("shadow", "1", into: &w) }
        if let title { Self.text("title", title, into: &w) }
    }

    /// `&name=`.
    private static func name(_ parameter: StaticString, into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: "&"))
        w.append(parameter)
        w.append(byte: UInt8(ascii: "="))
    }

    private static func keyword(_ parameter: StaticString, _ value: StaticString, into w: inout ByteWriter) {
        name(parameter, into: &w)
        w.append(value)
    }

    /// The parameter, unless its value is the default.
    private static func number(
        _ parameter: StaticString, _ value: Double, unless standard: Double, into w: inout ByteWriter
    ) {
        guard value != standard else { return }
        name(parameter, into: &w)
        number(value, into: &w)
    }

    /// The parameter, when a colour is given.
    private static func color(_ parameter: StaticString, _ value: RingColor?, into w: inout ByteWriter) {
        guard let value else { return }
        name(parameter, into: &w)
        hex(value, into: &w)
    }

    private static func text(_ parameter: StaticString, _ value: String, into w: inout ByteWriter) {
        name(parameter, into: &w)
        escape(value, into: &w)
    }

    /// A number's canonical text, a function of the `Double` alone and always a plain decimal
    /// the parser accepts: values exact in six decimals use the fixed-point writer, anything
    /// else the shortest round-trip digits, with an exponent spelled out as zeros.
    private static func number(_ value: Double, into w: inout ByteWriter) {
        let scaled = value * 1_000_000
        if scaled.magnitude < 9e15, scaled.rounded() == scaled, scaled / 1_000_000 == value {
            w.append(number: value, decimals: 6)
            return
        }
        for byte in plainDecimal(value.description).utf8 { w.append(byte: byte) }
    }

    /// `6.3e-07` → `0.00000063`; text without an exponent is returned as it is. Validated
    /// numbers lie within 1e-9…1e12 in magnitude, where Swift prints positive exponents never.
    static func plainDecimal(_ text: String) -> String {
        // A byte scan first: Character-level search costs thousands of instructions per key.
        guard text.utf8.contains(UInt8(ascii: "e")), let e = text.firstIndex(of: "e"),
            let exponent = Int(text[text.index(after: e)...]), exponent < 0
        else {
            return text
        }
        var mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let digits = mantissa.filter { $0 != "." }
        let zeros = String(repeating: "0", count: -exponent - 1)
        var result = (negative ? "-" : "") + "0." + zeros + digits
        while result.hasSuffix("0") { result.removeLast() }
        return result
    }

    private static func hex(_ color: RingColor, into w: inout ByteWriter) {
        w.append(hexByte: color.red)
        w.append(hexByte: color.green)
        w.append(hexByte: color.blue)
        w.append(hexByte: color.alpha)
    }

    /// Percent-encodes everything but unreserved characters, so the key stays a valid query.
    private static func escape(_ text: String, into w: inout ByteWriter) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                w.append(byte: byte)
            default:
                w.append(byte: UInt8(ascii: "%"))
                w.append(hexByte: byte)
            }
        }
    }
}
