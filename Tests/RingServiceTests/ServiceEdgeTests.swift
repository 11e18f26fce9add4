import HTTPServer
import HTTPTestSupport
import RingCore
import Testing

@testable import RingService

/// The edges real clients and caches hit, through the whole service.
@Suite struct ServiceEdgeTests {
    /// aiohttp sends `Expect: 100-continue` on a POST and waits: the 405 comes at once.
    @Test func expectContinueGetsTheFinalStatusAtOnce() throws {
        let harness = try ServiceHarness()
        let client = try RawClient(port: harness.port, timeout: 2)
        client.send("POST /ring.svg?p=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 405)
        #expect(response.header("Connection") == "close")
    }

    @Test(arguments: ["/%72ing.svg?p=72", "/ring%2Esvg?p=72", "/ring%2esvg?p=72"])
    func percentEncodedPathsRouteToTheRing(target: String) throws {
        let harness = try ServiceHarness()
        let response = try harness.get(target)
        #expect(response.status == 200)
        #expect(response.body == RingRenderer.render(RingSpec(value: 72)))
    }

    /// The query is never normalised: `%70` is `p` only to the query parser, which decodes it.
    @Test func theQueryIsLeftToTheQueryParser() throws {
        let harness = try ServiceHarness()
        #expect(try harness.get("/ring.svg?%70=72").body == RingRenderer.render(RingSpec(value: 72)))
    }

    /// Over a real connection: 404 and 405 say how long to keep them, and TRACE is a 405.
    @Test func notFoundAndMethodNotAllowedCarryCacheControlAtTheWire() throws {
        let harness = try ServiceHarness()
        let missing = try harness.get("/nope")
        #expect(missing.status == 404)
        #expect(missing.header("Cache-Control") == "public, max-age=60")
        for method in ["TRACE", "POST", "OPTIONS"] {
            let refused = try harness.get("/ring.svg?p=1", method: method)
            #expect(refused.status == 405, "\(method)")
            #expect(refused.header("Allow") == "GET, HEAD")
            #expect(refused.header("Cache-Control") == "public, max-age=60")
        }
    }

    @Test func noProxyRevalidateButStaleWindows() throws {
        let harness = try ServiceHarness()
        let control = try #require(try harness.get("/ring.svg?p=9").header("Cache-Control"))
        #expect(!control.contains("s-maxage"))
        #expect(!control.contains("proxy-revalidate"))
        #expect(control.contains("stale-while-revalidate="))
        #expect(control.contains("stale-if-error="))
    }
}
