import Dispatch
import Foundation
import HTTPServer
import RingCore
import Testing

@testable import RingService

/// Live values (`src=`, `field=`, `maxField=`) against the tests' own document server on
/// loopback, with the development flags (`--source-allow-http`, and `--source-allow-private`
/// where a test does not check the address rules).
@Suite struct LiveValuesTests {
    /// The values a ring of min 0 and max 100 may take, as errors state them.
    static let defaultScale = "-1000000000…1000000000 (a percentage within ±1e9 of min 0 to max 100)"
    /// A service that may read from the test server, and the server.
    static func live(
        _ configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> (InProcessService, JSONTestServer) {
        let documents = try JSONTestServer()
        let service = try InProcessService { configuration in
            configuration.sources.allowedHosts = ["127.0.0.1", "localhost"]
            configuration.sources.allowHTTP = true
            configuration.sources.allowPrivate = true
            configuration.sources.timeout = 2
            // Many sources a test; the rate limit has a test of its own.
            configuration.sources.fetchesPerSecond = 1000
            configure(&configuration)
        }
        return (service, documents)
    }

    /// `src=URL` percent-encoded, as a page would write it.
    static func src(_ url: String) -> String {
        "src=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
    }

    @Test func aRingDrawsTheDocumentsValue() throws {
        let (service, documents) = try Self.live()
        documents.answer("/coverage.json", .body(#"{"coverage": 72.4, "totals": {"lines": {"pct": 55}}}"#))
        let answer = try service.get("/ring.svg?\(Self.src(documents.url("/coverage.json")))&field=coverage&slice=0.45")
        let written = try service.get("/ring.svg?p=72.4&slice=0.45")
        #expect(answer.status == 200 && answer.header("X-Ring-Error") == nil)
        // The same ring as written with p: the same bytes and ETag.
        #expect(answer.body == written.body)
        #expect(answer.header("ETag") == written.header("ETag"))
        #expect(answer.header("X-Ring-Source") == "fresh")
        #expect(answer.header("Cache-Control") == "public, max-age=300, stale-if-error=86400")
        #expect(answer.header("Content-Type") == "image/svg+xml; charset=utf-8")
        // A nested path.
        let nested = try service.get("/ring.svg?\(Self.src(documents.url("/coverage.json")))&field=totals.lines.pct")
        #expect(nested.header("ETag") == (try service.get("/ring.svg?p=55")).header("ETag"))
        #expect(documents.count("/coverage.json") == 1, "one fetch for both rings of one document")
    }

    @Test func aPathPerRingAndAMaxFromTheDocument() throws {
        let (service, documents) = try Self.live()
        documents.answer(
            "/activity.json",
            .body(#"{"data": [{"value": 420, "goal": 500}, {"value": 24, "goal": 30}], "stand": 10, "total": 12}"#))
        let url = Self.src(documents.url("/activity.json"))
        let rings = try service.get(
            "/ring.svg?\(url)&field=data[0].value,data[1].value,stand&maxField=data[0].goal,data[1].goal,total")
        #expect(rings.header("ETag") == (try service.get("/ring.svg?p=420,24,10&max=500,30,12")).header("ETag"))
        let one = try service.get("/ring.svg?\(url)&field=stand&maxField=total")
        #expect(one.header("ETag") == (try service.get("/ring.svg?p=10&max=12")).header("ETag"))
        let png = try service.get("/ring.png?\(url)&field=stand&maxField=total&scale=2")
        #expect(png.header("ETag") == (try service.get("/ring.png?p=10&max=12&scale=2")).header("ETag"))
        #expect(png.header("Content-Type") == "image/png")
    }

    /// A live stack reads a field per part: the ring written with `p` of the same parts, in
    /// SVG and PNG; a part below 0 in the document is an error image naming its field.
    @Test func aLiveStackReadsAFieldPerPart() throws {
        let (service, documents) = try Self.live()
        documents.answer("/tests.json", .body(#"{"passed": 120, "failed": 12, "skipped": 5, "broken": -1}"#))
        let url = Self.src(documents.url("/tests.json"))
        for format in ["svg", "png"] {
            let stack = try service.get("/ring.\(format)?\(url)&field=passed,failed,skipped&stack&max=sum")
            let written = try service.get("/ring.\(format)?p=120,12,5&stack&max=sum")
            #expect(stack.status == 200 && stack.header("X-Ring-Error") == nil, "\(format)")
            #expect(stack.header("ETag") == written.header("ETag") && stack.body == written.body, "\(format)")
        }
        let broken = try service.get("/ring.svg?\(url)&field=passed,broken&stack&max=sum")
        #expect(broken.header("X-Ring-Error")?.hasPrefix("field: broken is -1 in the document") == true)
        #expect(documents.count("/tests.json") == 1, "one fetch for every ring of one document")
    }

    @Test func ringJSONShowsTheFetchedValues() throws {
        let (service, documents) = try Self.live()
        documents.answer("/c.json", .body(#"{"coverage": 72.4}"#))
        let url = documents.url("/c.json")
        let answer = try service.get("/ring.json?\(Self.src(url))&field=coverage")
        #expect(answer.status == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        let rings = try #require(body["rings"] as? [[String: Any]])
        #expect(rings.first?["value"] as? Double == 72.4 && rings.first?["percentageText"] as? String == "72%")
        let source = try #require(body["source"] as? [String: Any])
        #expect(source["url"] as? String == url && source["state"] as? String == "fresh")
        let svg = try #require(body["svg"] as? [String: Any])
        #expect(svg["etag"] as? String == (try service.get("/ring.svg?p=72.4")).header("ETag"))
        let missing = try service.get("/ring.json?\(Self.src(url))&field=nope")
        #expect(missing.status == 502 && missing.text.contains("field: nope is not in the document"))
    }

    /// Every way a document can fail to give a ring, each named in the error image.
    @Test func failuresAreNamedInTheErrorImage() throws {
        let (service, documents) = try Self.live { $0.sources.maxBytes = 1024 }
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        let cases: [(String, JSONTestServer.Answer, String, String)] = [
            ("/status", .body("{}", status: 500), "a", "src: the document answered HTTP 500"),
            ("/html", .body("<html>"), "a", "src: the document is not JSON: an unexpected character at byte 0"),
            ("/trailing", .body(#"{"a": 1,}"#), "a", "src: the document is not JSON: a member name expected at byte 8"),
            ("/deep", .body(deep), "a", "src: the document is not JSON: nested deeper than 32 at byte 32"),
            ("/missing", .body(#"{"b": 1}"#), "a", "field: a is not in the document"),
            ("/string", .body(#"{"a": "much"}"#), "a", "field: a is \"much\", not a number such as 72 or -0.5"),
            ("/null", .body(#"{"a": null}"#), "a", "field: a is null, not a number"),
            // A JSON number is shown as written, a string's text quoted.
            ("/huge", .body(#"{"a": 1e400}"#), "a", "field: a is 1e400, out of range \(Self.defaultScale)"),
            (
                "/big", .body(#"{"a": 10000000000000}"#), "a",
                "field: a is 10000000000000, out of range \(Self.defaultScale)"
            ),
            ("/index", .body(#"{"a": [1]}"#), "a[1]", "field: a[1] is not in the document"),
            (
                "/large", .body("{\"a\": 1, \"pad\": \"" + String(repeating: "x", count: 2000) + "\"}"), "a",
                "src: the document is larger than 1024 bytes (--source-max-bytes)"
            ),
            (
                "/streamed", .trickle(["{\"pad\": \"", String(repeating: "x", count: 2000), "\"}"], interval: 0.01),
                "pad",
                "src: the document is larger than 1024 bytes (--source-max-bytes)"
            ),
        ]
        for (path, answer, field, message) in cases {
            documents.answer(path, answer)
            let image = try service.get("/ring.svg?\(Self.src(documents.url(path)))&field=\(field)")
            #expect(image.status == 200 && image.header("Content-Type") == "image/svg+xml; charset=utf-8", "\(path)")
            #expect(image.header("X-Ring-Error") == RingService.headerSafe(message), "\(path)")
            #expect(image.header("Cache-Control") == "public, max-age=60", "\(path)")
        }
        let fetches = service.service.metrics
        #expect(fetches.sourceFetches("status") == 1 && fetches.sourceFetches("not_json") == 3)
        #expect(fetches.sourceFetches("too_large") == 2 && fetches.sourceFetches("ok") == 6)
        // A max read from the document is named by its field, with the document's own text.
        documents.answer("/negative", .body(#"{"a": 3, "neg": -5, "text": "1e400"}"#))
        let url = Self.src(documents.url("/negative"))
        for (query, message) in [
            ("field=a&maxField=neg", "maxField: neg is -5 in the document, not greater than min (0)"),
            ("field=text", "field: text is \"1e400\", not a number such as 72 or -0.5"),
        ] {
            let image = try service.get("/ring.svg?\(url)&\(query)")
            #expect(image.header("X-Ring-Error") == RingService.headerSafe(message), "\(query)")
        }
    }

    @Test func aSlowDocumentTimesOut() throws {
        let (service, documents) = try Self.live { $0.sources.timeout = 1 }
        documents.answer("/slow", .trickle(["{\"a\":", " 1", " ", " ", " ", "}"], interval: 0.4))
        let image = try service.get("/ring.svg?\(Self.src(documents.url("/slow")))&field=a")
        #expect(image.header("X-Ring-Error") == "src: timed out after 1 s (--source-timeout)")
        documents.answer("/late", .body(#"{"a": 1}"#, delay: 1.5))
        let late = try service.get("/ring.svg?\(Self.src(documents.url("/late")))&field=a")
        #expect(late.header("X-Ring-Error") == "src: timed out after 1 s (--source-timeout)")
        #expect(service.service.metrics.sourceFetches("timeout") == 2)
    }

    @Test func offByDefaultAndOnlyForAllowedHostsOverHTTPS() throws {
        let off = try InProcessService()
        let disabled = try off.get("/ring.svg?src=https://example.com/c.json&field=a")
        #expect(
            disabled.header("X-Ring-Error")
                == "src: live values are disabled on this server (ring serve --source-allow HOSTS)")
        let (service, documents) = try Self.live { $0.sources.allowHTTP = false }
        let http = try service.get("/ring.svg?\(Self.src(documents.url("/c.json")))&field=a")
        #expect(http.header("X-Ring-Error")?.hasPrefix("src: only https sources are fetched") == true)
        let other = try service.get("/ring.svg?src=https://evil.example/c.json&field=a")
        #expect(
            other.header("X-Ring-Error")
                == "src: evil.example is not an allowed source host on this server (--source-allow)")
        #expect(documents.count("/c.json") == 0)
    }

    @Test func hostPatternsMatchNamesAndSuffixes() {
        var policy = SourcePolicy()
        policy.allowedHosts = ["status.example.com", "*.pages.example"]
        #expect(policy.allows(host: "status.example.com") && !policy.allows(host: "example.com"))
        #expect(policy.allows(host: "a.pages.example") && policy.allows(host: "b.c.pages.example"))
        #expect(!policy.allows(host: "pages.example") && !policy.allows(host: "evilpages.example"))
        #expect(SourcePolicy.hostPattern("*.Example.com") == "*.example.com")
        #expect(SourcePolicy.hostPattern("[::1]") == "::1")
        for bad in ["", "*", "a..b", "*.*.x", "exa_mple.com", "a/b", ".x"] {
            #expect(SourcePolicy.hostPattern(bad) == nil)
        }
    }

    /// A name that resolves to loopback is refused without --source-allow-private, and
    /// nothing is fetched.
    @Test func aNameResolvingToLoopbackIsRefused() throws {
        let (service, documents) = try Self.live { $0.sources.allowPrivate = false }
        documents.answer("/c.json", .body(#"{"a": 1}"#))
        let image = try service.get("/ring.svg?\(Self.src(documents.url("/c.json", host: "localhost")))&field=a")
        let error = try #require(image.header("X-Ring-Error"))
        #expect(
            error.hasPrefix("src: localhost resolves to ")
                && error.hasSuffix(", a loopback address (allowed with --source-allow-private)"), "\(error)")
        #expect(documents.count("/c.json") == 0)
        #expect(service.service.metrics.sourceFetches("refused") == 1)
    }

    /// Redirects are checked hop by hop: to the metadata address, a private network and IPv6
    /// loopback, each refused though the host is allowed; and no more than the limit.
    @Test func redirectsAreCheckedAtEveryHop() throws {
        let documents = try JSONTestServer()
        let service = try InProcessService { configuration in
            configuration.sources.allowedHosts = ["127.0.0.1", "169.254.169.254", "10.0.0.1", "::1"]
            configuration.sources.allowHTTP = true
            configuration.sources.timeout = 2
            configuration.sourceExemptEndpoints = ["127.0.0.1:\(documents.port)"]
        }
        for (path, target, reason) in [
            ("/metadata", "http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
            ("/private", "http://10.0.0.1/c.json", "10.0.0.1 is a private address"),
            ("/ipv6", "http://[::1]:\(documents.port)/c.json", "::1 is a loopback address"),
        ] {
            documents.answer(path, .redirect(target))
            let image = try service.get("/ring.svg?\(Self.src(documents.url(path)))&field=a")
            let error = try #require(image.header("X-Ring-Error"), "\(path)")
            #expect(
                error.contains("a redirect to") && error.hasSuffix(reason + " (allowed with --source-allow-private)"),
                "\(error)")
        }
        #expect(documents.count("/c.json") == 0)
        // Within the limit a redirect is followed; past it, refused.
        documents.answer("/final", .body(#"{"a": 7}"#))
        documents.answer("/hop1", .redirect(documents.url("/final")))
        documents.answer("/hop2", .redirect(documents.url("/hop1")))
        documents.answer("/hop3", .redirect(documents.url("/hop2")))
        documents.answer("/hop4", .redirect(documents.url("/hop3")))
        let followed = try service.get("/ring.svg?\(Self.src(documents.url("/hop3")))&field=a")
        #expect(followed.header("ETag") == (try service.get("/ring.svg?p=7")).header("ETag"))
        let tooMany = try service.get("/ring.svg?\(Self.src(documents.url("/hop4")))&field=a")
        #expect(tooMany.header("X-Ring-Error") == "src: more than 3 redirects (--source-redirects)")
    }

    /// Deadlines that fall around redirects, and refused redirects, many at once: none may
    /// trap FoundationNetworking (it does when a task waiting for a redirect's answer is
    /// cancelled first, or answered after its cancel).
    @Test func redirectsUnderDeadlinesNeverTrap() throws {
        let documents = try JSONTestServer()
        let service = try InProcessService { configuration in
            configuration.sources.allowedHosts = ["127.0.0.1"]
            configuration.sources.allowHTTP = true
            configuration.sources.allowPrivate = true
            // Long enough for a refused redirect to be decided before it on a loaded machine
            // (under ThreadSanitizer with other work 0.3 s was not), short beside the body's delay.
            configuration.sources.timeout = 1
            configuration.sources.maxRedirects = 1
            configuration.sources.fetchesPerSecond = 1000
            // All forty at once: each slow one holds its slot for the whole second.
            configuration.sources.perHost = 64
        }
        documents.answer("/slow", .body(#"{"a": 1}"#, delay: 2))
        documents.answer("/bounce", .redirect(documents.url("/slow")))
        documents.answer("/twice", .redirect(documents.url("/bounce")))
        let answers = (0..<40).map { _ in InProcessService.Later() }
        for (index, later) in answers.enumerated() {
            let path = index.isMultiple(of: 2) ? "/bounce?n=\(index)" : "/twice?n=\(index)"
            let request = try HTTPRequest(
                parsing: "GET /ring.svg?\(Self.src(documents.url(path)))&field=a HTTP/1.1\r\nHost: t\r\n\r\n")
            if let now = service.service.respond(to: request, reply: HTTPReply.calling { later.set($0) }) {
                later.set(now)
            }
        }
        for (index, later) in answers.enumerated() {
            let answer = InProcessService.answer(try #require(later.wait()))
            let expected =
                index.isMultiple(of: 2)
                ? "src: timed out after 1 s (--source-timeout)" : "src: more than 1 redirects (--source-redirects)"
            #expect(answer.header("X-Ring-Error") == expected, "\(index)")
        }
    }

    /// At most --source-rate fetches start a second under one allowlist entry: a burst of
    /// new sources past it waits its turn instead of being turned away, and every one is drawn.
    @Test func fetchesPastTheRateWaitTheirTurn() throws {
        let (service, documents) = try Self.live { $0.sources.fetchesPerSecond = 5 }
        documents.answer("/c.json", .body(#"{"a": 1}"#))
        let answers = try (0..<12).map { index in
            try service.ask("/ring.svg?\(Self.src(documents.url("/c.json?n=\(index)")))&field=a")
        }
        let expected = try service.get("/ring.svg?p=1").header("ETag")
        for later in answers {
            #expect(InProcessService.answer(try #require(later.wait())).header("ETag") == expected)
        }
        // Five at once, then one each 0.2 s: the twelfth starts 1.4 s after the first.
        let arrivals = documents.arrivals
        #expect(arrivals.count == 12)
        let spread = arrivals.last! - arrivals.first!
        #expect(spread >= 1.3 && spread < 3, "\(spread)")
    }

    /// What the fetch sends: Host, our User-Agent and Accept, and never a cookie or credentials,
    /// even when the document sets a cookie and redirects.
    @Test func nothingOfTheCallersIsSent() throws {
        let (service, documents) = try Self.live()
        documents.answer(
            "/start",
            .body("", status: 302, headers: [("Location", documents.url("/c.json")), ("Set-Cookie", "session=secret")]))
        documents.answer("/c.json", .body(#"{"a": 1}"#, headers: [("Set-Cookie", "more=secret")]))
        _ = try service.get(
            "/ring.svg?\(Self.src(documents.url("/start")))&field=a",
            headers: "Cookie: mine=1\r\nAuthorization: Bearer x\r\n")
        let heads = documents.heads
        #expect(heads.count == 2)
        for head in heads {
            let lower = head.lowercased()
            #expect(lower.contains("user-agent: ring/\(RingService.version)\r\n"), "\(head)")
            #expect(lower.contains("accept: application/json\r\n"), "\(head)")
            // Exactly the documented headers: no Accept-Encoding, Accept-Language or cookies.
            let names = lower.split(separator: "\r\n").dropFirst().compactMap { $0.split(separator: ":").first }
            #expect(names.sorted() == ["accept", "host", "user-agent"], "\(head)")
        }
    }

    /// Fresh for the time-to-live (or the document's longer max-age), then fetched again; a
    /// failed refresh serves the last good value, stale, up to --source-stale; then the error.
    @Test func timeToLiveAndStaleValues() throws {
        let clock = SourceClock()
        let (service, documents) = try Self.live { configuration in
            configuration.sourceClock = clock
            configuration.sources.ttl = 300
            configuration.sources.stale = 1000
        }
        let query = "/ring.svg?\(Self.src(documents.url("/c.json")))&field=a"
        documents.answer("/c.json", .body(#"{"a": 10}"#))
        let first = try service.get(query)
        clock.advance(by: 200)
        documents.answer("/c.json", .body(#"{"a": 20}"#))
        let cached = try service.get(query)
        #expect(cached.header("ETag") == first.header("ETag") && documents.count("/c.json") == 1)
        #expect(cached.header("Cache-Control") == "public, max-age=100, stale-if-error=1000")
        clock.advance(by: 101)
        let refreshed = try service.get(query)
        #expect(documents.count("/c.json") == 2)
        #expect(refreshed.header("ETag") == (try service.get("/ring.svg?p=20")).header("ETag"))
        #expect(refreshed.header("ETag") != first.header("ETag"), "the ETag covers the value")
        // A failing refresh: the last good value, marked stale, with a short max-age.
        clock.advance(by: 301)
        documents.answer("/c.json", .body("{}", status: 503))
        let stale = try service.get(query)
        #expect(stale.header("ETag") == refreshed.header("ETag") && stale.header("X-Ring-Source") == "stale")
        #expect(stale.header("Cache-Control") == "public, max-age=60, stale-if-error=1000")
        #expect(
            service.service.metrics.exposition(
                cache: service.service.cache.statistics, cacheCapacity: 0, server: ServerStatistics(),
                pool: .init(queued: 0, running: 0, threads: 0)
            ).contains("ring_source_stale_total 1\n"))
        // The failure is kept for the error max-age: no fetch on every request.
        _ = try service.get(query)
        #expect(documents.count("/c.json") == 3)
        // Past the stale window, the error.
        clock.advance(by: 1001)
        let failed = try service.get(query)
        #expect(failed.header("X-Ring-Error") == "src: the document answered HTTP 503")
        #expect(documents.count("/c.json") == 4)
    }

    /// A document's own max-age lengthens the time-to-live, up to a day, and never shortens it.
    @Test func theDocumentsMaxAgeLengthensNeverShortens() throws {
        let (service, documents) = try Self.live()
        documents.answer("/long", .body(#"{"a": 1}"#, headers: [("Cache-Control", "public, max-age=3600")]))
        documents.answer("/short", .body(#"{"a": 1}"#, headers: [("Cache-Control", "max-age=10")]))
        documents.answer("/year", .body(#"{"a": 1}"#, headers: [("Cache-Control", "max-age=31536000")]))
        for (path, maxAge) in [("/long", 3600), ("/short", 300), ("/year", 86400)] {
            let answer = try service.get("/ring.svg?\(Self.src(documents.url(path)))&field=a")
            #expect(answer.header("Cache-Control") == "public, max-age=\(maxAge), stale-if-error=86400", "\(path)")
        }
    }

    /// 200 requests for one source while its fetch is under way make one fetch, and all get
    /// the ring.
    @Test func manyRequestsOneFetch() throws {
        let (service, documents) = try Self.live()
        documents.answer("/c.json", .body(#"{"a": 64}"#, delay: 0.5))
        let request = try HTTPRequest(
            parsing: "GET /ring.svg?\(Self.src(documents.url("/c.json")))&field=a HTTP/1.1\r\nHost: t\r\n\r\n")
        let answers = (0..<200).map { _ in InProcessService.Later() }
        var deferred = 0
        for later in answers {
            if let now = service.service.respond(to: request, reply: HTTPReply.calling { later.set($0) }) {
                later.set(now)
            } else {
                deferred += 1
            }
        }
        #expect(deferred == 200, "every request waited for the one fetch")
        let expected = try service.get("/ring.svg?p=64").header("ETag")
        for later in answers {
            let response = try #require(later.wait())
            #expect(InProcessService.answer(response).header("ETag") == expected)
        }
        #expect(documents.count("/c.json") == 1)
    }

    /// A flood of distinct sources on one host: at most --source-per-host fetches at once,
    /// --source-queue waiting, and past the queue a 503 error image naming the flag; a cached
    /// ring is answered at once meanwhile.
    @Test func aFloodOfSourcesStaysWithinThePerHostLimit() throws {
        let (service, documents) = try Self.live { configuration in
            configuration.sources.perHost = 4
            configuration.sources.queuePerHost = 20
        }
        documents.answer("/slow.json", .body(#"{"a": 1}"#, delay: 0.3))
        _ = try service.get("/ring.svg?p=33")
        let cached = try HTTPRequest(parsing: "GET /ring.svg?p=33 HTTP/1.1\r\nHost: t\r\n\r\n")
        var waiting: [InProcessService.Later] = []
        for index in 0..<30 {
            waiting.append(try service.ask("/ring.svg?\(Self.src(documents.url("/slow.json?n=\(index)")))&field=a"))
            // While the fetches run, a cached ring is answered on the spot, not deferred.
            let answer = service.service.respond(to: cached, reply: HTTPReply.calling { _ in })
            #expect(answer?.status.code == 200)
        }
        var drawn = 0
        var refused = 0
        for later in waiting {
            let answer = InProcessService.answer(try #require(later.wait()))
            #expect(answer.header("Content-Type") == "image/svg+xml; charset=utf-8" && answer.text.hasPrefix("<svg"))
            switch answer.header("X-Ring-Error") {
            case nil:
                #expect(answer.status == 200)
                drawn += 1
            case "src: 20 fetches already wait for 127.0.0.1 (--source-queue)":
                // Refused for load: an image still, but 503, retried in a second, kept nowhere.
                #expect(answer.status == 503)
                #expect(answer.header("Retry-After") == "1" && answer.header("Cache-Control") == "no-store")
                refused += 1
            case let other: Issue.record("\(other ?? "")")
            }
        }
        #expect(drawn == 24 && refused == 6, "4 running and 20 queued; the rest refused: \(drawn), \(refused)")
        #expect(documents.peak <= 4, "at most 4 fetches at once to the host: \(documents.peak)")
        #expect(documents.count("/slow.json") == 24)
        // A refused source leaves nothing behind: the next request fetches it.
        #expect(service.service.sources?.statistics.entries == 24)
    }
}
