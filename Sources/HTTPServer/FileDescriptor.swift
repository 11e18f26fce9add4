#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-buffer writes to a blocking file descriptor (stdout, stderr, a log file).
package enum FileDescriptor {
    /// Writes all of `bytes`, resuming after partial writes and `EINTR`; false when the
    /// descriptor refuses (a full disk, a closed pipe), leaving the rest unwritten.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
