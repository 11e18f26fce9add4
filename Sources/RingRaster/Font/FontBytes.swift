/// A font file's bytes, read big-endian with every offset checked: a font loaded at run time
/// is untrusted input, so a table that points outside the file is an error, never a trap.
struct FontBytes: Sendable {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    func u8(_ offset: Int) throws(FontError) -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw FontError.truncated }
        return bytes[offset]
    }

    func u16(_ offset: Int) throws(FontError) -> UInt16 {
        guard offset >= 0, offset <= bytes.count - 2 else { throw FontError.truncated }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    func i16(_ offset: Int) throws(FontError) -> Int16 { Int16(bitPattern: try u16(offset)) }

    func u32(_ offset: Int) throws(FontError) -> UInt32 {
        guard offset >= 0, offset <= bytes.count - 4 else { throw FontError.truncated }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// `count` bytes from `offset` lie inside the file.
    func contains(_ offset: Int, count: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= bytes.count && count <= bytes.count - offset
    }

    /// Which file this is, for entity tags: FNV-1a's step over each 8-byte word, then each
    /// byte left over, and the length. Not a cryptographic digest (the operator chose the
    /// files); read a word at a time, it costs about 0.1 ms a megabyte at start-up.
    var fingerprint: UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            let words = raw.count / 8
            for index in 0..<words {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x100_0000_01b3
            }
            for byte in raw[(words * 8)...] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return (hash ^ UInt64(raw.count)) &* 0x100_0000_01b3
        }
    }
}

/// Why a font file is refused. The message says what is wrong with the file, for the start-up
/// error an operator reads.
public struct FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without the file's name (the caller adds it).
    public let message: String

    public var description: String { message }

    static let truncated = FontError(message: "is truncated: a table points past its end")
}
