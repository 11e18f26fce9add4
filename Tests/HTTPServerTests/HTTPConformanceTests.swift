import Foundation
import HTTPTestSupport
import Testing

@testable import HTTPServer

/// RFC 9110/9112 behaviour at the wire, through a real server on a loopback port.
@Suite struct HTTPConformanceTests {
    @Test(arguments: IOBackend.allCases) func answersASimpleGet(io: IOBackend) throws {
        let server = try TestServer(io)
        let response = try #require(try server.exchange("GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.text == "GET /a b=c 1.1")
        #expect(response.header("Content-Length") == "14")
        let date = try #require(response.header("Date"))
        #expect(date.hasSuffix(" GMT") && date.count == 29)
        #expect(response.header("Connection") == nil)
    }

    @Test(arguments: IOBackend.allCases) func keepsHTTP11ConnectionsAliveByDefault(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        for index in 0..<3 {
            client.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.text == "GET /\(index)  1.1")
        }
    }

    /// An HTTP/1.0 request gets the server's own version in the status line (RFC 9110 §2.5)
    /// and the 1.0 connection rules.
    @Test(arguments: IOBackend.allCases) func closesHTTP10UnlessAskedToKeepAlive(io: IOBackend) throws {
        let server = try TestServer(io)
        let plain = try server.client()
        plain.send("GET / HTTP/1.0\r\n\r\n")
        let first = try #require(plain.readResponse())
        #expect(first.statusLine == "HTTP/1.1 200 OK")
        #expect(first.header("Connection") == "close")
        #expect(plain.isClosedByPeer())

        let kept = try server.client()
        kept.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let second = try #require(kept.readResponse())
        #expect(second.statusLine == "HTTP/1.1 200 OK")
        #expect(second.header("Connection") == "keep-alive")
        kept.send("GET /again HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
        #expect(kept.readResponse()?.text == "GET /again  1.0")
    }

    @Test(arguments: IOBackend.allCases) func honoursConnectionClose(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        client.send(
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: foo, close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test(arguments: IOBackend.allCases) func ignoresLeadingEmptyLinesAndAcceptsAbsoluteForm(io: IOBackend) throws {
        let server = try TestServer(io)
        #expect(try server.exchange("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        #expect(
            try server.exchange("GET http://example.com:80/p?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")?.text
                == "GET /p q=1 1.1")
        #expect(
            try server.exchange("GET http://example.com?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")?.text
                == "GET / q=1 1.1")
    }

    @Test(arguments: IOBackend.allCases) func answersPipelinedRequestsInOrder(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        let batch = (0..<50).map { "GET /\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        client.send(batch + "HEAD /fixed HTTP/1.1\r\nHost: x\r\n\r\nGET /last HTTP/1.1\r\nHost: x\r\n\r\n")
        for index in 0..<50 {
            #expect(client.readResponse()?.text == "GET /\(index)  1.1")
        }
        let head = try #require(client.readResponse(head: true))
        #expect(head.header("Content-Length") == "10")
        #expect(client.readResponse()?.text == "GET /last  1.1")
    }

    @Test(arguments: IOBackend.allCases) func parsesRequestsArrivingOneByteAtATime(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        for byte in Array("GET /slow?x=1 HTTP/1.1\r\nHost: x\r\nX-A: b\r\n\r\n".utf8) {
            client.send([byte])
            usleep(200)
        }
        #expect(client.readResponse()?.text == "GET /slow x=1 1.1")
    }

    @Test(arguments: IOBackend.allCases) func headHasGetsHeadersAndNoBody(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        client.send("HEAD /fixed HTTP/1.1\r\nHost: x\r\n\r\nGET /fixed HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try #require(client.readResponse(head: true))
        let get = try #require(client.readResponse())
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(head.body.isEmpty)
        #expect(get.text == "fixed body")
    }

    @Test(arguments: IOBackend.allCases) func notModifiedHasNoBodyAndKeepsFraming(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        client.send("GET /not-modified HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        let notModified = try #require(client.readResponse())
        #expect(notModified.status == 304)
        #expect(notModified.header("Content-Length") == nil)
        #expect(notModified.header("ETag") == "\"x\"")
        #expect(client.readResponse()?.text == "GET /after  1.1")
    }

    @Test(arguments: IOBackend.allCases) func discardsARequestBodyWithoutLosingFraming(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        client.send("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 22\r\n\r\nGET /smuggled HTTP/1.1\r\n")
        client.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "POST /p  1.1")
        #expect(client.readResponse()?.text == "GET /next  1.1")
    }

    @Test(arguments: IOBackend.allCases) func refusesATooLargeBody(io: IOBackend) throws {
        let server = try TestServer(io) { $0.maxBodyBytes = 10 }
        let client = try server.client()
        client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world")
        #expect(client.readResponse()?.status == 413)
        #expect(client.isClosedByPeer())
    }

    @Test(arguments: IOBackend.allCases) func neverUpgrades(io: IOBackend) throws {
        let server = try TestServer(io)
        let response = try server.exchange(
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
        #expect(response?.status == 200)
    }

    @Test(arguments: IOBackend.allCases) func passesHeadersThrough(io: IOBackend) throws {
        let server = try TestServer(io)
        let response = try server.exchange("GET /headers HTTP/1.1\r\nHost: x\r\nX-Value:   a b  \r\nX-Empty:\r\n\r\n")
        #expect(response?.text == "Host=x\nX-Value=a b\nX-Empty=")
    }

    /// Requests the server must refuse, with the status it must use; the connection is closed.
    @Test(
        arguments: IOBackend.allCases,
        [
            ("GET / HTTP/1.1\r\n\r\n", 400),  // HTTP/1.1 without Host
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost:\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: user@x\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x/path\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a, b\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a:b\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),  // whitespace before the colon
            ("GET / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\n\r\n", 400),  // obs-fold
            ("GET / HTTP/1.1\r\n Host: x\r\n\r\n", 400),  // whitespace before the first field
            ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400),  // bare CR
            ("GET / HTTP/1.1\rHost: x\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nBad(Name): v\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -0\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1_0\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
            ("BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("get / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("PROPFIND / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 501),
            ("CONNECT / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("GET / HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n", 417),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
            ("GET / HTTP/0.9\r\nHost: x\r\n\r\n", 505),
            ("GET\r\nHost: x\r\n\r\n", 400),
            ("GET /\r\nHost: x\r\n\r\n", 400),
            ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/1.1 \r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/1\r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/01.01\r\nHost: x\r\n\r\n", 400),
            ("GET / http/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/1.1x\r\nHost: x\r\n\r\n", 400),
            ("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET /a\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET /é HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET /#frag HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET http://a@b/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET ftp:/x HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("G@T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ])
    func refusesMalformedRequests(io: IOBackend, malformed: (request: String, status: Int)) throws {
        let (request, status) = malformed
        let server = try TestServer(io)
        let client = try server.client()
        client.send(request)
        let response = try #require(client.readResponse(), "no response to \(request.debugDescription)")
        #expect(response.status == status, "\(request.debugDescription)")
        #expect(response.header("Connection") == "close")
        #expect(response.header("Date") != nil)
        #expect(client.isClosedByPeer(), "still open after \(request.debugDescription)")
    }

    @Test(arguments: IOBackend.allCases) func limitsTheRequestLine(io: IOBackend) throws {
        let server = try TestServer(io)
        let longTarget = "/" + String(repeating: "a", count: 8 * 1024)
        #expect(try server.exchange("GET \(longTarget) HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 414)
        // The same without a line end yet: refused before the line completes.
        let client = try server.client()
        client.send("GET \(longTarget)")
        #expect(client.readResponse()?.status == 414)
        let fits = "/" + String(repeating: "a", count: 8 * 1024 - 20)
        #expect(try server.exchange("GET \(fits) HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
    }

    @Test(arguments: IOBackend.allCases) func limitsTheHeaderBlock(io: IOBackend) throws {
        let server = try TestServer(io)
        let big = "X-Big: " + String(repeating: "b", count: 16 * 1024) + "\r\n"
        #expect(try server.exchange("GET / HTTP/1.1\r\nHost: x\r\n\(big)\r\n")?.status == 431)
        let many = (0..<101).map { "X-\($0): v\r\n" }.joined()
        #expect(try server.exchange("GET / HTTP/1.1\r\nHost: x\r\n\(many)\r\n")?.status == 431)
        let hundred = (0..<99).map { "X-\($0): v\r\n" }.joined()
        #expect(try server.exchange("GET / HTTP/1.1\r\nHost: x\r\n\(hundred)\r\n")?.status == 200)
    }

    @Test(arguments: IOBackend.allCases) func refusesATLSHelloWithoutHanging(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client(timeout: 3)
        let hello: [UInt8] =
            [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03] + [UInt8](repeating: 0x2A, count: 160)
        client.send(hello)
        let started = Date()
        let answer = client.readToEnd()
        #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 400"))
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test(arguments: IOBackend.allCases) func listensOnIPv6(io: IOBackend) throws {
        let server = try TestServer(io) { $0.host = "::1" }
        let client = try RawClient(port: server.port, host: "::1")
        client.send("GET /six HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        #expect(client.readResponse()?.text == "GET /six  1.1")
    }
}
