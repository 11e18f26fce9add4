import HTTPServer
import Synchronization

/// Prometheus counters for the service, lock-free on the request path.
public final class Metrics: Sendable {
    /// The routes requests are counted under.
    public enum Route: String, Sendable, CaseIterable {
        case ring, playground, healthz, metrics
        case notFound = "not_found"
        case json
    }

    /// Statuses counted individually; anything else is `other`.
    static let statuses = [200, 304, 400, 404, 405]
    /// Render-time histogram bucket bounds in seconds.
    static let renderBuckets: [Double] = [1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 1e-3, 1e-2]

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private let requests: [Counter]
    private let renderErrors = Counter()
    private let notdefCharacters = Counter()
    private let queueFull = Counter()
    private let pngRefused = Counter()
    private let renderCounts: [Counter]
    private let renderCount = Counter()
    private let renderNanoseconds = Counter()

    public init() {
        requests = (0..<(Route.allCases.count * (Self.statuses.count + 1))).map { _ in Counter() }
        renderCounts = Self.renderBuckets.map { _ in Counter() }
    }

    /// Counts one answered request.
    public func record(route: Route, status: Int) {
        // Switches, not `allCases` lookups: this runs for every request.
        let routeIndex: Int
        switch route {
        case .ring: routeIndex = 0
        case .playground: routeIndex = 1
        case .healthz: routeIndex = 2
        case .metrics: routeIndex = 3
        case .notFound: routeIndex = 4
        case .json: routeIndex = 5
        }
        let statusIndex: Int
        switch status {
        case 200: statusIndex = 0
        case 304: statusIndex = 1
        case 400: statusIndex = 2
        case 404: statusIndex = 3
        case 405: statusIndex = 4
        default: statusIndex = 5
        }
        requests[routeIndex * (Self.statuses.count + 1) + statusIndex].value.add(1, ordering: .relaxed)
    }

    /// Rings rendered so far (SVG and PNG).
    public var renders: Int { renderCount.value.load(ordering: .relaxed) }

    /// Counts a query answered with an error image.
    public func recordRenderError() {
        renderErrors.value.add(1, ordering: .relaxed)
    }

    /// Counts characters of a new PNG's text that no font has, drawn as `.notdef` boxes.
    public func recordNotdef(_ characters: Int) {
        if characters > 0 { notdefCharacters.value.add(characters, ordering: .relaxed) }
    }

    /// `.notdef` boxes drawn so far.
    public var notdefs: Int { notdefCharacters.value.load(ordering: .relaxed) }

    /// Why a new ring was answered 503.
    public enum Refusal: Sendable {
        /// The render queue was full.
        case queueFull
        /// The large PNG renders allowed at once were all taken.
        case largePNG
    }

    /// Counts a new ring answered 503.
    public func recordRenderRefused(_ reason: Refusal) {
        switch reason {
        case .queueFull: queueFull.value.add(1, ordering: .relaxed)
        case .largePNG: pngRefused.value.add(1, ordering: .relaxed)
        }
    }

    /// The render pool as the scrape sees it.
    public struct PoolStatistics: Sendable {
        public var queued: Int
        public var running: Int
        public var threads: Int

        public init(queued: Int, running: Int, threads: Int) {
            self.queued = queued
            self.running = running
            self.threads = threads
        }
    }

    /// Records how long rendering one new ring took (its SVG or PNG, not the parse).
    public func recordRender(seconds: Double) {
        renderCount.value.add(1, ordering: .relaxed)
        renderNanoseconds.value.add(Int(seconds * 1e9), ordering: .relaxed)
        // One counter per bucket, not per bound: the cumulative sums are made when scraped.
        if let bucket = Self.renderBuckets.firstIndex(where: { seconds <= $0 }) {
            renderCounts[bucket].value.add(1, ordering: .relaxed)
        }
    }

