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

    /// Appends the 32 hex digits.
    package func write(hexInto w: inout ByteWriter) {
        for shift in stride(from: 56, through: 0, by: -8) {
            w.append(hexByte: UInt8(truncatingIfNeeded: high >> UInt64(shift)))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            w.append(hexByte: UInt8(truncatingIfNeeded: low >> UInt64(shift)))
        }
    }
}
