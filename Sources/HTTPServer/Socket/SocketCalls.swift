#if os(Linux)
    import CSystem
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls whose spelling differs by platform, side by side: Linux has `accept4` and
/// `MSG_NOSIGNAL`; elsewhere `accept` is followed by `fcntl`, and `SO_NOSIGPIPE` keeps a write
/// to a closed peer from raising `SIGPIPE`.
enum SocketCalls {
    /// Accepts a connection as a non-blocking, close-on-exec socket; -1 with `errno` set.
    static func acceptNonBlocking(_ listener: Int32) -> Int32 {
        #if os(Linux)
            return csystem_accept_nonblocking(listener)
        #else
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return fd }
            var on: Int32 = 1
            guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0,
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
            else {
                let error = errno
                close(fd)
                errno = error
                return -1
            }
            return fd
        #endif
    }

    /// Flags for every `send`: never `SIGPIPE` for a peer that has gone.
    static var sendFlags: Int32 {
        #if os(Linux)
            Int32(MSG_NOSIGNAL)
        #else
            0  // SO_NOSIGPIPE is set on each accepted socket
        #endif
    }
}
