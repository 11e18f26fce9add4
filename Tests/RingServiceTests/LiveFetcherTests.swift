import Dispatch
import Foundation
import HTTPServer
import HTTPTestSupport
import Primitives
import RingCore
import Testing

@testable import RingService

/// The fetcher under faults of name resolution, with a resolver the tests control: slow,
/// silent, and one that answers another address each time.
@Suite struct LiveFetcherTests {
    /// A resolver whose answers a test scripts, counting lookups; `silent` names never answer
    /// until the test ends (``release()``).
    final class ScriptedResolver: Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let counts = Locked<[String: Int]>([:])
        private let script: @Sendable (_ host: String, _ call: Int) -> Answer

        enum Answer {
            case addresses([String])
            case after(Double, [String])
            case silent
            case fails
        }

        init(_ script: @escaping @Sendable (_ host: String, _ call: Int) -> Answer) { self.script = script }

        var lookup: SourceLookup {
            SourceLookup { [self] host, _ in
                let call = counts.withLock { counts -> Int in
                    counts[host, default: 0] += 1
                    return counts[host]!
                }
                switch script(host, call) {
                case .addresses(let list): return .success(list.compactMap(SourceAddress.init(literal:)))
                case .after(let seconds, let list):
                    Thread.sleep(forTimeInterval: seconds)
                    return .success(list.compactMap(SourceAddress.init(literal:)))
                case .silent:
                    gate.wait()
                    gate.signal()
                    return .failure(SourceFailure(.dns, "\(host) does not resolve"))
                case .fails:
                    return .failure(SourceFailure(.dns, "\(host) does not resolve"))
                }
            }
        }

        func calls(_ host: String) -> Int { counts.withLock { $0[host] ?? 0 } }

