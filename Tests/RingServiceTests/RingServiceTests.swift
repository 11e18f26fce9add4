import Dispatch
import Foundation
import HTTPServer
import HTTPTestSupport
import Primitives
import RingCore
import RingRaster
import Synchronization
import Testing

@testable import RingService

/// A ring service on a loopback port.
final class ServiceHarness {
    let server: Server
    let service: RingService
    let port: Int

    init(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        var configuration = ServiceConfiguration()
        configuration.eventLoops = 2
        configure(&configuration)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = "127.0.0.1"
        serverConfiguration.port = 0
        serverConfiguration.eventLoops = 2
        let statistics = ServerStatistics()
        service = RingService(
            configuration: configuration, accessLog: try AccessLog(.off), serverStatistics: statistics)
        server = Server(configuration: serverConfiguration, responder: service, statistics: statistics)
        port = try server.start()
    }

    func get(_ target: String, method: String = "GET", headers: String = "") throws -> RawClient.Response {
        let client = try RawClient(port: port)
        client.send("\(method) \(target) HTTP/1.1\r\nHost: rings.test\r\n\(headers)\r\n")
        return try #require(client.readResponse(head: method == "HEAD"))
    }

    deinit {
        server.shutdown()
        server.wait()
    }
}

/// The service without a server: each request is built from its head with
/// `HTTPRequest(parsing:)` and answered in process. Routing, caching, headers and errors are
/// tested this way; what needs a connection (framing, HEAD, `Date`, limits) through sockets.
final class InProcessService {
    let service: RingService

    /// An answer as the service gives it, before the server adds framing and `Date`.
    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    init(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        var configuration = ServiceConfiguration()
        // No event loop gives spare turns here, and none renders a small ring at once: every
        // render past the inline estimate is a render thread's, unless a test says otherwise.
        configuration.spareRenderMicroseconds = 0
        configure(&configuration)
        service = RingService(
            configuration: configuration, accessLog: try AccessLog(.off), serverStatistics: ServerStatistics())
    }

    /// The answer to `target`, as the server would get it: now, or through the reply once a
    /// render thread is done (waited for up to 30 s).
    func get(_ target: String, method: String = "GET", headers: String = "") throws -> Answer {
        let request = try HTTPRequest(parsing: "\(method) \(target) HTTP/1.1\r\nHost: rings.test\r\n\(headers)\r\n")
        let later = Later()
        let reply = HTTPReply.calling { later.set($0) }
        guard let response = service.respond(to: request, reply: reply) ?? later.wait() else {
            throw DeferredAnswerMissing()
        }
        return Self.answer(response)
    }

    struct DeferredAnswerMissing: Error {}

    /// Asks for `target` without waiting: the answer is in the result, now or once it comes.
    func ask(_ target: String) throws -> Later {
        let request = try HTTPRequest(parsing: "GET \(target) HTTP/1.1\r\nHost: rings.test\r\n\r\n")
        let later = Later()
        if let now = service.respond(to: request, reply: HTTPReply.calling { later.set($0) }) { later.set(now) }
        return later
    }

    /// A response that a render thread hands over.
    final class Later: Sendable {
        private let response = Locked<HTTPResponse?>(nil)
        private let done = DispatchSemaphore(value: 0)

        func set(_ value: HTTPResponse) {
            response.withLock { $0 = value }
            done.signal()
        }

        func wait() -> HTTPResponse? {
            guard done.wait(timeout: .now() + 30) == .success else { return nil }
            return response.withLock { $0 }
        }
    }

    static func answer(_ response: HTTPResponse) -> Answer {
        let lines = String(decoding: response.sharedHeaders.bytes + response.headers.bytes, as: UTF8.self)
        let fields = lines.split(separator: "\r\n").map { line -> (String, String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...].dropFirst()))
        }
        return Answer(status: response.status.code, headers: fields, body: response.body)
    }
}

