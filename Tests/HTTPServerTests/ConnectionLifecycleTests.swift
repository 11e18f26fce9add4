import Foundation
import HTTPTestSupport
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Timeouts, half-closed and reset connections, limits and graceful shutdown.
@Suite struct ConnectionLifecycleTests {
    @Test(arguments: IOBackend.allCases) func cutsOffSlowHeadersWhileServingOthers(io: IOBackend) throws {
        let server = try TestServer(io) { $0.headerTimeout = 0.5 }
        let slow = try server.client()
        slow.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let started = Date()
        for _ in 0..<5 {
            #expect(try server.exchange("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        }
        #expect(slow.isClosedByPeer())
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.4 && waited < 2, "closed after \(waited) s")
        #expect(server.server.statistics.timeouts >= 1)
    }

    @Test(arguments: IOBackend.allCases) func closesIdleKeepAliveConnections(io: IOBackend) throws {
        let server = try TestServer(io) { $0.idleTimeout = 0.4 }
        let client = try server.client()
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        let started = Date()
        #expect(client.isClosedByPeer())
        #expect(Date().timeIntervalSince(started) >= 0.3)
    }

    @Test(arguments: IOBackend.allCases) func dropsClientsThatDoNotReadTheirResponse(io: IOBackend) throws {
        let server = try TestServer(io) { $0.writeTimeout = 0.5 }
        let client = try server.client()
        var size: Int32 = 4096
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        // Never read: the server's send buffer fills, the write deadline passes, it lets go.
        #expect(waitUntil { server.server.statistics.timeouts >= 1 })
        #expect(waitUntil { server.server.statistics.openConnections == 0 })
        // (Reading what is still in flight through a 4 KiB window would take minutes.)
        client.reset()
    }

    @Test(arguments: IOBackend.allCases) func answersAHalfClosedClient(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n")
        client.shutdownWrite()
        #expect(client.readResponse()?.text == "GET /one  1.1")
        let second = try #require(client.readResponse())
        #expect(second.text == "GET /two  1.1")
        #expect(client.isClosedByPeer())
    }

    /// Every reset connection is noticed and released. The deadlines are set far beyond the wait,
    /// so only noticing the reset can release them: under ThreadSanitizer and the parallel suite,
    /// releasing all 200 on the Dispatch backend once took longer than 5 s on CI.
    @Test(arguments: IOBackend.allCases) func survivesResetConnectionsAndReleasesThem(io: IOBackend) throws {
        let server = try TestServer(io) {
            $0.headerTimeout = 120
            $0.idleTimeout = 120
            $0.writeTimeout = 120
        }
        for index in 0..<200 {
            let client = try server.client()
            client.send(index % 2 == 0 ? "GET / HTTP/1.1\r\nHost: x\r\n" : "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            client.reset()
        }
        #expect(try server.exchange("GET /alive HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        #expect(
            waitUntil(30) { server.server.statistics.openConnections == 0 },
            "\(server.server.statistics.openConnections) still open")
        #expect(server.server.statistics.timeouts == 0)
    }

    @Test(arguments: IOBackend.allCases) func deliversLargeResponsesToSlowReaders(io: IOBackend) throws {
        let server = try TestServer(io)
        let client = try server.client()
        var size: Int32 = 65536
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(300_000)  // the server's send buffer fills and it must wait for EPOLLOUT
        let big = try #require(client.readResponse())
        #expect(big.body.count == EchoResponder.bigBody.count)
        #expect(client.readResponse()?.text == "GET /after  1.1")
    }

    @Test(arguments: IOBackend.allCases) func backsOffAPipelineFlood(io: IOBackend) throws {
        let server = try TestServer(io) { $0.maxPendingOutputBytes = 64 * 1024 }
        let client = try server.client()
        // 200 pipelined requests for 4 MiB each: the server must stop reading, not buffer 800 MiB.
        client.send(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 200))
        for _ in 0..<3 {
            #expect(client.readResponse()?.body.count == EchoResponder.bigBody.count)
        }
    }

    @Test(arguments: IOBackend.allCases) func refusesConnectionsOverTheCap(io: IOBackend) throws {
        let server = try TestServer(io) {
            $0.maxConnections = 2
            $0.maxConnectionsPerClient = 0  // the cap itself, not a quarter of it per client
            $0.eventLoops = 1
        }
        let first = try server.client()
        let second = try server.client()
        first.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(first.readResponse()?.status == 200)
        #expect(second.readResponse()?.status == 200)
        let third = try server.client()
        #expect(third.isClosedByPeer())
        #expect(server.server.statistics.refusedConnections == 1)
    }

    /// One client address at its limit is refused more connections; another client is still
    /// served, and a proxy in ``ServerConfiguration/unlimitedClients`` is not counted.
    @Test(arguments: IOBackend.allCases) func limitsConnectionsPerClient(io: IOBackend) throws {
        let server = try TestServer(io) {
            $0.maxConnections = 100
            $0.maxConnectionsPerClient = 2
            $0.unlimitedClients = [ClientAddressRange("127.0.0.3/32")!]
        }
        var held = try (0..<2).map { _ in try RawClient(port: server.port, from: "127.0.0.2") }
        for client in held {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        #expect(try RawClient(port: server.port, from: "127.0.0.2").isClosedByPeer())
        #expect(server.server.statistics.refusedClientConnections == 1)
        let other = try RawClient(port: server.port, from: "127.0.0.1")
        other.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(other.readResponse()?.status == 200)
        let proxy = try (0..<4).map { _ in try RawClient(port: server.port, from: "127.0.0.3") }
        for client in proxy {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        // A connection closed frees its place, once the server has seen it close.
        held.removeLast()
        var served = false
        for _ in 0..<40 where !served {
            let again = try RawClient(port: server.port, from: "127.0.0.2")
            again.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            served = again.readResponse()?.status == 200
            if !served { usleep(50_000) }
        }
        #expect(served)
    }

    @Test(arguments: IOBackend.allCases) func drainsOnShutdown(io: IOBackend) throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 2
        configuration.io = io
        let server = Server(configuration: configuration, responder: EchoResponder())
        let port = try server.start()
        let idle = try RawClient(port: port)
        idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        let reader = try RawClient(port: port)
        var size: Int32 = 65536
        setsockopt(reader.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        reader.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(200_000)
        server.shutdown()
        #expect(idle.isClosedByPeer())
        // The in-flight response is finished, never cut mid-body.
        let big = try #require(reader.readResponse())
        #expect(big.body.count == EchoResponder.bigBody.count)
        #expect(big.header("Connection") == nil)
        server.wait()
        #expect((try? RawClient(port: port)) == nil, "still accepting after shutdown")
    }
}
