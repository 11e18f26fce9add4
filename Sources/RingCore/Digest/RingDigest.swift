/// The identity of a ring: the first 128 bits of the SHA-256 of its canonical key.
///
/// Two specs with the same digest are the same ring. 128 bits, because colliding pairs of a
/// 64-bit hash can be found in a minute, while two canonical keys with the same 128-bit
/// SHA-256 prefix take about 2⁶⁴ work, out of reach. The response cache compares
/// digests to decide identity, and the ETag and the SVG's element ids are written from it, so
/// two different rings never share a cache entry, an ETag or an id.
public struct RingDigest: Sendable, Hashable, CustomStringConvertible {
    /// Digest bits 0–63 and 64–127, most significant first.
    public let high: UInt64
    /// Digest bits 64–127.
    public let low: UInt64

    /// A digest from its two halves, as ``high`` and ``low`` give them (to restore a stored one).
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The digest of arbitrary bytes (an error message, say).
    public init(of bytes: UnsafeRawBufferPointer) {
        let w = SHA256.hash(bytes)
        high = UInt64(w.0) << 32 | UInt64(w.1)
        low = UInt64(w.2) << 32 | UInt64(w.3)
    }

    /// The digest of a string's UTF-8 bytes.
    public init(of text: String) {
        var text = text
        self = text.withUTF8 { RingDigest(of: UnsafeRawBufferPointer($0)) }
    }

    /// 32 lowercase hex digits.
    public var description: String {
        var writer = ByteWriter(capacity: 32)
        write(hexInto: &writer)
        return writer.text
    }

    /// Appends the 32 hex digits: eight at a time, in one word each (the ETag and every
    /// element id of an SVG are written from it, several times a new ring).
    package func write(hexInto w: inout ByteWriter) {
        var digits = hexWords
        withUnsafeBytes(of: &digits) { w.append(raw: $0) }
    }

    /// Writes the 32 hex digits at `target`, which has room for them.
    package func write(hexTo target: UnsafeMutableRawPointer) {
        var digits = hexWords
        withUnsafeBytes(of: &digits) { target.copyMemory(from: $0.baseAddress!, byteCount: 32) }
    }

    /// The 32 hex digits as four words, in memory order.
    private var hexWords: (UInt64, UInt64, UInt64, UInt64) {
        (
            Self.hexDigits(UInt32(truncatingIfNeeded: high >> 32)), Self.hexDigits(UInt32(truncatingIfNeeded: high)),
            Self.hexDigits(UInt32(truncatingIfNeeded: low >> 32)), Self.hexDigits(UInt32(truncatingIfNeeded: low))
        )
    }

    /// The 8 lowercase hex digits of `value`, most significant first, as the bytes of a word in
    /// memory order: each nibble spread into a byte of its own, then moved into `0`…`9` or
    /// `a`…`f` by adding, for each byte at once, '0' and, past 9, the 39 up to 'a'.
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var n = UInt64(value)
        n = (n & 0xFFFF_0000) << 16 | n & 0x0000_FFFF
        n = (n & 0x0000_FF00_0000_FF00) << 8 | n & 0x0000_00FF_0000_00FF
        n = (n & 0x00F0_00F0_00F0_00F0) << 4 | n & 0x000F_000F_000F_000F
        // The most significant nibble is in the highest byte: reversed, it is written first.
        n = n.byteSwapped
        let pastNine = (n &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
        return (n &+ 0x3030_3030_3030_3030 &+ pastNine &* 39).littleEndian
    }
}
