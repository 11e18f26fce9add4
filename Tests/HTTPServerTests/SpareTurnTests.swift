import Dispatch
import Foundation
import HTTPTestSupport
import Primitives
import Synchronization
import Testing

@testable import HTTPServer

@Suite struct SpareTurnTests {
    /// Deferred work that nothing but the loops' spare turns does gets done, in request order
    /// on each connection, while other connections are answered at once.
    @Test(arguments: IOBackend.allCases) func spareTurnsAnswerDeferredWork(io: IOBackend) throws {
        let responder = SpareTurnResponder()
        let server = try TestServer(io, responder: responder)
        let pipelined = try server.client()
        let other = try server.client()
        pipelined.send(
            (1...5).map { "GET /spare?\($0) HTTP/1.1\r\nHost: x\r\n\r\nGET /now?\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }
                .joined())
        other.send("GET /spare?other HTTP/1.1\r\nHost: x\r\n\r\n")
        for index in 1...5 {
            #expect(pipelined.readResponse()?.text == "spare \(index)")
            #expect(pipelined.readResponse()?.text == "now \(index)")
        }
        #expect(other.readResponse()?.text == "spare other")
        #expect(responder.turnsTaken.load(ordering: .relaxed) == 6)
        #if os(Linux)
            if io == .epoll { #expect(responder.turnsOffLoop.load(ordering: .relaxed) == 0) }
        #endif
    }
}
