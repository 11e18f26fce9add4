import HTTPServer
import RingService

/// `--profile-hit N` / `--profile-miss N [png]`: only the service path for N requests, all for
/// one ring (cache hits) or each for a new ring (misses), for callgrind or perf. With `png`,
/// each miss is a PNG whose `slice` is 0.1…0.9 in turn, as bench.sh's interleaved round asks.
func profileService(_ arguments: [String], distinct: Bool) {
    guard let count = count(arguments) else { return usage() }
    let interleavedPNG = arguments.count > 1 && arguments[1] == "png"
    let service = RingService(
        configuration: ServiceConfiguration(), accessLog: try! AccessLog(.off), serverStatistics: ServerStatistics())
    let limits = HTTPRequestParser.Limits(ServerConfiguration())
    var total = 0
    for index in 0..<count {
        let target =
            interleavedPNG
            ? "/ring.png?p=1.\(1_000_000 + index)&slice=0.\(index % 9 + 1)"
            : distinct ? "/ring.svg?p=1.\(1_000_000 + index)" : "/ring.svg?p=72&slice=0.45"
        let bytes = Array("GET \(target) HTTP/1.1\r\nHost: rings.example.com\r\nUser-Agent: bench\r\n\r\n".utf8)
        var parser = HTTPRequestParser(limits: limits)
        bytes.withUnsafeBytes { parser.append($0) }
        total &+= service.respond(to: try! parser.next()!).body.count
    }
    print("\(count) requests, \(total) bytes")
}

/// `--profile-reply N`: N responses handed through a reply's mailbox and taken out again, as
/// a render's answer reaches its loop, for callgrind: what answering through the mailbox
/// costs a render done in a loop's own spare turn. Each post here also wakes the taker, which
/// a loop in its spare turn is not, so it is an upper bound.
func profileReply(_ arguments: [String]) {
    guard let count = count(arguments) else { return usage() }
    let response = HTTPResponse(status: .ok, headers: [("Content-Type", "image/png")], body: [0, 1, 2, 3])
    let received = Counter()
    let reply = HTTPReply.calling { received.add($0.body.count) }
    for _ in 0..<count { reply.send(response) }
    print("\(count) replies, \(received.total) bytes")
}

/// A total a reply's callback adds to; only the sending thread calls it.
private final class Counter: @unchecked Sendable {
    private(set) var total = 0
    func add(_ bytes: Int) { total += bytes }
}
