import HTTPServer
import HTTPTestSupport
import RingCore
import Testing

@testable import RingService

/// Preconditions at the wire, in the order RFC 9110 §13.2.2 gives.
@Suite struct ConditionalRequestTests {
    private static let ring = "/ring.svg?p=40"
    /// A day before and after the renderer version's date: a ring's `Last-Modified`.
    private static let before = HTTPDate.format(RingRenderer.versionDate - 86_400)
    private static let after = HTTPDate.format(RingRenderer.versionDate + 86_400)

    private func status(_ headers: String, method: String = "GET", target: String = ring) throws -> Int {
        let harness = try ServiceHarness()
        let etag = try #require(try harness.get(Self.ring).header("ETag"))
        return try harness.get(target, method: method, headers: headers.replacing("ETAG", with: etag)).status
    }

    @Test(arguments: [
        // If-Match: strong comparison; `*` or the current tag passes, anything else is 412.
        ("If-Match: ETAG", 200), ("If-Match: *", 200), ("If-Match: \"other\", ETAG", 200),
        ("If-Match: \"other\"", 412), ("If-Match: W/ETAG", 412), ("If-Match: ", 412),
        // If-Unmodified-Since, only without If-Match.
        ("If-Unmodified-Since: \(after)", 200), ("If-Unmodified-Since: \(before)", 412),
        ("If-Unmodified-Since: yesterday", 200), ("If-Match: ETAG\r\nIf-Unmodified-Since: \(before)", 200),
        ("If-Unmodified-Since: Sunday, 06-Nov-94 08:49:37 GMT", 412),
        ("If-Unmodified-Since: Sun Nov  6 08:49:37 1994", 412),
        // If-None-Match, weak comparison: 304.
        ("If-None-Match: ETAG", 304), ("If-None-Match: W/ETAG", 304), ("If-None-Match: \"other\"", 200),
        // If-Modified-Since, only without If-None-Match.
        ("If-Modified-Since: \(after)", 304), ("If-Modified-Since: \(before)", 200),
        ("If-None-Match: \"other\"\r\nIf-Modified-Since: \(after)", 200),
        // If-Match is evaluated first: a false If-Match wins over a matching If-None-Match.
        ("If-Match: \"other\"\r\nIf-None-Match: ETAG", 412), ("If-Match: ETAG\r\nIf-None-Match: ETAG", 304),
    ])
    func ringPreconditions(headers: String, expected: Int) throws {
        #expect(try status(headers + "\r\n") == expected, "\(headers)")
        #expect(try status(headers + "\r\n", method: "HEAD") == expected, "HEAD \(headers)")
    }

    /// The error image has its own tag: a wrong one fails, its own passes.
    @Test func errorImagesHaveValidatorsToo() throws {
        let harness = try ServiceHarness()
        let first = try harness.get("/ring.svg?p=bad")
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"e\(RingRenderer.version)-svg-"))
        #expect(try harness.get("/ring.svg?p=bad", headers: "If-Match: \(etag)\r\n").status == 200)
        #expect(try harness.get("/ring.svg?p=bad", headers: "If-Match: \"r1\"\r\n").status == 412)
        #expect(try harness.get("/ring.svg?p=bad", headers: "If-None-Match: \(etag)\r\n").status == 304)
    }

    /// Routes without validators: `*` matches their representation, a tag or a date cannot.
    @Test(arguments: ["/healthz", "/metrics", "/"])
    func routesWithoutValidators(path: String) throws {
        #expect(try status("If-Match: *\r\n", target: path) == 200)
        #expect(try status("If-Match: \"x\"\r\n", target: path) == 412)
        #expect(try status("If-None-Match: *\r\n", target: path) == 304)
        #expect(try status("If-Modified-Since: \(Self.after)\r\n", target: path) == 200)
    }

    /// The 412 is final and the connection stays usable.
    @Test func aFailedPreconditionKeepsTheConnection() throws {
        let harness = try ServiceHarness()
        let client = try RawClient(port: harness.port)
        client.send("GET \(Self.ring) HTTP/1.1\r\nHost: x\r\nIf-Match: \"no\"\r\n\r\n")
        let failed = try #require(client.readResponse())
        #expect(failed.status == 412)
        #expect(failed.header("ETag") == nil)
        client.send("GET \(Self.ring) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
    }
}
