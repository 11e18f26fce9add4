import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring healthcheck`: asks a local `ring serve` for `/healthz` and exits 0 on a 200, 1
/// otherwise. Container images need no curl for their HEALTHCHECK.
enum HealthcheckCommand {
    static let usage = """
        USAGE: ring healthcheck [--port N]

        Sends GET /healthz to 127.0.0.1:PORT (default: env PORT, else 8080) and exits 0 when the
        answer is 200 within 2 seconds, 1 otherwise.
        """

    static func run(_ arguments: [String]) -> Int32 {
        var port = ProcessInfoLite.environment["PORT"].flatMap { Int($0) } ?? 8080
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--help", "-h":
                print(usage)
                return 0
            case "--port":
                index += 1
                guard index < arguments.count, let value = Int(arguments[index]), (1...65535).contains(value) else {
                    Usage.fail("--port needs a port number", usage: usage)
                }
                port = value
            default:
                Usage.fail("unknown option '\(arguments[index])'", usage: usage)
            }
            index += 1
        }
        return probe(port: port) ? 0 : 1
    }

    private static func probe(port: Int) -> Bool {
        // A server that goes away mid-request fails the check instead of killing it with
        // SIGPIPE; ignoring the signal works on every platform, unlike MSG_NOSIGNAL.
        signal(SIGPIPE, SIG_IGN)
        let fd = socket(AF_INET, SocketCalls.stream, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count
        else {
            return false
        }
        var reply = [UInt8](repeating: 0, count: 64)
        let count = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count >= 12 && reply[0..<12].elementsEqual("HTTP/1.1 200".utf8)
    }
}
