import HTTPServer
import RingCore

#if canImport(Glibc)
    import Glibc
#endif

/// The ring service as an ``HTTPResponder``: `/ring.svg`, `/healthz`, `/metrics` and the
/// playground at `/`. Nothing is ever read from the file system because of a URL.
public final class RingService: HTTPResponder {
    public let configuration: ServiceConfiguration
    public let cache: ResponseCache
    public let metrics = Metrics()
    private let accessLog: AccessLog
    private let serverStatistics: ServerStatistics

    public init(configuration: ServiceConfiguration, accessLog: AccessLog, serverStatistics: ServerStatistics) {
        self.configuration = configuration
        self.cache = ResponseCache(capacityBytes: configuration.cacheBytes, partitions: configuration.cachePartitions)
        self.ringHeaders = ImageHeaders(maxAge: configuration.maxAge)
        self.errorHeaders = ImageHeaders(maxAge: configuration.errorMaxAge)
        self.accessLog = accessLog
        self.serverStatistics = serverStatistics
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = accessLog.isEnabled ? Self.now() : 0
        let (route, response, cacheState) = route(request)
        metrics.record(route: route, status: response.status.code)
        if accessLog.isEnabled {
            accessLog.record(
                method: request.method.rawValue, path: request.path, query: request.query, status: response.status.code,
                bytes: request.method == .head ? 0 : response.body.count,
                microseconds: Int((Self.now() - started) * 1e6), cache: cacheState)
        }
        return response
    }

    private func route(_ request: HTTPRequest) -> (Metrics.Route, HTTPResponse, String) {
        let route: Metrics.Route
        switch request.path {
        case "/ring.svg": route = .ring
        case "/healthz": route = .healthz
        case "/metrics": route = .metrics
        case "/": route = .playground
        default:
            return (.notFound, .text(.notFound, "not found\n", headers: Self.commonHeaders), "-")
        }
        guard request.method == .get || request.method == .head else {
            let response = HTTPResponse.text(
                .methodNotAllowed, "method not allowed\n", headers: [("Allow", "GET, HEAD")] + Self.commonHeaders)
            return (route, response, "-")
        }
        switch route {
        case .ring:
            let (response, hit) = ring(request)
            return (route, response, hit ? "hit" : "miss")
        case .healthz:
            return (route, .text(.ok, "ok\n", headers: [("Cache-Control", "no-store")] + Self.commonHeaders), "-")
        case .metrics:
            let text = metrics.exposition(
                cache: cache.statistics, cacheCapacity: cache.capacity, server: serverStatistics)
            let response = HTTPResponse(
                status: .ok,
                headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")]
                    + Self.commonHeaders,
                body: Array(text.utf8))
            return (route, response, "-")
        case .playground:
            return (route, PlaygroundPage.response, "-")
        case .notFound:
            return (route, .text(.notFound, "not found\n"), "-")
        }
    }

    /// The hot path: one cache lookup by raw query; parse and render only on a miss.
    private func ring(_ request: HTTPRequest) -> (HTTPResponse, Bool) {
        let query = request.query
        let partition = request.eventLoop
        let key = ResponseCache.Query(query)
        if let entry = cache.lookup(query: key, partition: partition) {
            return (Self.select(entry, for: request), true)
        }
        let started = Self.now()
        guard query.utf8.count <= configuration.maxQueryBytes else {
            return (
                errorResponse(message: "query: longer than \(configuration.maxQueryBytes) bytes", request: request),
                false
            )
        }
        let spec: RingSpec
        do {
            spec = try RingSpec(query: query)
        } catch {
            return (errorResponse(message: error.description, request: request), false)
        }
        let hash = spec.stableHash
        if let entry = cache.lookup(hash: hash, aliasing: key, partition: partition) {
            return (Self.select(entry, for: request), false)
        }
        let svg = RingRenderer.render(spec, stableHash: hash)
        metrics.recordRender(seconds: Self.now() - started)
        let entry = makeEntry(
            body: svg, etag: Self.etag(prefix: "r", hash: hash), shared: ringHeaders)
        cache.insert(entry, hash: hash, query: key, partition: partition)
        return (Self.select(entry, for: request), false)
    }

    /// An invalid query still gets an image (image proxies drop non-2xx answers), with the
    /// message in `X-Ring-Error` and a short max-age.
    private func errorResponse(message: String, request: HTTPRequest) -> HTTPResponse {
        metrics.recordRenderError()
        let entry = makeEntry(
            body: ErrorImage.render(message: message),
            etag: Self.etag(prefix: "e", hash: StableHash.fnv1a64(message.utf8)),
            shared: errorHeaders, extra: [("X-Ring-Error", Self.headerSafe(message))])
        return Self.select(entry, for: request)
    }

    private func makeEntry(
        body: [UInt8], etag: String, shared: ImageHeaders, extra: [(String, String)] = []
    ) -> ResponseCache.Entry {
        // The 200 and the 304 carry the same per-ring lines: serialize them once.
        let own = extra.isEmpty ? HTTPHeaderBlock(name: "ETag", value: etag) : HTTPHeaderBlock([("ETag", etag)] + extra)
        let ok = HTTPResponse(status: .ok, shared: shared.ok, headers: own, body: body)
        let notModified = HTTPResponse(status: .notModified, shared: shared.notModified, headers: own)
        return ResponseCache.Entry(ok: ok, notModified: notModified, etag: etag)
    }

    private static func select(_ entry: ResponseCache.Entry, for request: HTTPRequest) -> HTTPResponse {
        if let condition = request.header("If-None-Match"), EntityTag.matches(condition, etag: entry.etag) {
            return entry.notModified
        }
        return entry.ok
    }

    /// A strong ETag from the hash and the renderer version, so a new renderer invalidates
    /// every cached copy downstream.
    private static func etag(prefix: StaticString, hash: UInt64) -> String {
        var writer = ByteWriter(capacity: 32)
        writer.append("\"")
        writer.append(prefix)
        writer.append(integer: RingRenderer.version)
        writer.append("-")
        for shift in stride(from: 56, through: 0, by: -8) {
            writer.append(hexByte: UInt8(truncatingIfNeeded: hash >> UInt64(shift)))
        }
        writer.append("\"")
        return writer.text
    }

    /// Header values stay printable ASCII: anything else in an error message is escaped.
    static func headerSafe(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20, scalar.value < 0x7F {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return result
    }

    /// The constant headers of image responses, serialized once for all of them.
    private struct ImageHeaders {
        var ok: HTTPHeaderBlock
        var notModified: HTTPHeaderBlock

        init(maxAge: Int) {
            let validators = [("Cache-Control", "public, max-age=\(maxAge), s-maxage=\(maxAge)")]
            ok = HTTPHeaderBlock(
                [("Content-Type", "image/svg+xml; charset=utf-8")] + validators + RingService.imageHeaders)
            notModified = HTTPHeaderBlock(validators + RingService.imageHeaders)
        }
    }

    private let ringHeaders: ImageHeaders
    private let errorHeaders: ImageHeaders

    static let commonHeaders: [(String, String)] = [("X-Content-Type-Options", "nosniff")]

    static let imageHeaders: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Cross-Origin-Resource-Policy", "cross-origin"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
    ]

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
