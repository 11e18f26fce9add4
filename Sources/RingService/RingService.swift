import HTTPServer
import RingCore
import RingRaster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ring service as an ``HTTPResponder``: `/ring.svg`, `/ring.png`, `/healthz`, `/metrics`
/// and the playground at `/`. Nothing is ever read from the file system because of a URL.
public final class RingService: HTTPResponder {
    public let configuration: ServiceConfiguration
    public let cache: ResponseCache
    public let metrics = Metrics()
    private let accessLog: AccessLog
    private let serverStatistics: ServerStatistics
    /// Admits PNG renders, at most `pngRenderLimit` at once across all loops.
    package let pngRenders: RenderGate

    public init(configuration: ServiceConfiguration, accessLog: AccessLog, serverStatistics: ServerStatistics) {
        self.configuration = configuration
        self.cache = ResponseCache(
            capacityBytes: configuration.cacheBytes, shards: configuration.cacheShards, loops: configuration.eventLoops)
        let stale =
            "stale-while-revalidate=\(configuration.staleWhileRevalidate), stale-if-error=\(configuration.staleIfError)"
        self.ringHeaders = ImageFormat.allCases.map {
            ImageHeaders(format: $0, cacheControl: "public, max-age=\(configuration.maxAge), \(stale)")
        }
        self.errorHeaders = ImageFormat.allCases.map {
            ImageHeaders(format: $0, cacheControl: "public, max-age=\(configuration.errorMaxAge)")
        }
        let short = [("Cache-Control", "public, max-age=\(configuration.errorMaxAge)")] + Self.commonHeaders
        self.notFound = .text(.notFound, "not found\n", headers: short)
        self.methodNotAllowed = .text(
            .methodNotAllowed, "method not allowed\n", headers: [("Allow", "GET, HEAD")] + short)
        self.accessLog = accessLog
        self.serverStatistics = serverStatistics
        self.pngRenders = RenderGate(limit: configuration.pngRenderLimit)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = accessLog.isEnabled ? MonotonicClock.now() : 0
        let (route, response, cacheState) = route(request)
        metrics.record(route: route, status: response.status.code)
        if accessLog.isEnabled {
            accessLog.record(
                method: request.method.rawValue, path: request.path, query: request.query, status: response.status.code,
                bytes: request.method == .head ? 0 : response.body.count,
                microseconds: Int((MonotonicClock.now() - started) * 1e6), cache: cacheState)
        }
        return response
    }

    /// What a path names.
    private enum Endpoint {
        case image(ImageFormat)
        case healthz, metrics, playground

        init?(path: String) {
            switch path {
            case "/ring.svg": self = .image(.svg)
            case "/ring.png": self = .image(.png)
            case "/healthz": self = .healthz
            case "/metrics": self = .metrics
            case "/": self = .playground
            default: return nil
            }
        }

        var route: Metrics.Route {
            switch self {
            case .image: .ring
            case .healthz: .healthz
            case .metrics: .metrics
            case .playground: .playground
            }
        }
    }

    private func route(_ request: HTTPRequest) -> (Metrics.Route, HTTPResponse, String) {
        guard let endpoint = Endpoint(path: request.path) else { return (.notFound, notFound, "-") }
        guard request.method == .get || request.method == .head else {
            return (endpoint.route, methodNotAllowed, "-")
        }
        let response: HTTPResponse
        switch endpoint {
        case .image(let format):
            let (response, hit) = image(request, format: format)
            return (.ring, response, hit ? "hit" : "miss")
        case .healthz:
            response = .text(.ok, "ok\n", headers: [("Cache-Control", "no-store")] + Self.commonHeaders)
        case .metrics:
            let text = metrics.exposition(
                cache: cache.statistics, cacheCapacity: cache.capacity, server: serverStatistics)
            response = HTTPResponse(
                status: .ok,
                headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")]
                    + Self.commonHeaders,
                body: Array(text.utf8))
        case .playground:
            response = PlaygroundPage.response
        }
        return (endpoint.route, Self.conditional(response, for: request), "-")
    }

