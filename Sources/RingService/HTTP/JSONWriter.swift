/// Writes JSON text (RFC 8259) into bytes: enough for `/ring.json`, with strings escaped so
/// that no value from a query can end a string, break the document, or act as markup when the
/// document is shown in a page (`<`, `>`, `&`, U+2028 and U+2029 are escaped too).
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written needs a comma before its next member.
    private var needsComma: [Bool] = [false]

    init() { bytes.reserveCapacity(1024) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// Starts a member of the current object: `"name":`.
    mutating func key(_ name: String) {
        separate()
        quoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    mutating func string(_ text: String) {
        separate()
        quoted(text)
        needsComma[needsComma.count - 1] = true
    }

    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes += Array(#"\""#.utf8)
            case "\\": bytes += Array(#"\\"#.utf8)
            case "\n": bytes += Array(#"\n"#.utf8)
            case "\t": bytes += Array(#"\t"#.utf8)
            case "\r": bytes += Array(#"\r"#.utf8)
            case "<", ">", "&", "\u{2028}", "\u{2029}", "\u{7F}":
                escape(scalar.value)
            case _ where scalar.value < 0x20:
                escape(scalar.value)
            default:
                bytes += Array(String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A finite number, whole numbers without a fraction (`72`, not `72.0`); the parser's
    /// numbers are finite and within ±1e12, so the shortest round-trip form is valid JSON.
    mutating func number(_ value: Double) {
        precondition(value.isFinite, "JSON has no infinities or NaN")
        separate()
        if value.rounded() == value, value.magnitude < 1e15 {
            bytes += Array(String(Int(value)).utf8)
        } else {
            bytes += Array("\(value)".utf8)
        }
        needsComma[needsComma.count - 1] = true
    }

    mutating func number(_ value: Int) { number(Double(value)) }

    mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }

    mutating func null() { literal("null") }

    private mutating func literal(_ text: StaticString) {
        separate()
        bytes += UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        needsComma[needsComma.count - 1] = true
    }

    private mutating func escape(_ value: UInt32) {
        let digits = Array("0123456789abcdef".utf8)
        bytes += Array(#"\u"#.utf8)
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(digits[Int(value >> UInt32(shift) & 0xF)]) }
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        needsComma.removeLast()
        bytes.append(bracket)
        needsComma[needsComma.count - 1] = true
    }
}
