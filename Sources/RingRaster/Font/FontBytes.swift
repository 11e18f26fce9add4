#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// An open font file, read at offsets: a fallback font's outlines are read from it a glyph at
/// a time. It stays open as long as the font is in use, so a file replaced by renaming a new
/// one over it (as packages do) is still read whole; one cut short in place reads short.
final class FontFile: Sendable {
    let path: String
    private let descriptor: Int32

    init(path: String) throws(FontError) {
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, and start-up
        // with it; the caller then refuses anything but a regular file. A regular file's reads
        // do not block either way.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FontError(message: "cannot be opened: \(String(cString: strerror(errno)))") }
        (self.path, self.descriptor) = (path, descriptor)
    }

    deinit { close(descriptor) }

    /// The file's size, if it is a regular file.
    func regularFileSize() -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Up to `count` bytes from `offset`: fewer only where the file ends first, or on an error.
    func read(count: Int, at offset: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let got = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                initialized += got
            }
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