    /// The hot path: one cache lookup by raw query; parse and render only on a miss.
    private func image(_ request: HTTPRequest, format: ImageFormat) -> (HTTPResponse, Bool) {
        let query = ResponseCache.Query(request.query, format: format.rawValue)
        let loop = request.eventLoop
        if let entry = cache.lookup(query: query, loop: loop) {
            return (Self.select(entry, for: request), true)
        }
        let started = MonotonicClock.now()
        guard query.text.utf8.count <= configuration.maxQueryBytes else {
            let message = "query: longer than \(configuration.maxQueryBytes) bytes"
            return (errorResponse(message: message, format: format, request: request), false)
        }
        let spec: RingSpec
        do {
            spec = try RingSpec(query: query.text)
        } catch {
            return (errorResponse(message: error.description, format: format, request: request), false)
        }
        let digest = spec.digest
        // `scale` is not part of the digest (it does not change the ring): the PNG's key adds it.
        let key = ResponseCache.Key(digest: digest, format: format.variant(scale: spec.scale))
        if let entry = cache.lookup(key: key, aliasing: query, loop: loop) {
            return (Self.select(entry, for: request), false)
        }
        let body: [UInt8]
        switch format {
        case .svg:
            body = RingRenderer.render(spec, digest: digest)
        case .png:
            let scene = RingScene(spec: spec)
            if let refusal = configuration.raster.refusal(scene, scale: spec.scale) {
                return (errorResponse(message: refusal, format: format, request: request), false)
            }
            let (width, height) = RingRasterizer.pixelSize(of: scene, scale: spec.scale)
            let gated = width * height > configuration.pngGatePixels
            guard let rendered = renderPNG(scene, scale: spec.scale, gated: gated) else { return (Self.busy, false) }
            body = rendered
        }
        metrics.recordRender(seconds: MonotonicClock.now() - started)
        let entry = makeEntry(
            body: body, etag: Self.etag("r", format, scale: spec.scale, digest),
            shared: ringHeaders[Int(format.rawValue)])
        cache.insert(entry, key: key, query: query)
        return (Self.select(entry, for: request), false)
    }

    /// Renders a PNG; a `gated` (large) one only if fewer than `pngRenderLimit` are running,
    /// else nil. Renders run on the loop that asked, so the bound keeps a flood of distinct
    /// large PNGs from taking every loop.
    private func renderPNG(_ scene: RingScene, scale: Int, gated: Bool) -> [UInt8]? {
        guard gated else { return RingRasterizer.png(scene, scale: scale) }
        guard pngRenders.enter() else {
            metrics.recordPNGRefused()
            return nil
        }
        defer { pngRenders.leave() }
        return RingRasterizer.png(scene, scale: scale)
    }

    /// The answer to a PNG that cannot be rendered now: retry in a second, and no cache may
    /// keep it.
    private static let busy = HTTPResponse.text(
        .serviceUnavailable, "busy: too many large PNG renders at once, retry\n",
        headers: [("Retry-After", "1"), ("Cache-Control", "no-store")] + commonHeaders)

