import HTTPServer
import RingCore
import RingRaster
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prometheus counters for the service, lock-free on the request path.
package final class Metrics: Sendable {
    /// What requests are counted under: a route, and the format of what it answers, so a
    /// ring's SVG and PNG requests are told apart (`route="ring",format="png"`).
    package enum Route: Int, Sendable, CaseIterable {
        case svg, png, json, playground, healthz, metrics, notFound

        /// The `route` and `format` labels.
        var labels: (route: String, format: String) {
            switch self {
            case .svg: ("ring", "svg")
            case .png: ("ring", "png")
            case .json: ("json", "json")
            case .playground: ("playground", "html")
            case .healthz: ("healthz", "text")
            case .metrics: ("metrics", "text")
            case .notFound: ("not_found", "text")
            }
        }
    }

    /// Statuses counted individually; anything else is `other`.
    static let statuses = [200, 304, 400, 404, 405, 503]
    /// Render-time histogram bucket bounds in seconds: microseconds for SVGs and small PNGs,
    /// up to the default `--max-render-ms` of 250 ms for the largest PNGs.
    static let renderBuckets: [Double] = [
        1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1, 0.25,
    ]

    /// Fetch-duration bucket bounds in seconds, up to the default `--source-timeout` of 3 s.
    static let sourceBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5]

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Counters every request or new ring adds to, in one lane per event loop and one for
    /// every other thread (render threads), summed when scraped. Why: a counter both loops add
    /// to moves its cache line between their cores on every add, and a new ring added to four.
    private let lanes: CounterLanes
    /// The lane of threads that are not event loops.
    private var sharedLane: Int { lanes.count - 1 }
    /// By ``ImageFormat``.
    private let renderErrors = [Counter(), Counter()]
    private let notdefCharacters = Counter()
    private let queueFull = Counter()
    private let pngRefused = Counter()
    /// Live values: fetches by result (`ok`, then ``SourceFailure/Kind``), their durations,
    /// and answers with a stale value.
    private let sourceFetches = (0...SourceFailure.Kind.allCases.count).map { _ in Counter() }
    private let sourceFetchCounts = Metrics.sourceBuckets.map { _ in Counter() }
    private let sourceFetchCount = Counter()
    private let sourceFetchNanoseconds = Counter()
    private let sourceStale = Counter()
    /// `ring_build_info`'s labels, and when the service started (seconds since 1970).
    private let version: String
    private let startTime: Double

    /// Where each counter of a lane is: requests by route and status, then per format the
    /// render histogram's buckets, its count and its nanoseconds.
    private static let requestCounters = Route.allCases.count * (statuses.count + 1)
    private static func renderBucket(_ format: ImageFormat, _ bucket: Int) -> Int {
        requestCounters + format.index * (renderBuckets.count + 2) + bucket
    }
    private static func renderCount(_ format: ImageFormat) -> Int { renderBucket(format, renderBuckets.count) }
    private static func renderNanoseconds(_ format: ImageFormat) -> Int {
        renderBucket(format, renderBuckets.count + 1)
    }

    /// `version` is the product's (``RingService/version``), exported in `ring_build_info`;
    /// `loops` event loops get a lane of the hot counters each.
    package init(version: String = RingService.version, loops: Int = 1) {
        lanes = CounterLanes(
            lanes: max(1, loops) + 1,
            counters: Self.requestCounters + ImageFormat.allCases.count * (Self.renderBuckets.count + 2))
        self.version = version
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        startTime = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Counts one answered request, in event loop `loop`'s lane (nil: not on a loop).
    package func record(route: Route, status: Int, loop: Int? = nil) {
        let routeIndex = route.rawValue
        // A switch, not a lookup in `statuses`: this runs for every request.
        let statusIndex: Int
        switch status {
        case 200: statusIndex = 0
        case 304: statusIndex = 1
        case 400: statusIndex = 2
        case 404: statusIndex = 3
        case 405: statusIndex = 4
        case 503: statusIndex = 5
        default: statusIndex = 6
        }
        lanes.add(1, to: routeIndex * (Self.statuses.count + 1) + statusIndex, lane: lane(loop))
    }

    private func lane(_ loop: Int?) -> Int { loop.map { $0 % sharedLane } ?? sharedLane }

    /// Rings rendered so far (SVG and PNG).
    package var renders: Int { ImageFormat.allCases.reduce(0) { $0 + lanes.sum(Self.renderCount($1)) } }

    /// Counts an answer that is an error image in `format`, new or from the cache.
    package func recordRenderError(_ format: ImageFormat) {
        renderErrors[format.index].value.add(1, ordering: .relaxed)
    }

    /// Counts characters of a new PNG's text that no font has, drawn as `.notdef` boxes.
    package func recordNotdef(_ characters: Int) {
        if characters > 0 { notdefCharacters.value.add(characters, ordering: .relaxed) }
    }

    /// `.notdef` boxes drawn so far.
    package var notdefs: Int { notdefCharacters.value.load(ordering: .relaxed) }

    /// Why a new ring was answered 503.
    package enum Refusal: Sendable {
        /// The render queue was full.
        case queueFull
        /// The large PNG renders allowed at once were all taken.
        case largePNG
    }

    /// Counts a new ring answered 503.
    package func recordRenderRefused(_ reason: Refusal) {
        switch reason {
        case .queueFull: queueFull.value.add(1, ordering: .relaxed)
        case .largePNG: pngRefused.value.add(1, ordering: .relaxed)
        }
    }

    /// Counts one source fetch: its result (nil for a document read) and how long it took.
    func recordSourceFetch(_ failure: SourceFailure.Kind?, seconds: Double) {
        let index = failure.map { SourceFailure.Kind.allCases.firstIndex(of: $0)! + 1 } ?? 0
        sourceFetches[index].value.add(1, ordering: .relaxed)
        sourceFetchCount.value.add(1, ordering: .relaxed)
        sourceFetchNanoseconds.value.add(Int(seconds * 1e9), ordering: .relaxed)
        if let bucket = Self.sourceBuckets.firstIndex(where: { seconds <= $0 }) {
            sourceFetchCounts[bucket].value.add(1, ordering: .relaxed)
        }
    }

    /// Counts a live ring answered with its last good value after a refresh failed.
    func recordSourceStale() { sourceStale.value.add(1, ordering: .relaxed) }

    /// Source fetches so far with `result` (`ok`, `timeout`, …).
    func sourceFetches(_ result: String) -> Int {
        let index =
            result == "ok" ? 0 : (SourceFailure.Kind.allCases.firstIndex { $0.rawValue == result }.map { $0 + 1 } ?? -1)
        return index < 0 ? 0 : sourceFetches[index].value.load(ordering: .relaxed)
    }

    /// The render pool as the scrape sees it.
    package struct PoolStatistics: Sendable {
        package var queued: Int
        package var running: Int
        package var threads: Int

        package init(queued: Int, running: Int, threads: Int) {
            self.queued = queued
            self.running = running
            self.threads = threads
        }
    }

    /// Records how long rendering one new ring in `format` took (its SVG or PNG, not the parse).
    /// In event loop `loop`'s lane (nil: a render thread's).
    package func recordRender(_ format: ImageFormat, seconds: Double, loop: Int? = nil) {
        let lane = lane(loop)
        lanes.add(1, to: Self.renderCount(format), lane: lane)
        lanes.add(Int(seconds * 1e9), to: Self.renderNanoseconds(format), lane: lane)
        // One counter per bucket, not per bound: the cumulative sums are made when scraped.
        if let bucket = Self.renderBuckets.firstIndex(where: { seconds <= $0 }) {
            lanes.add(1, to: Self.renderBucket(format, bucket), lane: lane)
        }
    }

    /// The Prometheus text exposition (format 0.0.4).
    package func exposition(
        cache: ResponseCache.Statistics, cacheCapacity: Int, server: ServerStatistics, pool: PoolStatistics,
        sources: (entries: Int, bytes: Int) = (0, 0)
    ) -> String {
        var text = ""
        func family(_ name: String, _ type: String, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family(
            "ring_build_info", "gauge",
            "Always 1; the labels name the version and the SVG and PNG renderer versions (each moves the ETags).")
        text += "ring_build_info{version=\"\(version)\",svg_renderer=\"\(RingRenderer.version)\","
        text += "png_renderer=\"\(RingRasterizer.version)\"} 1\n"
        family("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.")
        text += "process_start_time_seconds \(startTime)\n"
        family("ring_http_requests_total", "counter", "Requests answered, by route, format answered and status.")
        for route in Route.allCases {
            let (name, format) = route.labels
            for statusIndex in 0...Self.statuses.count {
                let status = statusIndex < Self.statuses.count ? String(Self.statuses[statusIndex]) : "other"
                let value = lanes.sum(route.rawValue * (Self.statuses.count + 1) + statusIndex)
                text +=
                    "ring_http_requests_total{route=\"\(name)\",format=\"\(format)\",status=\"\(status)\"} \(value)\n"
            }
        }
        family(
            "ring_render_errors_total", "counter",
            "Answers that were an error image (an invalid query, or a ring past a limit), cached or not, by format.")
        for format in ImageFormat.allCases {
            let value = renderErrors[format.index].value.load(ordering: .relaxed)
            text += "ring_render_errors_total{format=\"\(format.rawValue)\"} \(value)\n"
        }
        family(
            "ring_png_notdef_characters_total", "counter",
            "Characters of new PNGs' text drawn as a box: no loaded font has them (add one with --font).")
        text += "ring_png_notdef_characters_total \(notdefCharacters.value.load(ordering: .relaxed))\n"
        family("ring_png_renders_refused_total", "counter", "New PNGs answered 503: the PNG render limit was reached.")
        text += "ring_png_renders_refused_total \(pngRefused.value.load(ordering: .relaxed))\n"
        family("ring_render_queue_full_total", "counter", "New rings answered 503: the render queue was full.")
        text += "ring_render_queue_full_total \(queueFull.value.load(ordering: .relaxed))\n"
        family("ring_render_seconds", "histogram", "Time to render a new ring (a cache miss), by format.")
        for format in ImageFormat.allCases {
            let label = "format=\"\(format.rawValue)\""
            var cumulative = 0
            for (bucket, bound) in Self.renderBuckets.enumerated() {
                cumulative += lanes.sum(Self.renderBucket(format, bucket))
                text += "ring_render_seconds_bucket{\(label),le=\"\(bound)\"} \(cumulative)\n"
            }
            let count = lanes.sum(Self.renderCount(format))
            let seconds = Double(lanes.sum(Self.renderNanoseconds(format))) / 1e9
            text += "ring_render_seconds_bucket{\(label),le=\"+Inf\"} \(count)\n"
            text += "ring_render_seconds_sum{\(label)} \(seconds)\n"
            text += "ring_render_seconds_count{\(label)} \(count)\n"
        }
        family(
            "ring_source_fetches_total", "counter",
            "Fetches of live values' documents, by result: ok, or why the document could not be read.")
        for (index, result) in (["ok"] + SourceFailure.Kind.allCases.map(\.rawValue)).enumerated() {
            text +=
                "ring_source_fetches_total{result=\"\(result)\"} \(sourceFetches[index].value.load(ordering: .relaxed))\n"
        }
        family(
            "ring_source_fetch_seconds", "histogram",
            "Time a source fetch took, from its request (its wait for a turn included) to the last byte."
        )
        var cumulative = 0
        for (bound, counter) in zip(Self.sourceBuckets, sourceFetchCounts) {
            cumulative += counter.value.load(ordering: .relaxed)
            text += "ring_source_fetch_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        let fetches = sourceFetchCount.value.load(ordering: .relaxed)
        text += "ring_source_fetch_seconds_bucket{le=\"+Inf\"} \(fetches)\n"
        text += "ring_source_fetch_seconds_sum \(Double(sourceFetchNanoseconds.value.load(ordering: .relaxed)) / 1e9)\n"
        text += "ring_source_fetch_seconds_count \(fetches)\n"
        func single(_ name: String, _ type: String, _ help: String, _ value: Int) {
            family(name, type, help)
            text += "\(name) \(value)\n"
        }
        single(
            "ring_source_cache_entries", "gauge",
            "Live values' documents and failures kept, and fetches under way.", sources.entries)
        single(
            "ring_source_cache_bytes", "gauge",
            "What the kept documents and failures count against --source-cache-mb: URL, document, message, bookkeeping.",
            sources.bytes)
        single(
            "ring_source_stale_total", "counter",
            "Live rings answered with their last good value because a refresh failed.",
            sourceStale.value.load(ordering: .relaxed))
        single("ring_cache_hits_total", "counter", "Ring requests served from the response cache.", cache.hits)
        single("ring_cache_misses_total", "counter", "Rings rendered and stored in the cache.", cache.misses)
        single(
            "ring_cache_unstored_total", "counter",
            "New SVG rings rendered and not stored: asked for the first time (--cache-admission second).",
            cache.unstored)
        single(
            "ring_cache_evictions_total", "counter", "Cache entries evicted to stay under the byte cap.",
            cache.evictions)
        single("ring_cache_bytes", "gauge", "Bytes held by the response cache.", cache.bytes)
        single(
            "ring_cache_error_image_bytes", "gauge",
            "Of ring_cache_bytes, those of error images, held to 1/16 of the store.", cache.errorImageBytes)
        single("ring_cache_capacity_bytes", "gauge", "The response cache's byte cap.", cacheCapacity)
        single("ring_cache_entries", "gauge", "Rings held by the response cache.", cache.entries)
        single(
            "ring_render_queue_length", "gauge", "Renders queued, for a render thread or a loop's spare turn.",
            pool.queued)
        single(
            "ring_render_running", "gauge", "Renders running now, on render threads or in loops' spare turns.",
            pool.running)
        single("ring_render_threads", "gauge", "Render threads.", pool.threads)
        if let resident = ProcessMemory.residentBytes {
            single(
                "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", resident)
        }
        if let limit = MemoryBudget.limitBytes {
            single(
                "ring_memory_limit_bytes", "gauge",
                "The memory limit of this process's cgroup (absent when none is set).",
                limit)
        }
        single("ring_open_connections", "gauge", "Client connections open now.", server.openConnections)
        single("ring_connections_accepted_total", "counter", "Client connections accepted.", server.acceptedConnections)
        single(
            "ring_connections_refused_total", "counter",
            "Connections closed at once because the connection cap was reached.", server.refusedConnections)
        single(
            "ring_client_connections_refused_total", "counter",
            "Connections closed at once because their client address held --max-connections-per-client.",
            server.refusedClientConnections)
        single(
            "ring_protocol_errors_total", "counter", "Requests the server rejected as malformed HTTP.",
            server.protocolErrors)
        single(
            "ring_connection_timeouts_total", "counter", "Connections closed by a header, idle or write deadline.",
            server.timeouts)
        return text
    }
}
