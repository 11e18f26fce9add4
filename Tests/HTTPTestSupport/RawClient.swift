import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let noSignal = Int32(MSG_NOSIGNAL)
#else
    private let streamSocket = SOCK_STREAM
    private let noSignal: Int32 = 0  // SO_NOSIGPIPE is set on the socket instead
#endif

/// The system's `send`, by a name the client's own `send` does not shadow.
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    send(fd, bytes, count, noSignal)
}

/// A blocking TCP client that sends exact bytes and reads exact bytes, for testing the server
/// at the wire.
public final class RawClient {
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (IPv4 or IPv6 literal) on `port`, with a receive timeout; from the
    /// IPv4 address `source` (another loopback address: `127.0.0.2`) if given.
    public init(port: Int, host: String = "127.0.0.1", timeout: Double = 5, from source: String? = nil) throws {
        var hints = addrinfo()
        hints.ai_socktype = streamSocket
        hints.ai_flags = AI_NUMERICHOST
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw ClientError("resolve")
        }
        defer { freeaddrinfo(result) }
        // Connected on a local first: `self.fd` is set only once the client exists. Set
        // before a failed connect, the throw would run `deinit` on the whole instance and
        // close the descriptor a second time — by then perhaps another test's listener or
        // epoll set, under the same number (seen as `poller add: Invalid argument`).
        let socketFD = socket(info.pointee.ai_family, streamSocket, 0)
        guard socketFD >= 0 else { throw ClientError("socket") }
        var time = timeval(tv_sec: .init(timeout), tv_usec: .init((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        #if !os(Linux)
            var on: Int32 = 1
            setsockopt(socketFD, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
                close(socketFD)
                throw ClientError("source \(source)")
            }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(socketFD)
                throw ClientError("bind \(source)")
            }
        }
        guard connect(socketFD, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let error = errno
            close(socketFD)
            throw ClientError("connect \(error)")
        }
        fd = socketFD
    }

    deinit { close(fd) }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                systemSend(fd, $0.baseAddress! + offset, bytes.count - offset)
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Closes our sending side (the peer reads EOF) but keeps reading.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Closes with an RST instead of a FIN.
    public func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// What the last read ended with.
    private enum ReadEnd { case data, endOfFile, timeout, error }

    private func read() -> ReadEnd {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return .data
        }
        if count == 0 { return .endOfFile }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .timeout : .error
    }

    /// Reads more bytes; false on end of file, error or timeout.
    private func fill() -> Bool { read() == .data }

    /// True when the server closes the connection (FIN or reset) within the timeout.
    public func isClosedByPeer() -> Bool {
        while true {
            switch read() {
            case .data: continue
            case .endOfFile, .error: return true
            case .timeout: return false
            }
        }
    }

    /// Everything until the server closes.
    public func readToEnd() -> String {
        while fill() {}
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// One response, framed by its Content-Length (none for HEAD, 1xx, 204, 304).
    public func readResponse(head: Bool = false) -> Response? {
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let headText = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
                var headers: [(String, String)] = []
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    headers.append(
                        (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                    )
                }
                let length =
                    head || status == 304 || status == 204
                    ? 0 : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
                while buffer.count < end.upperBound + length {
                    guard fill() else { return nil }
                }
                let body = Array(buffer[end.upperBound..<(end.upperBound + length)])
                buffer.removeSubrange(0..<(end.upperBound + length))
                return Response(statusLine: statusLine, status: status, headers: headers, body: body)
            }
            guard fill() else { return nil }
        }
    }

    public struct Response {
        public var statusLine: String
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        public func headers(named name: String) -> [String] {
            headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct ClientError: Error {
        var what: String
        init(_ what: String) { self.what = what }
    }
}
