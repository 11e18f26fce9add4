import Foundation
import HTTPTestSupport
import Testing

@testable import HTTPServer

/// Edges that real clients and caches hit, each at the wire.
@Suite struct HTTPEdgeTests {
    /// aiohttp and others send `Expect: 100-continue` and wait for an answer before the body.
    /// The server answers at once with the final status and closes, for any method.
    @Test(arguments: IOBackend.allCases, ["GET", "POST", "PUT", "HEAD"])
    func answersExpectContinueAtOnce(io: IOBackend, method: String) throws {
        let server = try TestServer(io)
        let client = try server.client(timeout: 3)
        let started = Date()
        client.send("\(method) /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        let response = try #require(client.readResponse(head: method == "HEAD"), "no answer to \(method)")
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(response.status == 200)
        #expect(response.text.isEmpty == (method == "HEAD"))
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    /// A body over the limit gets its 413 at once too.
    @Test(arguments: IOBackend.allCases) func expectContinueWithATooLargeBodyGets413AtOnce(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client(timeout: 3)
        client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n")
        #expect(client.readResponse()?.status == 413)
        #expect(client.isClosedByPeer())
    }

    /// Without a body to wait for, or with the body already sent, the request is an ordinary one.
    @Test(arguments: IOBackend.allCases) func expectContinueWithoutAPendingBodyKeepsTheConnection(io: IOBackend) throws
    {
        let server = try TestServer(io)
        let client = try server.client()
        client.send("GET /a HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\n\r\n")
        #expect(client.readResponse()?.text == "GET /a  1.1")
        client.send("POST /b HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc")
        let response = try #require(client.readResponse())
        #expect(response.text == "POST /b  1.1")
        #expect(response.header("Connection") == nil)
        client.send("GET /c HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "GET /c  1.1")
    }

    /// A request line longer than the limit gets 414 whatever its length, also past the
    /// header-block limit, sent at once or in pieces (RFC 9112 §3).
    @Test(arguments: IOBackend.allCases, [8 * 1024 + 1, 12 * 1024, 16 * 1024, 17 * 1024, 100 * 1024])
    func longRequestLinesGet414(io: IOBackend, length: Int) throws {
        let server = try TestServer(io)
        let line = "GET /" + String(repeating: "a", count: length) + " HTTP/1.1\r\n"
        #expect(try server.exchange(line + "Host: x\r\n\r\n")?.status == 414, "\(length) at once")
        let client = try server.client()
        for piece in stride(from: 0, to: line.utf8.count, by: 4096) {
            client.send(Array(Array(line.utf8)[piece..<min(piece + 4096, line.utf8.count)]))
        }
        client.send("Host: x\r\n\r\n")
        #expect(client.readResponse()?.status == 414, "\(length) in pieces")
    }

    /// A short request line with too many header bytes is still 431.
    @Test(arguments: IOBackend.allCases) func aShortLineWithAHugeHeaderBlockIs431(io: IOBackend) throws {
        let server = try TestServer(io)
        let big = "X-Big: " + String(repeating: "b", count: 20 * 1024) + "\r\n"
        #expect(try server.exchange("GET / HTTP/1.1\r\nHost: x\r\n\(big)\r\n")?.status == 431)
    }

    /// Percent-encoded unreserved characters are the characters themselves (RFC 3986
    /// §6.2.2.2): the path is normalised before routing, the query never.
    @Test(
        arguments: IOBackend.allCases,
        [
            ("/%72ing.svg", "/ring.svg"), ("/ring%2Esvg", "/ring.svg"), ("/ring%2esvg", "/ring.svg"),
            ("/%7Euser/%41-%5a_%30", "/~user/A-Z_0"), ("/a%2Fb", "/a%2Fb"), ("/a%20b", "/a%20b"), ("/%zz%4", "/%zz%4"),
            ("/%25", "/%25"),
        ])
    func normalisesThePathNotTheQuery(io: IOBackend, path: (sent: String, routed: String)) throws {
        let (sent, routed) = path
        let server = try TestServer(io)
        let response = try server.exchange("GET \(sent)?%70=%31 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response?.text == "GET \(routed) %70=%31 1.1")
    }

    /// TRACE is a method of RFC 9110, so the responder decides (405 in the ring service).
    @Test(arguments: IOBackend.allCases) func traceReachesTheResponder(io: IOBackend) throws {
        let server = try TestServer(io)
        #expect(try server.exchange("TRACE /t HTTP/1.1\r\nHost: x\r\n\r\n")?.text == "TRACE /t  1.1")
    }
}
