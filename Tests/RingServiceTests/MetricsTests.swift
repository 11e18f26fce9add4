import HTTPServer
import Testing

@testable import RingService

/// The counters every request adds to are kept in one lane per event loop and one for other
/// threads; a scrape must see their sums, whichever lanes the counts went to.
@Suite struct MetricsTests {
    private func exposition(_ metrics: Metrics) -> String {
        metrics.exposition(
            cache: ResponseCache(capacityBytes: 1 << 20).statistics, cacheCapacity: 1 << 20,
            server: ServerStatistics(), pool: .init(queued: 0, running: 0, threads: 0))
    }

    @Test func aScrapeSumsEveryLane() {
        let metrics = Metrics(loops: 3)
        // Loops 0 to 2, a render thread (nil), and a loop number past the lanes.
        for loop in [0, 1, 1, 2, nil, 7] as [Int?] {
            metrics.record(route: .svg, status: 200, loop: loop)
            metrics.recordRender(.svg, seconds: 3e-6, loop: loop)
        }
        metrics.record(route: .png, status: 503, loop: 2)
        metrics.recordRender(.png, seconds: 0.3, loop: nil)
        let text = exposition(metrics)
        #expect(text.contains(#"ring_http_requests_total{route="ring",format="svg",status="200"} 6"# + "\n"))
        #expect(text.contains(#"ring_http_requests_total{route="ring",format="png",status="503"} 1"# + "\n"))
        #expect(text.contains(#"ring_http_requests_total{route="ring",format="svg",status="304"} 0"# + "\n"))
        #expect(text.contains(#"ring_render_seconds_bucket{format="svg",le="2e-06"} 0"# + "\n"))
        #expect(text.contains(#"ring_render_seconds_bucket{format="svg",le="5e-06"} 6"# + "\n"))
        #expect(text.contains(#"ring_render_seconds_count{format="svg"} 6"# + "\n"))
        #expect(text.contains(#"ring_render_seconds_sum{format="svg"} 1.8e-05"# + "\n"))
        // Past the last bound: only in +Inf.
        #expect(text.contains(#"ring_render_seconds_bucket{format="png",le="0.25"} 0"# + "\n"))
        #expect(text.contains(#"ring_render_seconds_bucket{format="png",le="+Inf"} 1"# + "\n"))
        #expect(metrics.renders == 7)
    }
}
