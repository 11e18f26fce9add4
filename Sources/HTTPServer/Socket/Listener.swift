import CSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens non-blocking listening sockets, one per event loop, all bound to one address. On
/// Linux each is its own socket with `SO_REUSEPORT`, so the kernel spreads new connections
/// across the loops; elsewhere, where `SO_REUSEPORT` does not balance, they are duplicates of
/// one socket, and the loops take turns accepting from it.
///
/// The port is shared only among one process's loops: the first socket is bound without
/// `SO_REUSEPORT`, which fails with `EADDRINUSE` while anything else listens there (a second
/// `ring serve` included), and takes the option only after its bind, before `listen`, so that
/// the other loops' sockets can join it. The kernel decides group membership at `listen`, so the
/// loops still share the connections as before.
enum Listener {
    /// Opens `count` descriptors listening on `host:port`; with port 0, the kernel picks one
    /// port for all of them. Returns the descriptors and the bound port.
    static func open(host: String, port: Int, count: Int, backlog: Int32) throws(SocketError) -> (
        fds: [Int32], port: Int
    ) {
        let address = try resolve(host: host, port: port)
        var fds: [Int32] = []
        var boundPort = port
        do throws(SocketError) {
            for _ in 0..<count {
                if let first = fds.first, !SocketCalls.reusePortBalances {
                    let copy = fcntl(first, F_DUPFD_CLOEXEC, 0)
                    guard copy >= 0 else { throw SocketError("fcntl F_DUPFD_CLOEXEC") }
                    fds.append(copy)
                    continue
                }
                var addr = address
                if !fds.isEmpty { setPort(&addr, boundPort) }
                let fd = try openOne(addr, host: host, port: boundPort, backlog: backlog, first: fds.isEmpty)
                fds.append(fd)
                boundPort = try localPort(fd)
            }
        } catch {
            for fd in fds { close(fd) }
            throw error
        }
        return (fds, boundPort)
    }

    private static func openOne(_ address: sockaddr_storage, host: String, port: Int, backlog: Int32, first: Bool)
        throws(SocketError) -> Int32
    {
        let family = Int32(address.ss_family)
        let fd = SocketCalls.nonBlockingSocket(family: family)
        guard fd >= 0 else { throw SocketError("socket") }
        func option(_ level: Int32, _ name: Int32, _ value: Int32, _ what: String) throws(SocketError) {
            var value = value
            guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                let error = SocketError("setsockopt \(what)")
                close(fd)
                throw error
            }
        }
        try option(SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
        // One listener per loop on the same port: the kernel spreads connections over them. The
        // first binds alone (see the type's comment) and takes the option after its bind.
        if !first { try option(SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT") }
        if family == AF_INET6 {
            // `::` serves IPv4 clients too, as mapped addresses.
            try option(Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0, "IPV6_V6ONLY")
        }
        var addr = address
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = SocketError("bind \(host):\(port)")
            close(fd)
            throw error
        }
        if first { try option(SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT") }
        guard listen(fd, backlog) == 0 else {
            let error = SocketError("listen \(host):\(port)")
            close(fd)
            throw error
        }
        return fd
    }

    private static func resolve(host: String, port: Int) throws(SocketError) -> sockaddr_storage {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = SocketCalls.stream
        hints.ai_family = AF_UNSPEC
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw SocketError("resolve \(host)", errorNumber: EINVAL)
        }
        defer { freeaddrinfo(result) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(
                from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return storage
    }

    private static func setPort(_ address: inout sockaddr_storage, _ port: Int) {
        let networkPort = in_port_t(UInt16(port).bigEndian)
        withUnsafeMutablePointer(to: &address) { pointer in
            if pointer.pointee.ss_family == sa_family_t(AF_INET6) {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = networkPort }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = networkPort }
            }
        }
    }

    static func localPort(_ fd: Int32) throws(SocketError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw SocketError("getsockname") }
        let port = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            if pointer.pointee.ss_family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        return Int(UInt16(bigEndian: port))
    }
}
