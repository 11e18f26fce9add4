#if os(Linux)
    import CSystem
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls whose spelling differs by platform, side by side, so that a reviewer can
/// check each branch by eye: Linux has `accept4`, `SOCK_NONBLOCK | SOCK_CLOEXEC`,
/// `MSG_NOSIGNAL` and balancing `SO_REUSEPORT`; elsewhere `socket` and `accept` are followed by
/// `fcntl`, and `SO_NOSIGPIPE` keeps a write to a closed peer from raising `SIGPIPE`. (epoll
/// and `eventfd` live in `EpollPoller`.)
package enum SocketCalls {
    /// `SOCK_STREAM` as the socket calls take it (an enum in Glibc, a constant in Darwin).
    package static var stream: Int32 {
        #if os(Linux)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// Whether several sockets bound to one port with `SO_REUSEPORT` share its connections
    /// out. Linux balances them; BSD and Darwin give every connection to one of them, so there
    /// the loops share one listening socket instead.
    static var reusePortBalances: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// A non-blocking, close-on-exec stream socket; -1 with `errno` set.
    static func nonBlockingSocket(family: Int32) -> Int32 {
        #if os(Linux)
            return socket(family, stream | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            return configured(socket(family, stream, 0), noSigPipe: false)
        #endif
    }

    #if !os(Linux)
        /// `fd` made non-blocking and close-on-exec (and, with `noSigPipe`, free of SIGPIPE), or
        /// -1 with `errno` set and `fd` closed when it cannot be; -1 passes through.
        private static func configured(_ fd: Int32, noSigPipe: Bool) -> Int32 {
            guard fd >= 0 else { return fd }
            var ok = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) == 0
            if ok, noSigPipe {
                var on: Int32 = 1
                ok = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
            }
            guard ok else {
                let error = errno
                close(fd)
                errno = error
                return -1
            }
            return fd
        }
    #endif

    /// Accepts a connection as a non-blocking, close-on-exec socket, writing its peer's
    /// address to `peer`; -1 with `errno` set.
    static func acceptNonBlocking(_ listener: Int32, peer: inout sockaddr_storage) -> Int32 {
        #if os(Linux)
            return csystem_accept_nonblocking(listener, &peer)
        #else
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            return configured(fd, noSigPipe: true)
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

    /// Sends `count` buffers in one call (a response's head and its shared body); the bytes sent,
    /// or -1 with `errno` set. Never raises `SIGPIPE`.
    static func send(_ fd: Int32, buffers: UnsafePointer<iovec>, count: Int32) -> Int {
        #if os(Linux)
            return csystem_send_buffers(fd, buffers, count)
        #else
            return writev(fd, buffers, count)  // SO_NOSIGPIPE is set on each accepted socket
        #endif
    }

    /// Raises the soft limit on open descriptors (sockets among them) to the hard limit.
    static func raiseDescriptorLimit() {
        #if os(Linux)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(resource, &limit)
    }
}
