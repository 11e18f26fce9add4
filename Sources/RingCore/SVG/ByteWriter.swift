/// An append-only byte buffer that SVG and error images are written into.
///
/// Rendering appends bytes and formats numbers by hand instead of building `String`s:
/// `String(format:)` costs about 1.8 µs a call on Linux, and a ring has dozens of numbers.
/// Numbers are written in fixed point with at most `decimals` digits after the point, rounded
/// half away from zero on the binary value, trailing zeros dropped, and never as `-0`.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer that can hold `capacity` bytes before it grows.
    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends ASCII or UTF-8 text known at compile time.
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes.
    public mutating func append(bytes other: some Sequence<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends a single byte.
    public mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `text` as XML character data or an attribute value: the five XML special
    /// characters become entities, everything else is copied as UTF-8.
    public mutating func append(escaping text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&#39;")
            default: bytes.append(byte)
            }
        }
    }

    /// Appends a decimal integer.
    public mutating func append(integer value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt(value))
        }
    }

    /// Appends `value` in fixed point with at most `decimals` (0…6) digits after the point.
    ///
    /// Non-finite values and magnitudes beyond 1e12 cannot come out of a validated spec;
    /// they are written as `0` rather than trapping.
    /// With `keepZeros`, exactly `decimals` digits follow the point (`72.00`), as a label wants.
    public mutating func append(number value: Double, decimals: Int = 2, keepZeros: Bool = false) {
        let scale = Self.powersOfTen[decimals]
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, scaled.magnitude < 9.0e18 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let fixed = Int64(scaled)
        if fixed < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = fixed.magnitude
        appendDigits(UInt(magnitude / scale))
        var fraction = magnitude % scale
        guard fraction != 0 || (keepZeros && decimals > 0) else { return }
        bytes.append(UInt8(ascii: "."))
        var digits = decimals
        while !keepZeros, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor = Self.powersOfTen[digits - 1]
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// Appends two lowercase hexadecimal digits.
    public mutating func append(hexByte value: UInt8) {
        bytes.append(Self.hexDigits[Int(value >> 4)])
        bytes.append(Self.hexDigits[Int(value & 0xF)])
    }

    private mutating func appendDigits(_ value: UInt) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for any UInt64
        let count = withUnsafeMutableBytes(of: &scratch) { buffer -> Int in
            var remaining = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            return index
        }
        withUnsafeBytes(of: &scratch) { bytes.append(contentsOf: $0[count...]) }
    }

    private static let powersOfTen: [UInt64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