@Suite struct RingServiceTests {
    @Test func servesARingWithItsHeaders() throws {
        let harness = try InProcessService()
        let response = try harness.get("/ring.svg?p=72&slice=0.45")
        #expect(response.status == 200)
        #expect(response.body == RingRenderer.render(try RingSpec(query: "p=72&slice=0.45")))
        #expect(response.header("Content-Type") == "image/svg+xml; charset=utf-8")
        let digest = try RingSpec(query: "p=72&slice=0.45").digest
        #expect(response.header("ETag") == "\"r\(RingRenderer.version)-svg-\(digest)\"")
        #expect(
            response.header("Cache-Control")
                == "public, max-age=86400, stale-while-revalidate=86400, stale-if-error=604800")
        #expect(response.header("Last-Modified") == HTTPDate.format(RingRenderer.versionDate))
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Cross-Origin-Resource-Policy") == "cross-origin")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'")
        #expect(response.header("X-Ring-Error") == nil)
    }

    @Test func cacheLifetimesAreConfigurable() throws {
        let harness = try InProcessService {
            $0.maxAge = 600
            $0.staleWhileRevalidate = 30
            $0.staleIfError = 0
        }
        #expect(
            try harness.get("/ring.svg?p=1").header("Cache-Control")
                == "public, max-age=600, stale-while-revalidate=30, stale-if-error=0")
    }

    @Test func equivalentQueriesShareTheETag() throws {
        let harness = try InProcessService()
        let first = try harness.get("/ring.svg?p=72&color=ff0000")
        let second = try harness.get("/ring.svg?color=%23FF0000&p=72.0&v=2")
        #expect(first.header("ETag") == second.header("ETag"))
        #expect(first.body == second.body)
    }

    @Test(arguments: ["*", "W/\"nope\", ETAG", "\"nope\",ETAG", "W/ETAG"])
    func answersIfNoneMatchWith304(condition: String) throws {
        let harness = try InProcessService()
        let etag = try #require(try harness.get("/ring.svg?p=40").header("ETag"))
        let response = try harness.get(
            "/ring.svg?p=40", headers: "If-None-Match: \(condition.replacing("ETAG", with: etag))\r\n")
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.header("ETag") == etag)
        #expect(response.header("Cache-Control") != nil)
    }

    @Test func mismatchedIfNoneMatchGetsTheRing() throws {
        let harness = try InProcessService()
        let response = try harness.get(
            "/ring.svg?p=40",
            headers: "If-None-Match: \"r\(RingRenderer.version)-svg-00000000000000000000000000000000\"\r\n")
        #expect(response.status == 200)
    }

    @Test func headMatchesGet() throws {
        let harness = try ServiceHarness()
        let get = try harness.get("/ring.svg?p=10")
        let head = try harness.get("/ring.svg?p=10", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(head.header("ETag") == get.header("ETag"))
    }

    @Test func invalidQueriesGetAnErrorImage() throws {
        let harness = try InProcessService()
        let response = try harness.get("/ring.svg?p=1&size=100000")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/svg+xml; charset=utf-8")
        #expect(response.header("X-Ring-Error") == "size: \"100000\" is out of range 16...1024")
        #expect(response.header("Cache-Control") == "public, max-age=60")
        #expect(response.body == ErrorImage.render(message: "size: \"100000\" is out of range 16…1024"))
        #expect(try harness.get("/ring.svg").header("X-Ring-Error") == "p: is required")
    }

    @Test func hostileQueriesNeverReachTheHeaders() throws {
        let harness = try ServiceHarness()
        let response = try harness.get("/ring.svg?p=%0D%0AX-Evil:%201")
        #expect(response.header("X-Evil") == nil)
        #expect(response.header("X-Ring-Error")?.contains("\\u{d}") == true)
        let name = try harness.get("/ring.svg?p=1&%0D%0AX-Evil:%201=2")
        #expect(name.header("X-Evil") == nil)
        #expect(name.header("X-Ring-Error") == #""\u{d}\u{a}X-Evil: 1": is not a parameter"#)
    }

    /// A misspelt parameter gets the error image that names it and the one meant, in both
    /// formats, instead of a ring drawn with the default it did not mean.
    @Test func unknownParametersGetAnErrorImageWithASuggestion() throws {
        let harness = try InProcessService()
        let message = "colour: is not a parameter; did you mean color?"
        let svg = try harness.get("/ring.svg?p=72&colour=red")
        #expect(svg.header("X-Ring-Error") == message)
        #expect(svg.body == ErrorImage.render(message: message))
        let png = try harness.get("/ring.png?p=72&colour=red&size=64")
        #expect(png.header("X-Ring-Error") == message)
        #expect(png.header("Content-Type") == "image/png")
        let busted = try harness.get("/ring.svg?p=72&v=3")
        #expect(busted.header("X-Ring-Error") == nil)
        #expect(busted.header("ETag") == (try harness.get("/ring.svg?p=72")).header("ETag"))
    }

    @Test func limitsTheQueryLength() throws {
        let harness = try InProcessService { $0.maxQueryBytes = 64 }
        let response = try harness.get("/ring.svg?p=1&v=" + String(repeating: "a", count: 80))
        #expect(response.header("X-Ring-Error") == "query: longer than 64 bytes")
    }

    @Test func routes() throws {
        let harness = try InProcessService()
        #expect(try harness.get("/healthz").status == 200)
        #expect(try harness.get("/healthz").text == "ok\n")
        #expect(try harness.get("/").header("Content-Type") == "text/html; charset=utf-8")
        #expect(try harness.get("/ring.svg/../etc/passwd").status == 404)
        #expect(try harness.get("/ring.gif?p=1").status == 404)
        #expect(try harness.get("/ring.png?p=1").header("Content-Type") == "image/png")
    }

    /// Varnish keeps a 404 without `Cache-Control` for its default TTL: say how long.
    @Test func notFoundAndMethodNotAllowedSayHowLongToCache() throws {
        let harness = try InProcessService { $0.errorMaxAge = 45 }
        let missing = try harness.get("/nope")
        #expect(missing.status == 404)
        #expect(missing.header("Cache-Control") == "public, max-age=45")
        #expect(missing.text.hasPrefix("not found: the routes are /ring.svg?QUERY, /ring.png?QUERY, /ring.json?QUERY"))
        for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"] {
            let response = try harness.get("/ring.svg?p=1", method: method)
            #expect(response.status == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD")
            #expect(response.header("Cache-Control") == "public, max-age=45")
        }
    }

    /// The server answers what it does not implement for any resource, whatever the path.
    @Test(arguments: ["CONNECT rings.test:443", "PROPFIND /ring.svg", "BREW /"])
    func unimplementedMethodsGet501(line: String) throws {
        let harness = try ServiceHarness()
        let client = try RawClient(port: harness.port)
        client.send("\(line) HTTP/1.1\r\nHost: rings.test\r\n\r\n")
        #expect(try #require(client.readResponse()).status == 501)
    }

    /// The playground's controls come from the parameter table: one per parameter, and each
    /// colour field's swatch defaults are the colours the ring draws in each scheme.
    @Test func playgroundHasAControlForEveryParameter() throws {
        let fields = PlaygroundFields.javaScript
        for definition in RingParameter.Definition.all {
            #expect(fields.contains("{name: \"\(definition.name)\","), "\(definition.name) has no control")
        }
        #expect(fields.contains("{name: \"color\", label: \"Bar colour\""))
        #expect(fields.contains("light: \"#2f81f7\", dark: \"#2f81f7\""))
        #expect(fields.contains("light: \"#e1e4e8\", dark: \"#30363d\""))
        let page = try InProcessService().get("/").text
        #expect(page.contains(fields))
    }

    /// Each preset is a ring of the catalogue the golden tests render, and a valid one.
    @Test func playgroundPresetsAreCatalogueRings() throws {
        #expect(
            PlaygroundFields.presets.count == PlaygroundFields.presetNames.count, "a preset names no catalogue ring")
        for preset in PlaygroundFields.presets {
            #expect(throws: Never.self, "\(preset.title)") { try RingSpec(query: preset.query) }
            #expect(PlaygroundFields.javaScript.contains("{title: \"\(preset.title)\", query: \""))
        }
    }

    /// The page's parameter reference has one row per parameter of the table, its text
    /// escaped: a summary such as title's "<title> and aria-label" must not become markup.
    @Test func playgroundReferenceListsEveryParameter() throws {
        let page = try InProcessService().get("/").text
        let rows = page.components(separatedBy: "<tr id=\"r-").count - 1
        #expect(rows == RingParameter.Definition.all.count)
        for definition in RingParameter.Definition.all {
            #expect(page.contains("<tr id=\"r-\(definition.name)\"><td><code>\(definition.name)</code></td>"))
        }
        #expect(page.contains("&lt;title&gt; and aria-label"))
        #expect(!page.contains("(<title> and aria-label)"))
    }

    /// The page's policy allows exactly its own inline script and style, by digest.
    @Test func playgroundPolicyHashesItsInlineCode() throws {
        let harness = try InProcessService()
        let response = try harness.get("/?p=72")
        #expect(response.status == 200)
        let page = response.text
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.hasPrefix("default-src 'none'; "))
        #expect(!policy.contains("unsafe"))
        for (open, close, directive) in [("<script>", "</script>", "script-src"), ("<style>", "</style>", "style-src")]
        {
            let start = try #require(page.range(of: open)).upperBound
            let end = try #require(page.range(of: close, range: start..<page.endIndex)).lowerBound
            let digest = PlaygroundPage.digest(String(page[start..<end]))
            #expect(policy.contains("\(directive) '\(digest)'"), "\(directive) does not allow the page's own code")
        }
        #expect(page.components(separatedBy: "<script").count == 2, "exactly one script element")
        // Nothing loaded from elsewhere (the text may show an example URL, as src's does).
        for reference in ["src=\"http", "href=\"http", "url(http", "srcset=\"http", "action=\"http"] {
            #expect(!page.contains(reference), "\(reference)")
        }
    }

    /// A flood of distinct invalid URLs, each its own error image, leaves a working set of
    /// stored rings in the cache: at least 90 % of its requests are still hits.
    @Test func anErrorFloodKeepsTheWorkingSet() throws {
        let harness = try InProcessService { $0.cacheBytes = 1 << 20 }
        let workingSet = (0..<60).map { "/ring.png?p=\($0).5&size=60" }
        for target in workingSet { _ = try harness.get(target) }
        // About 2.5 MB of error images, past the whole cache.
        let flood = try (0..<1000).map { try harness.get("/ring.svg?p=x\($0)") }
        #expect(flood.allSatisfy { $0.status == 200 && $0.header("X-Ring-Error") != nil })
        #expect(harness.service.cache.statistics.errorImageBytes > 0)
        let hitsBefore = harness.service.cache.statistics.hits
        for target in workingSet { #expect(try harness.get(target).status == 200) }
        let hits = harness.service.cache.statistics.hits - hitsBefore
        #expect(hits * 10 >= workingSet.count * 9, "\(hits) of \(workingSet.count) were hits")
    }

    /// A new SVG is stored the second time its URL is asked for: the first answer is rendered
    /// and dropped, the second rendered again and stored with its text, and from then on the
    /// URL is found by its text. Another spelling of the same ring is a new URL: rendered and
    /// dropped the first time (not looked for by digest), found by digest the second, and by
    /// its own text from then on.
    @Test func storesANewRingWhenAskedForAgain() throws {
        let harness = try InProcessService()
        _ = try harness.get("/ring.svg?p=33")
        #expect(harness.service.cache.statistics.entries == 0)
        #expect(harness.service.cache.statistics.unstored == 1)
        _ = try harness.get("/ring.svg?p=33")
        #expect(harness.service.cache.statistics.entries == 1)
        _ = try harness.get("/ring.svg?p=33")
        #expect(harness.service.cache.statistics.hits == 1)
        _ = try harness.get("/ring.svg?p=33.0")
        #expect(harness.service.cache.statistics.hits == 1)
        #expect(harness.service.cache.statistics.unstored == 2)
        _ = try harness.get("/ring.svg?p=33.0")
        _ = try harness.get("/ring.svg?p=33.0")
        let statistics = harness.service.cache.statistics
        #expect(statistics.hits == 3)
        #expect(statistics.misses == 1)
        #expect(statistics.unstored == 2)
        #expect(statistics.entries == 1)
        #expect(try harness.get("/metrics").text.contains("ring_render_seconds_count{format=\"svg\"} 3\n"))
    }

    /// The answer made without an entry (first request) is the one the stored entry gives
    /// (second request) and the cache gives (third): same status, header lines and body. A
    /// first request with a precondition is answered as a stored ring would be.
    @Test func anUnstoredAnswerIsTheStoredOne() throws {
        let harness = try InProcessService()
        let answers = try (0..<3).map { _ in try harness.get("/ring.svg?p=41&label=x") }
        #expect(harness.service.cache.statistics.hits == 1)
        for answer in answers.dropFirst() {
            #expect(answer.status == answers[0].status)
            #expect(answer.headers.map { "\($0.0): \($0.1)" } == answers[0].headers.map { "\($0.0): \($0.1)" })
            #expect(answer.body == answers[0].body)
        }
        let etag = try #require(answers[0].header("ETag"))
        let fresh = try InProcessService()
        #expect(try fresh.get("/ring.svg?p=41&label=x", headers: "If-None-Match: \(etag)\r\n").status == 304)
        #expect(try fresh.get("/ring.svg?p=41&label=x", headers: "If-Match: \"other\"\r\n").status == 412)
        #expect(fresh.service.cache.statistics.entries == 1)
    }

    /// With `--cache-admission first`, one render: the repeated URL and another spelling of the
    /// same ring are both found by the ring's digest, and each is then remembered by its text.
    @Test func cachesByQueryAndByHash() throws {
        let harness = try InProcessService { $0.cacheAdmission = .first }
        _ = try harness.get("/ring.svg?p=33")
        _ = try harness.get("/ring.svg?p=33")
        _ = try harness.get("/ring.svg?p=33.0")
        _ = try harness.get("/ring.svg?p=33.0")
        let statistics = harness.service.cache.statistics
        #expect(statistics.hits == 3)
        #expect(statistics.misses == 1)
        #expect(statistics.unstored == 0)
        #expect(statistics.entries == 1)
        #expect(try harness.get("/metrics").text.contains("ring_render_seconds_count{format=\"svg\"} 1\n"))
    }

    /// Costly rings are stored the first time whatever the admission: a PNG, and an SVG past the
    /// inline budget (here every ring, with a budget of 0 µs).
    @Test func storesCostlyRingsAtOnce() throws {
        let harness = try InProcessService()
        _ = try harness.get("/ring.png?p=33")
        #expect(harness.service.cache.statistics.entries == 1)
        let costly = try InProcessService { $0.inlineRenderMicroseconds = 0 }
        _ = try costly.get("/ring.svg?p=33")
        #expect(costly.service.cache.statistics.entries == 1)
        #expect(costly.service.cache.statistics.unstored == 0)
    }

    @Test func exposesPrometheusMetrics() throws {
        let harness = try ServiceHarness()
        _ = try harness.get("/ring.svg?p=5")
        _ = try harness.get("/ring.svg?p=5")
        _ = try harness.get("/ring.svg?p=bad")
        _ = try harness.get("/ring.svg?p=bad")  // an error image from the cache is counted too
        _ = try harness.get("/ring.png?p=5")
        _ = try harness.get("/ring.png?p=5&size=4")
        _ = try harness.get("/ring.json?p=5")
        _ = try harness.get("/ring.json?p=x")
        _ = try harness.get("/missing")
        let response = try harness.get("/metrics")
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = response.text
        for (labels, count) in [
            (#"route="ring",format="svg",status="200""#, 4), (#"route="ring",format="png",status="200""#, 2),
            (#"route="json",format="json",status="200""#, 1), (#"route="json",format="json",status="400""#, 1),
            (#"route="not_found",format="text",status="404""#, 1),
        ] {
            #expect(text.contains("ring_http_requests_total{\(labels)} \(count)\n"), "\(labels)")
        }
        #expect(text.contains("ring_render_errors_total{format=\"svg\"} 2\n"))
        #expect(text.contains("ring_render_errors_total{format=\"png\"} 1\n"))
        // p=5 is stored when asked for again, so only the error image's second request is a hit.
        #expect(text.contains("ring_cache_hits_total 1\n"))
        #expect(text.contains("ring_cache_unstored_total 1\n"))
        #expect(text.contains("ring_render_seconds_count{format=\"svg\"} 2\n"))
        #expect(text.contains("ring_render_seconds_count{format=\"png\"} 1\n"))
        #expect(text.contains("ring_render_seconds_bucket{format=\"png\",le=\"+Inf\"} 1\n"))
        let build = "ring_build_info{version=\"\(RingService.version)\",svg_renderer=\"\(RingRenderer.version)\","
        #expect(text.contains(build + "png_renderer=\"\(RingRasterizer.version)\"} 1\n"))
        let start = text.split(separator: "\n").first { $0.hasPrefix("process_start_time_seconds ") }
        let started = try #require(start.flatMap { Double($0.split(separator: " ")[1]) })
        #expect(abs(started - Date().timeIntervalSince1970) < 600)
        // The metrics request's own connection is open; earlier ones may still be closing.
        let open = text.split(separator: "\n").first { $0.hasPrefix("ring_open_connections ") }
        let openCount = open.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect((1...5).contains(openCount))
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            #expect(parts.count == 2 && Double(parts[1]) != nil, "bad sample line \(line)")
        }
    }
}