        /// Lets every silent lookup end.
        func release() { gate.signal() }
    }

    static func service(
        _ resolver: ScriptedResolver, documents: JSONTestServer,
        _ configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> InProcessService {
        try InProcessService { configuration in
            configuration.sources.allowedHosts = ["127.0.0.1", "pub.test", "*.wild.test", "rebind.test"]
            configuration.sources.allowHTTP = true
            configuration.sources.timeout = 1
            configuration.sources.fetchesPerSecond = 1000
            configuration.sourceLookup = resolver.lookup
            configuration.sourceExemptEndpoints = ["127.0.0.1:\(documents.port)"]
            configure(&configuration)
        }
    }

    static func src(_ url: String) -> String { LiveValuesTests.src(url) }

    /// A lookup that answers after the deadline is not waited for.
    @Test func aSlowLookupEndsAtTheDeadline() throws {
        let documents = try JSONTestServer()
        let resolver = ScriptedResolver { _, _ in .after(3, ["127.0.0.1"]) }
        let service = try Self.service(resolver, documents: documents)
        documents.answer("/c.json", .body(#"{"a": 1}"#))
        let started = MonotonicClock.now()
        let image = try service.get("/ring.svg?\(Self.src(documents.url("/c.json", host: "pub.test")))&field=a")
        let took = MonotonicClock.now() - started
        #expect(image.header("X-Ring-Error") == "src: timed out after 1 s (--source-timeout)")
        #expect(took < 1.8, "\(took) s against --source-timeout 1")
        #expect(documents.count("/c.json") == 0)
    }

    /// Forty names that never resolve, under one wildcard entry: they hold at most
    /// --source-per-host resolver threads, the process gains no more threads than the
    /// resolver's, and a live ring of a healthy host comes at once.
    @Test func silentNamesCostOnlyTheirOwnFetches() throws {
        let documents = try JSONTestServer()
        let resolver = ScriptedResolver { host, _ in host.hasSuffix(".wild.test") ? .silent : .addresses(["127.0.0.1"])
        }
        defer { resolver.release() }
        let service = try Self.service(resolver, documents: documents) { $0.sources.timeout = 3 }
        documents.answer("/c.json", .body(#"{"a": 5}"#))
        let threadsBefore = Self.threadCount()
        let silent = try (0..<40).map { index in
            try service.ask("/ring.svg?\(Self.src("http://n\(index).wild.test/c.json"))&field=a")
        }
        #expect(waitUntil { (service.service.sources?.statistics.entries ?? 0) >= 40 })
        let started = MonotonicClock.now()
        let healthy = try service.get("/ring.svg?\(Self.src(documents.url("/c.json", host: "pub.test")))&field=a")
        let took = MonotonicClock.now() - started
        #expect(healthy.header("X-Ring-Error") == nil && took < 1.5, "\(took) s")
        #expect(healthy.header("ETag") == (try service.get("/ring.svg?p=5")).header("ETag"))
        let grown = Self.threadCount() - threadsBefore
        #expect(grown <= SourcePolicy().resolvers + 2, "\(grown) threads more")
        for later in silent {
            let answer = InProcessService.answer(try #require(later.wait()))
            let error = try #require(answer.header("X-Ring-Error"))
            #expect(
                error == "src: timed out after 3 s (--source-timeout)"
                    || error.hasPrefix("src: no turn to fetch within"), "\(error)")
        }
    }

    /// A redirect to an allowed name whose DNS never answers: the fetch ends at its deadline
    /// and the server goes on (URLSession trapped here once the redirect outlasted its timer).
    @Test func aRedirectToASilentNameEndsAtTheDeadline() throws {
        let documents = try JSONTestServer()
        let resolver = ScriptedResolver { host, _ in host.hasSuffix(".wild.test") ? .silent : .addresses(["127.0.0.1"])
        }
        defer { resolver.release() }
        let service = try Self.service(resolver, documents: documents) { $0.sources.perHost = 64 }
        documents.answer("/redir", .redirect("http://blackx.wild.test/"))
        let answers = try (0..<40).map { index in
            try service.ask("/ring.svg?\(Self.src(documents.url("/redir?n=\(index)", host: "pub.test")))&field=a")
        }
        for later in answers {
            let answer = InProcessService.answer(try #require(later.wait()))
            #expect(answer.header("X-Ring-Error") == "src: timed out after 1 s (--source-timeout)")
        }
        documents.answer("/c.json", .body(#"{"a": 9}"#))
        let after = try service.get("/ring.svg?\(Self.src(documents.url("/c.json")))&field=a")
        #expect(after.header("X-Ring-Error") == nil)
    }

    /// A name that answers another address each time: the address checked is the address
    /// connected. The fetch connects to the first answer without asking again, and a redirect
    /// back to the name, which now answers loopback, is refused.
    @Test func theCheckedAddressIsTheConnectedOne() throws {
        let documents = try JSONTestServer()
        // 127.0.0.1 stands for a public address here: the document server's endpoint is exempt.
        let resolver = ScriptedResolver { _, call in .addresses([call == 1 ? "127.0.0.1" : "127.0.0.2"]) }
        let service = try Self.service(resolver, documents: documents)
        documents.answer("/c.json", .body(#"{"a": 3}"#))
        let first = try service.get(
            "/ring.svg?\(Self.src("http://rebind.test:\(documents.port)/c.json"))&field=a")
        #expect(first.header("X-Ring-Error") == nil && resolver.calls("rebind.test") == 1)
        #expect(documents.count("/c.json") == 1)
        documents.answer("/back", .redirect("http://rebind.test:\(documents.port)/c.json?again"))
        let back = try service.get("/ring.svg?\(Self.src(documents.url("/back")))&field=a")
        #expect(
            back.header("X-Ring-Error")
                == "src: a redirect to http://rebind.test:\(documents.port)/c.json?again: rebind.test resolves to "
                + "127.0.0.2, a loopback address (allowed with --source-allow-private)")
        #expect(resolver.calls("rebind.test") == 2 && documents.count("/c.json") == 1)
    }

    /// Failing sources with long URLs: the source cache counts each at its real size and
    /// stays within --source-cache-mb; failures are forgotten after the error max-age.
    @Test func failuresStayWithinTheCacheAndExpire() throws {
        let documents = try JSONTestServer()
        let resolver = ScriptedResolver { _, _ in .fails }
        let clock = SourceClock()
        let capacity = 1 << 20
        let service = try Self.service(resolver, documents: documents) { configuration in
            configuration.sources.cacheBytes = capacity
            configuration.sources.perHost = 64
            configuration.sources.queuePerHost = 4096
            configuration.sourceClock = clock
        }
        let padding = String(repeating: "x", count: 2000)
        let count = 2000
        let answers = try (0..<count).map { index in
            try service.ask("/ring.svg?\(Self.src("http://n\(index).wild.test/\(padding)"))&field=a")
        }
        for later in answers { _ = try #require(later.wait()) }
        let kept = try #require(service.service.sources?.statistics)
        #expect(kept.bytes <= capacity)
        // About 2.3 KB each: the cache holds what fits, not 256 bytes a failure.
        #expect(kept.entries < capacity / 2000 && kept.entries > capacity / 3000, "\(kept)")
        clock.advance(by: 61)
        _ = try service.get("/ring.svg?\(Self.src("http://late.wild.test/c.json"))&field=a")
        #expect(service.service.sources?.statistics.entries == 1, "only the newest failure is left")
    }

    /// A refresh refused its turn (the queue is full) serves the last good document, stale.
    @Test func aRefusedRefreshServesTheStaleDocument() throws {
        let documents = try JSONTestServer()
        let resolver = ScriptedResolver { _, _ in .addresses(["127.0.0.1"]) }
        let clock = SourceClock()
        let service = try Self.service(resolver, documents: documents) { configuration in
            configuration.sources.perHost = 1
            configuration.sources.queuePerHost = 1
            configuration.sources.timeout = 2
            configuration.sourceClock = clock
        }
        documents.answer("/c.json", .body(#"{"a": 4}"#))
        documents.answer("/slow", .body(#"{"a": 1}"#, delay: 1))
        let query = "/ring.svg?\(Self.src(documents.url("/c.json", host: "pub.test")))&field=a"
        let fresh = try service.get(query)
        clock.advance(by: 301)
        let holding = try service.ask("/ring.svg?\(Self.src(documents.url("/slow?1", host: "pub.test")))&field=a")
        #expect(waitUntil { documents.count("/slow") == 1 })
        let queued = try service.ask("/ring.svg?\(Self.src(documents.url("/slow?2", host: "pub.test")))&field=a")
        let stale = try service.get(query)
        #expect(stale.header("X-Ring-Source") == "stale" && stale.header("ETag") == fresh.header("ETag"))
        #expect(documents.count("/c.json") == 1)
        _ = try #require(holding.wait())
        _ = try #require(queued.wait())
    }

    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