    /// The Prometheus text exposition (format 0.0.4).
    public func exposition(
        cache: ResponseCache.Statistics, cacheCapacity: Int, server: ServerStatistics, pool: PoolStatistics
    ) -> String {
        var text = ""
        func family(_ name: String, _ type: String, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("ring_http_requests_total", "counter", "Requests answered, by route and status.")
        for (routeIndex, route) in Route.allCases.enumerated() {
            for statusIndex in 0...Self.statuses.count {
                let status = statusIndex < Self.statuses.count ? String(Self.statuses[statusIndex]) : "other"
                let value = requests[routeIndex * (Self.statuses.count + 1) + statusIndex].value.load(
                    ordering: .relaxed)
                text += "ring_http_requests_total{route=\"\(route.rawValue)\",status=\"\(status)\"} \(value)\n"
            }
        }
        family("ring_render_errors_total", "counter", "Queries answered with an error image.")
        text += "ring_render_errors_total \(renderErrors.value.load(ordering: .relaxed))\n"
        family(
            "ring_png_notdef_characters_total", "counter",
            "Characters of new PNGs' text drawn as a box: no loaded font has them (add one with --font).")
        text += "ring_png_notdef_characters_total \(notdefCharacters.value.load(ordering: .relaxed))\n"
        family("ring_png_renders_refused_total", "counter", "New PNGs answered 503: the PNG render limit was reached.")
        text += "ring_png_renders_refused_total \(pngRefused.value.load(ordering: .relaxed))\n"
        family("ring_render_queue_full_total", "counter", "New rings answered 503: the render queue was full.")
        text += "ring_render_queue_full_total \(queueFull.value.load(ordering: .relaxed))\n"
        family("ring_render_seconds", "histogram", "Time to render a new ring, SVG or PNG (cache misses).")
        var cumulative = 0
        for (bound, counter) in zip(Self.renderBuckets, renderCounts) {
            cumulative += counter.value.load(ordering: .relaxed)
            text += "ring_render_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        let count = renderCount.value.load(ordering: .relaxed)
        text += "ring_render_seconds_bucket{le=\"+Inf\"} \(count)\n"
        text += "ring_render_seconds_sum \(Double(renderNanoseconds.value.load(ordering: .relaxed)) / 1e9)\n"
        text += "ring_render_seconds_count \(count)\n"
        func single(_ name: String, _ type: String, _ help: String, _ value: Int) {
            family(name, type, help)
            text += "\(name) \(value)\n"
        }
        single("ring_cache_hits_total", "counter", "Ring requests served from the response cache.", cache.hits)
        single("ring_cache_misses_total", "counter", "Ring requests whose query was not in the cache.", cache.misses)
        single(
            "ring_cache_evictions_total", "counter", "Cache entries evicted to stay under the byte cap.",
            cache.evictions)
        single("ring_cache_bytes", "gauge", "Bytes held by the response cache.", cache.bytes)
        single("ring_cache_capacity_bytes", "gauge", "The response cache's byte cap.", cacheCapacity)
        single("ring_cache_entries", "gauge", "Rings held by the response cache.", cache.entries)
        single("ring_render_queue_length", "gauge", "Renders waiting for a render thread.", pool.queued)
        single("ring_render_running", "gauge", "Renders running on render threads now.", pool.running)
        single("ring_render_threads", "gauge", "Render threads.", pool.threads)
        if let resident = ProcessMemory.residentBytes {
            single(
                "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", resident)
        }
        single("ring_open_connections", "gauge", "Client connections open now.", server.openConnections)
        single("ring_connections_accepted_total", "counter", "Client connections accepted.", server.acceptedConnections)
        single(
            "ring_connections_refused_total", "counter",
            "Connections closed at once because the connection cap was reached.", server.refusedConnections)
        single(
            "ring_protocol_errors_total", "counter", "Requests the server rejected as malformed HTTP.",
            server.protocolErrors)
        single(
            "ring_connection_timeouts_total", "counter", "Connections closed by a header, idle or write deadline.",
            server.timeouts)
        return text
    }
}
