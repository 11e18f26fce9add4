import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring healthcheck`: asks a local `ring serve` for `/healthz` and exits 0 on a 200, 1
/// otherwise, saying why on stderr. Container images need no curl for their HEALTHCHECK.
enum HealthcheckCommand {
    static let usage = """
        USAGE: ring healthcheck [--host ADDRESS] [--port N] [SERVE OPTIONS]

        Sends GET /healthz to the server that `ring serve` with the same flags and environment
        (HOST, PORT) would start, and exits 0 when the answer is 200 within 2 seconds, 1
        otherwise, with the reason on stderr. It reads every `ring serve` flag, so one set of
        flags serves both; a wildcard host (0.0.0.0, ::) is asked on loopback. Given no flags,
        and when process 1 is `ring serve` (a container's entrypoint), it takes that process's
        flags, so `docker run IMAGE --port 9000` is probed on port 9000.
        """

    static func run(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        if arguments.isEmpty, let inherited = serveArguments(commandLine: processOneCommandLine()) {
            arguments = inherited
        }
        guard let settings = ServeCommand.settings(arguments, help: "ring healthcheck") else {
            print(usage)
            return 0
        }
        let port = settings.server.port
        guard port > 0 else {
            Usage.fail("--port 0 lets the kernel choose: name the server's port", help: "ring healthcheck")
        }
        let host =
            switch settings.server.host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::", "[::]": "::1"
            case let host: host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            }
        if let failure = probe(host: host, port: port) {
            var stderr = StandardError()
            print("ring: healthcheck of \(host):\(port) failed: \(failure)", to: &stderr)
            return 1
        }
        return 0
    }

    /// The flags of a `ring serve` in `commandLine` (NUL-separated, as /proc/PID/cmdline has
    /// it), or nil when it does not run `ring serve`. A container's HEALTHCHECK runs beside
    /// the entrypoint and cannot see the arguments `docker run` appended to it; process 1 can
    /// be `ring serve …` itself or an init such as `tini -- ring serve …`.
    static func serveArguments(commandLine: [UInt8]) -> [String]? {
        let words = commandLine.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let arguments = words.last == "" ? words.dropLast() : words[...]
        guard
            let ring = arguments.indices.first(where: { index in
                arguments[index].split(separator: "/").last == "ring" && index + 1 < arguments.endIndex
                    && arguments[index + 1] == "serve"
            })
        else { return nil }
        return Array(arguments[(ring + 2)...])
    }

    /// /proc/1/cmdline, or nothing where there is none (macOS, or no permission).
    private static func processOneCommandLine() -> [UInt8] {
        let fd = open("/proc/1/cmdline", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 16 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Nil when the server answered 200, else why not.
    private static func probe(host: String, port: Int) -> String? {
        // A server that goes away mid-request fails the check instead of killing it with
        // SIGPIPE; ignoring the signal works on every platform, unlike MSG_NOSIGNAL.
        signal(SIGPIPE, SIG_IGN)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketCalls.stream
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let address = found else {
            return "cannot resolve the host: \(String(cString: gai_strerror(status)))"
        }
        defer { freeaddrinfo(found) }
        let fd = socket(address.pointee.ai_family, SocketCalls.stream, 0)
        guard fd >= 0 else { return "cannot open a socket: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            return "cannot connect: \(String(cString: strerror(errno)))"
        }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
            return "cannot send the request: \(String(cString: strerror(errno)))"
        }
        var reply = [UInt8](repeating: 0, count: 64)
        let count = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count == 0 { return "the connection closed without an answer" }
            return errno == EAGAIN || errno == EWOULDBLOCK ? "no answer within 2 s" : String(cString: strerror(errno))
        }
        let statusLine = reply[..<count].prefix { $0 != 13 && $0 != 10 }
        guard statusLine.starts(with: "HTTP/1.1 200".utf8) else {
            let printable = statusLine.prefix(40).map { (32...126).contains($0) ? Character(Unicode.Scalar($0)) : "?" }
            return "answered '\(String(printable))', not 200"
        }
        return nil
    }
}
