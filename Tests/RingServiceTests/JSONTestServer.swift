import Dispatch
import Foundation
import HTTPServer
import Primitives

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' own document server on loopback: raw sockets, one thread a connection, so a
/// test can answer slowly, trickle a body, redirect, or lie about a length, and count what it
/// was asked. Speaks just enough HTTP/1.1 for `URLSession`: one request a connection, closed.
final class JSONTestServer: @unchecked Sendable {  // state under `lock`
    /// What a path answers.
    enum Answer: Sendable {
        /// A body with a status and extra header lines, after `delay` seconds.
        case body(String, status: Int = 200, headers: [(String, String)] = [], delay: Double = 0)
        /// A redirect to `location`.
        case redirect(String)
        /// `chunks`, one every `interval` seconds, with no `Content-Length`.
        case trickle([String], interval: Double)
    }

    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var answers: [String: Answer] = [:]
    private var counts: [String: Int] = [:]
    private var open = 0
    private(set) var mostAtOnce = 0
    /// The header lines of every request, in order.
    private(set) var requestHeads: [String] = []
    /// When each request's head was read, in monotonic seconds, in order.
    private var arrivalTimes: [Double] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 512) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { close(listener) }

    /// The URL of `path` on this server.
    func url(_ path: String, host: String = "127.0.0.1") -> String { "http://\(host):\(port)\(path)" }

    func answer(_ path: String, _ answer: Answer) {
        lock.withLock { answers[path] = answer }
    }

    /// Requests for `path` so far (the path without its query).
    func count(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }

    var heads: [String] { lock.withLock { requestHeads } }
    var arrivals: [Double] { lock.withLock { arrivalTimes } }
    var peak: Int { lock.withLock { mostAtOnce } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        lock.withLock {
            open += 1
            mostAtOnce = max(mostAtOnce, open)
        }
        // A request stops counting as open just before its answer is sent: the client can only
        // start its next request after it has the answer, so the peak counts no overlap
        // between an answered request's closing and the next one's start.
        var counted = true
        func answered() {
            guard counted else { return }
            counted = false
            lock.withLock { open -= 1 }
        }
        defer { answered() }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: "\r\n\r\n") {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            head += buffer[0..<count]
            if head.count > 65536 { return }
        }
        let text = String(decoding: head, as: UTF8.self)
        let target = text.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let path = String(target.prefix { $0 != "?" })
        let answer = lock.withLock { () -> Answer? in
            counts[path, default: 0] += 1
            requestHeads.append(text)
            arrivalTimes.append(MonotonicClock.now())
            return answers[path] ?? answers[target]
        }
        func send(_ text: String) -> Bool {
            answered()
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                == bytes.count
        }
        switch answer {
        case nil:
            _ = send("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        case .body(let body, let status, let headers, let delay)?:
            if delay > 0 { usleep(UInt32(delay * 1e6)) }
            let extra = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
            _ = send(
                "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "\(extra)Connection: close\r\n\r\n\(body)")
        case .redirect(let location)?:
            _ = send("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        case .trickle(let chunks, let interval)?:
            guard send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n") else { return }
            for chunk in chunks {
                usleep(UInt32(interval * 1e6))
                guard send(chunk) else { return }
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with text: String) -> Bool {
        let suffix = Array(text.utf8)
        return count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
