import Dispatch
import Foundation
import HTTPTestSupport
import Synchronization
import Testing

@testable import HTTPServer

/// Answers `/later?MS` from another thread after MS milliseconds, `/never` not at all, `/slow`
/// on the loop after blocking it for 2 ms, and everything else at once; records the order in
/// which it saw requests and whether the server began to drain.
final class DeferringResponder: HTTPResponder {
    let seen = Locked<[String]>([])
    let drained = Atomic<Bool>(false)
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
        usleep(10_000)
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
        let server = try TestServer(io, responder: DeferringResponder())
        let gone = try server.client()
        gone.send("GET /later?100 HTTP/1.1\r\nHost: x\r\n\r\n")
        gone.reset()
        usleep(200_000)
        #expect(try server.exchange("GET /now HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        #expect(waitUntil { server.server.statistics.openConnections == 0 })
    }
}