    /// An invalid query still gets an image (image proxies drop non-2xx answers), with the
    /// message in `X-Ring-Error` and a short max-age.
    private func errorResponse(message: String, format: ImageFormat, request: HTTPRequest) -> HTTPResponse {
        metrics.recordRenderError()
        let body = format == .svg ? ErrorImage.render(message: message) : ErrorImage.png(message: message)
        let entry = makeEntry(
            body: body, etag: Self.etag("e", format, scale: 1, RingDigest(of: message)),
            shared: errorHeaders[Int(format.rawValue)], extra: [("X-Ring-Error", Self.headerSafe(message))])
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

    /// The 200, the 304 or a 412, as the request's preconditions decide. An image's
    /// `Last-Modified` is the renderer version's date.
    private static func select(_ entry: ResponseCache.Entry, for request: HTTPRequest) -> HTTPResponse {
        guard request.hasPreconditions else { return entry.ok }
        switch Preconditions.evaluate(request, etag: entry.etag, lastModified: RingRenderer.versionDate) {
        case .proceed: return entry.ok
        case .notModified: return entry.notModified
        case .failed: return preconditionFailed
        }
    }

    /// Preconditions on a response with no validators: `*` matches, any tag or date does not.
    private static func conditional(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard request.hasPreconditions else { return response }
        switch Preconditions.evaluate(request, etag: nil, lastModified: nil) {
        case .proceed: return response
        case .notModified: return HTTPResponse(status: .notModified, headers: commonHeaders)
        case .failed: return preconditionFailed
        }
    }

    private static let preconditionFailed = HTTPResponse.text(
        .preconditionFailed, "precondition failed\n", headers: commonHeaders)

    /// A strong ETag: `r` for a ring or `e` for an error image, the renderer version, the
    /// format (with a PNG's scale past 1, as `png@2x`) and the 128-bit digest, so a new
    /// renderer invalidates every copy downstream and two different images never share a tag.
    private static func etag(_ kind: StaticString, _ format: ImageFormat, scale: Int, _ digest: RingDigest) -> String {
        var writer = ByteWriter(capacity: 64)
        writer.append("\"")
        writer.append(kind)
        writer.append(integer: RingRenderer.version)
        writer.append("-")
        writer.append(format.tag)
        if format == .png, scale > 1 {
            writer.append("@")
            writer.append(integer: scale)
            writer.append("x")
        }
        writer.append("-")
        digest.write(hexInto: &writer)
        writer.append("\"")
        return writer.text
    }

    /// Header values stay printable ASCII: `…` becomes `...`, anything else is escaped.
    static func headerSafe(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "…" {
                result += "..."
            } else if scalar.value >= 0x20, scalar.value < 0x7F {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return result
    }

    /// The constant headers of image responses, serialized once for all of them. The 304
    /// leaves out `Content-Type` and `Last-Modified`: it carries the `ETag` (RFC 9110 §15.4.5).
    private struct ImageHeaders {
        var ok: HTTPHeaderBlock
        var notModified: HTTPHeaderBlock

        init(format: ImageFormat, cacheControl: String) {
            let cache = [("Cache-Control", cacheControl)]
            ok = HTTPHeaderBlock(
                [("Content-Type", format.contentType)] + cache
                    + [("Last-Modified", HTTPDate.format(RingRenderer.versionDate))] + RingService.imageHeaders)
            notModified = HTTPHeaderBlock(cache + RingService.imageHeaders)
        }
    }

    /// By ``ImageFormat`` raw value.
    private let ringHeaders: [ImageHeaders]
    private let errorHeaders: [ImageHeaders]
    private let notFound: HTTPResponse
    private let methodNotAllowed: HTTPResponse

    static let commonHeaders: [(String, String)] = [("X-Content-Type-Options", "nosniff")]

    static let imageHeaders: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Cross-Origin-Resource-Policy", "cross-origin"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
    ]
}

/// The image formats served, each on its own route, with its own cache entries and ETags.
enum ImageFormat: UInt8, CaseIterable {
    case svg = 0
    case png = 1

    var contentType: String {
        switch self {
        case .svg: "image/svg+xml; charset=utf-8"
        case .png: "image/png"
        }
    }

    /// The format's part of an ETag.
    var tag: StaticString {
        switch self {
        case .svg: "svg"
        case .png: "png"
        }
    }

    /// The cache key's output variant: the SVG ignores `scale`; each PNG scale is its own image.
    func variant(scale: Int) -> UInt8 {
        switch self {
        case .svg: 0
        case .png: 0x10 | UInt8(truncatingIfNeeded: scale)
        }
    }
}
