/// A class of ASCII bytes in the URI and HTTP grammars, as a 128-bit mask: the HTTP parser
/// (tokens, hosts, schemes, percent-escapes in paths) and the ring's query parser and
/// canonical key (percent-escapes, unreserved characters) read the same definitions.
///
/// ```swift
/// ByteClass.unreserved.contains(UInt8(ascii: "~"))  // true
/// ByteClass.hexValue(UInt8(ascii: "F"))             // 15
/// ```
///
/// The masks are constants, so a test is two comparisons, a shift and an `and`, with no table
/// in memory. `ByteClassTests` checks every byte of every class against the grammar's own
/// list of characters.
public struct ByteClass: Sendable {
    /// Bytes 0–63, one bit each.
    @usableFromInline let low: UInt64
    /// Bytes 64–127.
    @usableFromInline let high: UInt64

    @inlinable
    init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Whether `byte` is in the class; bytes past 127 never are.
    @inlinable
    public func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low >> byte & 1 != 0 : byte < 128 ? high >> (byte - 64) & 1 != 0 : false
    }

    /// `0`–`9`.
    public static let digit = ByteClass(low: 0x03FF_0000_0000_0000, high: 0)
    /// `a`–`z`, `A`–`Z`.
    public static let alpha = ByteClass(low: 0, high: 0x07FF_FFFE_07FF_FFFE)
    /// `0`–`9`, `a`–`f`, `A`–`F`.
    public static let hexDigit = ByteClass(low: 0x03FF_0000_0000_0000, high: 0x0000_007E_0000_007E)
    /// ALPHA / DIGIT / `-` / `.` / `_` / `~` (RFC 3986 §2.3): never percent-encoded.
    public static let unreserved = ByteClass(low: 0x03FF_6000_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// `tchar`: ALPHA / DIGIT / `` !#$%&'*+-.^_`|~ `` (RFC 9110 §5.6.2), the bytes of a method
    /// or a field name.
    public static let token = ByteClass(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE)
    /// ALPHA / DIGIT / `+` / `-` / `.` (RFC 3986 §3.1): a scheme's bytes.
    public static let scheme = ByteClass(low: 0x03FF_6800_0000_0000, high: 0x07FF_FFFE_07FF_FFFE)
    /// SP and HTAB: optional whitespace around a field value (RFC 9110 §5.6.3).
    public static let whitespace = ByteClass(low: 0x0000_0001_0000_0200, high: 0)

    /// The value of one hexadecimal digit, either case; nil for any other byte.
    @inlinable
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
