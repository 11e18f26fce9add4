import Foundation
import HTTPServer
import HTTPTestSupport
import RingCore
import RingTestSupport
import Testing

@testable import RingService

/// A ring URL always gets its own ring: the cache, the ETag and `If-None-Match` rest on the
/// 128-bit digest and the full query text, never on a 64-bit hash.
@Suite struct CacheIdentityTests {
    /// Two queries with the same 64-bit FNV-1a hash, which the cache once took for one ring.
    static let collision = ("p=72&label=k4bp9UaYWwb", "p=72&label=02UCwDWsfVj")

    @Test func theFNVCollidingPairGetsTwoRingsAndTwoETags() throws {
        let harness = try ServiceHarness()
        let (a, b) = Self.collision
        // Each asked for twice, so that both are stored.
        _ = try harness.get("/ring.svg?\(a)")
        _ = try harness.get("/ring.svg?\(b)")
        let first = try harness.get("/ring.svg?\(a)")
        let second = try harness.get("/ring.svg?\(b)")
        #expect(first.body == RingRenderer.render(try RingSpec(query: a)))
        #expect(second.body == RingRenderer.render(try RingSpec(query: b)))
        let firstTag = try #require(first.header("ETag"))
        let secondTag = try #require(second.header("ETag"))
        #expect(firstTag != secondTag)
        // The first's ETag does not revalidate the second, and its own still does.
        let crossed = try harness.get("/ring.svg?\(b)", headers: "If-None-Match: \(firstTag)\r\n")
        #expect(crossed.status == 200)
        #expect(crossed.body == second.body)
        #expect(try harness.get("/ring.svg?\(b)", headers: "If-None-Match: \(secondTag)\r\n").status == 304)
        #expect(harness.service.cache.statistics.entries == 2)
    }

    /// Many random distinct specs, through one service in process: each is answered with its
    /// own bytes, first, again (when it is stored) and then from the cache, and no two share
    /// an ETag.
    @Test func distinctSpecsNeverShareAnEntryOrAnETag() throws {
        let service = RingService(
            configuration: ServiceConfiguration(), accessLog: try AccessLog(.off), serverStatistics: ServerStatistics())
        var generator = SeededGenerator(seed: 5)
        var owners: [String: String] = [:]
        var queries: [String] = []
        for _ in 0..<1500 {
            let query = RandomQuery.make(&generator)
            let key = try RingSpec(query: query).canonicalKey
            queries.append(query)
            let response = service.respond(to: try request("/ring.svg?\(query)"))
            #expect(response.body == RingRenderer.render(try RingSpec(query: query)), "\(query)")
            let etag = try #require(Self.etag(of: response))
            if let owner = owners[etag] {
                #expect(owner == key, "\(etag) names both \(owner) and \(key)")
            }
            owners[etag] = key
        }
        #expect(owners.count > 1400)
        for _ in 0..<2 {
            for query in queries {
                #expect(
                    service.respond(to: try request("/ring.svg?\(query)")).body
                        == RingRenderer.render(try RingSpec(query: query)))
            }
        }
        #expect(service.cache.statistics.hits >= queries.count)
    }

    /// Twelve fresh connections, spread over the loops by the kernel, ask for one new ring:
    /// it is rendered to answer the first, rendered again and stored once for the second, and
    /// found by the other ten.
    @Test func aRingIsStoredOnceWhateverLoopsAskForIt() throws {
        let harness = try ServiceHarness()
        for _ in 0..<12 {
            #expect(try harness.get("/ring.svg?p=61&color=teal").status == 200)
        }
        let metrics = try harness.get("/metrics").text
        #expect(metrics.contains("ring_render_seconds_count{format=\"svg\"} 2\n"), "\(metrics)")
        #expect(metrics.contains("ring_cache_entries 1\n"))
        #expect(metrics.contains("ring_cache_unstored_total 1\n"))
        #expect(metrics.contains("ring_cache_hits_total 10\n"))
    }

    private func request(_ target: String, headers: String = "") throws -> HTTPRequest {
        try HTTPRequest(parsing: "GET \(target) HTTP/1.1\r\nHost: rings.test\r\n\(headers)\r\n")
    }

    static func etag(of response: HTTPResponse) -> String? {
        let text = String(decoding: response.headers.bytes, as: UTF8.self)
        return text.split(separator: "\r\n").first { $0.hasPrefix("ETag: ") }.map { String($0.dropFirst(6)) }
    }
}
