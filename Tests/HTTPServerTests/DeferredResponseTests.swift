import Dispatch
import Foundation
import HTTPTestSupport
import Primitives
import Synchronization
import Testing

@testable import HTTPServer

/// Answers `/later?MS` from another thread after MS milliseconds, `/never` not at all, `/slow`
/// on the loop after blocking it for 2 ms, and everything else at once; records the order in
/// which it saw requests and whether the server began to drain.
final class DeferringResponder: HTTPResponder {
    let seen = Locked<[String]>([])
    let drained = Atomic<Bool>(false)
    /// Answers sent later, from another thread.
    let sent = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "deferring-responder", attributes: .concurrent)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        .text(.ok, "now \(request.path)?\(request.query)")
    }

    func respond(to request: HTTPRequest, reply: HTTPReply) -> HTTPResponse? {
        seen.withLock { $0.append("\(request.path)?\(request.query)") }
        switch request.path {
        case "/later":
            let delay = Int(request.query) ?? 0
            queue.asyncAfter(deadline: .now() + .milliseconds(delay)) {
                reply.send(.text(.ok, "later \(request.query)"))
                self.sent.add(1, ordering: .relaxed)
            }
            return nil
        case "/never":
            return nil
        case "/slow":
            usleep(2000)
            return .text(.ok, "slow \(request.query)")
        default:
            return respond(to: request)
        }
    }

    func drainBegan() { drained.store(true, ordering: .relaxed) }
}

private struct Refused: Error {}

@Suite struct DeferredResponseTests {
    /// A response sent later from another thread goes out in request order: a quick answer
    /// pipelined behind a slow one waits for it.
    @Test(arguments: IOBackend.allCases) func pipelinedAnswersKeepTheirOrder(io: IOBackend) throws {
        let server = try TestServer(io, responder: DeferringResponder())
        let client = try server.client()
        client.send(
            "GET /later?80 HTTP/1.1\r\nHost: x\r\n\r\nGET /now?1 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /later?10 HTTP/1.1\r\nHost: x\r\n\r\nGET /now?2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "later 80")
        #expect(client.readResponse()?.text == "now /now?1")
        #expect(client.readResponse()?.text == "later 10")
        #expect(client.readResponse()?.text == "now /now?2")
    }

    /// A client that asks again only once answered, as most do, costs no change of interest
    /// for a deferred answer: reading is left on while it waits (two `epoll_ctl` a request
    /// otherwise).
    @Test(arguments: IOBackend.allCases) func aDeferredAnswerLeavesReadingOn(io: IOBackend) throws {
        let server = try TestServer(io, responder: DeferringResponder())
        let client = try server.client()
        client.send("GET /now?0 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "now /now?0")
        let before = server.server.statistics.interestChanges
        for index in 1...10 {
            client.send("GET /later?\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.text == "later \(index)")
        }
        #expect(server.server.statistics.interestChanges == before)
    }

    /// A request sent while the one before waits for its answer stops the connection reading
    /// until then, and is answered after it, in order.
    @Test(arguments: IOBackend.allCases) func aRequestSentWhileWaitingIsAnsweredAfter(io: IOBackend) throws {
        let responder = DeferringResponder()
        let server = try TestServer(io, responder: responder)
        let client = try server.client()
        let before = server.server.statistics.interestChanges
        client.send("GET /later?300 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil { responder.seen.withLock { $0.contains("/later?300") } })
        client.send("GET /now?after HTTP/1.1\r\nHost: x\r\n\r\n")
        // Reading stopped when the second request arrived, before the first was answered.
        #expect(waitUntil { server.server.statistics.interestChanges > before })
        #expect(responder.sent.load(ordering: .relaxed) == 0)
        #expect(responder.seen.withLock { $0 } == ["/later?300"])
        #expect(client.readResponse()?.text == "later 300")
        #expect(client.readResponse()?.text == "now /now?after")
    }

    /// A connection waiting for a deferred answer blocks nobody else on its loop.
    @Test(arguments: IOBackend.allCases) func aWaitingConnectionDoesNotHoldTheLoop(io: IOBackend) throws {
        let server = try TestServer(io, responder: DeferringResponder()) { $0.eventLoops = 1 }
        let waiting = try server.client()
        waiting.send("GET /later?1500 HTTP/1.1\r\nHost: x\r\n\r\n")
        let started = Date()
        for index in 0..<20 {
            #expect(try server.exchange("GET /now?\(index) HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        }
        #expect(Date().timeIntervalSince(started) < 1.0)
        #expect(waiting.readResponse()?.text == "later 1500")
    }

    /// With one request a turn, a second connection is answered long before a first
    /// connection's 40-request pipeline of 2 ms requests is through (80 ms).
    @Test(arguments: IOBackend.allCases) func aPipelineTakesTurnsWithOtherConnections(io: IOBackend) throws {
        let responder = DeferringResponder()
        let server = try TestServer(io, responder: responder) {
            $0.eventLoops = 1
            $0.maxRequestsPerTurn = 1
        }
        let pipeliner = try server.client()
        pipeliner.send((0..<40).map { "GET /slow?\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        #expect(waitUntil { responder.seen.withLock { $0.contains("/slow?0") } })
        #expect(try server.exchange("GET /now?other HTTP/1.1\r\nHost: x\r\n\r\n")?.text == "now /now?other")
        for index in 0..<40 { #expect(pipeliner.readResponse()?.text == "slow \(index)") }
        let order = responder.seen.withLock { $0 }
        let other = try #require(order.firstIndex(of: "/now?other"))
        #expect(other < 20, "the other connection waited for \(other) pipelined requests")
    }

    /// Draining tells the responder, refuses new connections at once, and ends at the drain
    /// deadline even when a response never comes.
    @Test(arguments: IOBackend.allCases) func drainEndsAtItsDeadlineAndRefusesNewConnections(io: IOBackend) throws {
        let responder = DeferringResponder()
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 2
        configuration.io = io
        configuration.drainTimeout = 0.5
        let server = Server(configuration: configuration, responder: responder)
        let port = try server.start()
        let stuck = try RawClient(port: port)
        stuck.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil { responder.seen.withLock { $0.contains("/never?") } })
        let started = Date()
        server.shutdown()
        let drained = responder.drained.load(ordering: .relaxed)
        #expect(drained)
        #expect(throws: (any Error).self) {
            let late = try RawClient(port: port, timeout: 1)
            late.send("GET /now HTTP/1.1\r\nHost: x\r\n\r\n")
            if late.readResponse() == nil { throw Refused() }
        }
        server.wait()
        #expect(Date().timeIntervalSince(started) < 2.0)
        #expect(stuck.isClosedByPeer())
    }

    /// A reply for a connection that is gone goes nowhere, and nothing breaks.
    @Test(arguments: IOBackend.allCases) func aReplyForAClosedConnectionIsDropped(io: IOBackend) throws {
        let responder = DeferringResponder()
        let server = try TestServer(io, responder: responder)
        let gone = try server.client()
        gone.send("GET /later?100 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil { responder.seen.withLock { $0.contains("/later?100") } })
        gone.reset()
        #expect(waitUntil { responder.sent.load(ordering: .relaxed) == 1 })
        #expect(try server.exchange("GET /now HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        #expect(waitUntil { server.server.statistics.openConnections == 0 })
    }

    /// Answers held back for their batch (`writeDelayMicroseconds`) go out when the batch
    /// ends, however long the delay: with a delay of 10 s, 40 clients asking at once, each with
    /// a pipeline of three, all have their answers, in order, within the test's 5 s read limit.
    /// (Dispatch reports one event at a time and writes at once, with the same answers.)
    @Test(arguments: IOBackend.allCases) func heldAnswersAreWrittenWhenTheirBatchEnds(io: IOBackend) throws {
        let server = try TestServer(io, responder: DeferringResponder()) {
            $0.eventLoops = 1
            $0.writeDelayMicroseconds = 10_000_000
        }
        let clients = try (0..<40).map { _ in try server.client() }
        for (index, client) in clients.enumerated() {
            client.send((0..<3).map { "GET /now?\(index)-\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        }
        for (index, client) in clients.enumerated() {
            for step in 0..<3 { #expect(client.readResponse()?.text == "now /now?\(index)-\(step)") }
        }
    }

    /// The delay bounds how long an answer waits for the rest of its batch. While a blocker's
    /// pipeline keeps the loop busy for 8 ms, a quick request and then 12 requests whose
    /// answers each block the loop for 2 ms arrive, so the next batch holds all 13, the quick
    /// one first. Its answer goes out once the delay (1 ms) has passed, after the first slow
    /// answer, about 10 ms after it was sent; held to the batch's end it would wait for all 12
    /// (32 ms or more).
    @Test func aHeldAnswerWaitsNoLongerThanTheDelay() throws {
        let server = try TestServer(.epoll, responder: DeferringResponder()) {
            $0.eventLoops = 1
            $0.writeDelayMicroseconds = 1_000
        }
        let blocker = try server.client()
        let quick = try server.client()
        let slow = try (0..<12).map { _ in try server.client() }
        for client in [blocker, quick] + slow {  // accepted and idle before the rounds
            client.send("GET /now?warm HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        var early = 0
        for round in 0..<5 {
            blocker.send((0..<4).map { _ in "GET /slow?b HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            usleep(1_000)
            let started = Date()
            quick.send("GET /now?\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
            for client in slow { client.send("GET /slow?\(round) HTTP/1.1\r\nHost: x\r\n\r\n") }
            #expect(quick.readResponse()?.text == "now /now?\(round)")
            if Date().timeIntervalSince(started) < 0.020 { early += 1 }
            for client in slow { #expect(client.readResponse()?.text == "slow \(round)") }
            for _ in 0..<4 { #expect(blocker.readResponse()?.text == "slow b") }
        }
        #expect(early >= 3)
    }

    /// A batch's requests are all read before the first is answered: the answers then run one
    /// after another, not each between two system calls (docs/performance.md, "Serving").
    /// While `/block` keeps the loop busy, eight clients send; each answer counts the eight
    /// connections whose input the server has not read yet when it is made: none, for every
    /// answer. Read and answered in turn, the first answer would find seven.
    @Test func aBatchIsReadBeforeItIsAnswered() throws {
        let responder = UnreadInputResponder()
        let server = try TestServer(.epoll, responder: responder) { $0.eventLoops = 1 }
        let blocker = try server.client()
        let clients = try (0..<8).map { _ in try server.client() }
        for client in [blocker] + clients {  // accepted before the rounds
            client.send("GET /unread HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let ends = clients.compactMap { UnreadInputResponder.serverSide(of: $0, port: server.port) }
        try #require(ends.count == clients.count)
        responder.watched.withLock { $0 = ends }
        for _ in 0..<3 {
            blocker.send("GET /block HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(5_000)  // the loop is inside /block
            for client in clients { client.send("GET /unread HTTP/1.1\r\nHost: x\r\n\r\n") }
            #expect(blocker.readResponse()?.status == 200)
            for client in clients { #expect(client.readResponse()?.text == "0") }
        }
    }
}

/// Answers `/block` after blocking its loop for 20 ms, and `/unread` with how many of the
/// `watched` server-side sockets still hold input the server has not read.
final class UnreadInputResponder: HTTPResponder {
    let watched = Locked<[Int32]>([])

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.path == "/block" { usleep(20_000) }
        let unread = watched.withLock { $0.filter { Self.unreadBytes($0) > 0 }.count }
        return .text(.ok, "\(unread)")
    }

    static func unreadBytes(_ fd: Int32) -> Int32 {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? count : -1
    }

    /// The server's end of `client`'s connection to `port`, found among this process's
    /// descriptors by its addresses.
    static func serverSide(of client: RawClient, port: Int) -> Int32? {
        func portOf(_ fd: Int32, peer: Bool) -> Int? {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let status = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
                }
            }
            guard status == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
            return Int(UInt16(bigEndian: address.sin_port))
        }
        guard let clientPort = portOf(client.fd, peer: false),
            let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        else { return nil }
        return names.compactMap { Int32($0) }.first {
            $0 != client.fd && portOf($0, peer: false) == port && portOf($0, peer: true) == clientPort
        }
    }
}

/// Defers `/spare?X` and answers it only in a spare turn, one a turn, counting the turns taken
/// on a thread that is not an epoll loop's (every turn with Dispatch, none with epoll).
final class SpareTurnResponder: HTTPResponder {
    let waiting = Locked<[(String, HTTPReply)]>([])
    let turnsTaken = Atomic<Int>(0)
    let turnsOffLoop = Atomic<Int>(0)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        .text(.ok, "now \(request.query)")
    }

    func respond(to request: HTTPRequest, reply: HTTPReply) -> HTTPResponse? {
        guard request.path == "/spare" else { return respond(to: request) }
        waiting.withLock { $0.append((request.query, reply)) }
        return nil
    }

    func spareTurn(for budget: Double) -> Bool {
        guard let (query, reply) = waiting.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
        turnsTaken.add(1, ordering: .relaxed)
        if !(Thread.current.name ?? "").hasPrefix("ring-loop-") { turnsOffLoop.add(1, ordering: .relaxed) }
        reply.send(.text(.ok, "spare \(query)"))
        return true
    }
}
