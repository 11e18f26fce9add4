import HTTPServer
import Primitives
import RingCore
import RingRaster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ring service as an ``HTTPResponder``: `/ring.svg`, `/ring.png`, `/healthz`, `/metrics`
/// and the playground at `/`. Nothing is ever read from the file system because of a URL.
///
/// A repeated URL is one cache lookup. A new ring is parsed on the event loop, its cost
/// estimated (``RenderCost``), and then rendered there if cheap, handed to the
/// ``RenderPool`` if not, or refused with an error image if past the ceiling. Error images
/// are cached like rings, under the digest of their message.
package final class RingService: HTTPResponder {
    /// The product's version: `ring --version`, `ring_build_info` and the image tag
    /// (docs/deployment.md). Bumped by hand at a release.
    package static let version = "0.1.0"

    package let configuration: ServiceConfiguration
    package let cache: ResponseCache
    package let metrics: Metrics
    private let accessLog: AccessLog
    private let serverStatistics: ServerStatistics
    /// Admits large PNG renders, at most `pngRenders` queued or running at once.
    package let pngRenders: RenderGate
    /// Where renders too costly for an event loop run.
    package let pool: RenderPool
    /// What each loop may spend rendering small rings at once (``LoopRenderBudget``).
    let loopRenders: LoopRenderBudget
    /// The configured fonts, a copy for each event loop (``LabelFonts/init(copying:)``): every
    /// new ring's image retains them, and one object for all loops cost each new SVG a cache
    /// line from the other core.
    private let loopFonts: [LabelFonts]

    package init(configuration: ServiceConfiguration, accessLog: AccessLog, serverStatistics: ServerStatistics) {
        self.configuration = configuration
        self.loopFonts = (0..<max(1, configuration.eventLoops)).map { _ in LabelFonts(copying: configuration.fonts) }
        self.metrics = Metrics(loops: configuration.eventLoops)
        self.cache = ResponseCache(
            capacityBytes: configuration.cacheBytes, shards: configuration.cacheShards, loops: configuration.eventLoops,
            admission: configuration.cacheAdmission)
        let stale =
            "stale-while-revalidate=\(configuration.staleWhileRevalidate), stale-if-error=\(configuration.staleIfError)"
        self.ringCacheControl = "public, max-age=\(configuration.maxAge), \(stale)"
        self.errorCacheControl = "public, max-age=\(configuration.errorMaxAge)"
        self.ringHeaders = ImageFormat.allCases.map { [ringCacheControl] in
            ImageHeaders(format: $0, cacheControl: ringCacheControl)
        }
        self.errorHeaders = ImageFormat.allCases.map { [errorCacheControl] in
            ImageHeaders(format: $0, cacheControl: errorCacheControl)
        }
        self.liveHeaders = ImageFormat.allCases.map { ImageHeaders(format: $0, cacheControl: nil) }
        self.refusalHeaders = ImageFormat.allCases.map(Self.refusalHeaders)
        self.refusalLines = Refusal.allCases.map { HTTPHeaderBlock(name: "X-Ring-Error", value: $0.rawValue) }
        self.requestIDs = RequestIDs(loops: configuration.eventLoops)
        self.sources =
            configuration.sources.isEnabled
            ? LiveSources(
                policy: configuration.sources, failureSeconds: configuration.errorMaxAge, metrics: metrics,
                exemptEndpoints: configuration.sourceExemptEndpoints, clock: configuration.sourceClock,
                lookup: configuration.sourceLookup) : nil
        let short = [("Cache-Control", "public, max-age=\(configuration.errorMaxAge)")] + Self.commonHeaders
        self.notFound = .text(
            .notFound,
            "not found: the routes are /ring.svg?QUERY, /ring.png?QUERY, /ring.json?QUERY, / (the playground), "
                + "/healthz and /metrics\n", headers: short)
        self.methodNotAllowed = .text(
            .methodNotAllowed, "method not allowed\n", headers: [("Allow", "GET, HEAD")] + short)
        self.accessLog = accessLog
        self.serverStatistics = serverStatistics
        self.pngRenders = RenderGate(limit: configuration.pngRenders)
        self.loopRenders = LoopRenderBudget(
            loops: configuration.eventLoops, length: Double(configuration.loopTurnMicroseconds) / 1e6)
        // The finish closure is the pool's only reference back: the service owns the pool.
        let finished = Finished()
        self.pool = RenderPool(
            threads: configuration.renderThreadCount, queueLimit: configuration.renderQueue,
            spareMicroseconds: Double(configuration.spareRenderMicroseconds),
            spareBacklog: configuration.eventLoops,
            finish: { entry, key, waiters in finished.service?.answer(waiters, with: entry, key: key) })
        finished.service = self
    }

    /// An event loop's spare turn: queued renders cheap enough for it
    /// (``ServiceConfiguration/spareRenderMicroseconds``), rendered there one after another
    /// until `budget` seconds have passed since the first ended. With none queued, one atomic
    /// load: no lock, no clock.
    package func spareTurn(for budget: Double) -> Bool {
        guard pool.renderSpare() else { return false }
        let first = MonotonicClock.now()
        while MonotonicClock.now() - first < budget, pool.renderSpare() {}
        return true
    }

    /// Lets the pool reach the service without keeping it alive.
    private final class Finished: @unchecked Sendable {  // set once, before any render
        weak var service: RingService?
    }

    /// The response, made now: renders inline whatever it costs (tests, benchmarks, tools).
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        // Without a reply to keep, `answer` never defers.
        answer(request, reply: nil) ?? Self.busy
    }

    /// The response now, or nil when a render thread will send it through `reply`.
    package func respond(to request: HTTPRequest, reply: HTTPReply) -> HTTPResponse? {
        answer(request, reply: reply)
    }

    /// Renders not yet begun are answered 503 at once: the server is going away.
    package func drainBegan() {
        pool.dropQueued { waiter in
            let response = refusal(.draining, query: waiter.query, loop: waiter.request.eventLoop)
            waiter.reply.send(record(waiter, response, cache: .none))
        }
    }

    private func answer(_ request: HTTPRequest, reply: HTTPReply?) -> HTTPResponse? {
        let started = accessLog.isEnabled ? MonotonicClock.now() : 0
        guard let endpoint = Endpoint(path: request.path) else {
            return finish(request, .notFound, notFound, .none, started)
        }
        guard request.method == .get || request.method == .head else {
            return finish(request, endpoint.route, methodNotAllowed, .none, started)
        }
        let response: HTTPResponse
        switch endpoint {
        case .image(let format):
            switch image(request, format: format, reply: reply, started: started) {
            case .now(let response, let cache):
                return finish(request, endpoint.route, response, cache, started)
            case .later: return nil  // counted and logged when answered
            }
        case .json:
            // Its own ETag and preconditions; a live ring's may be answered later.
            guard let response = describe(request, reply: reply, started: started) else { return nil }
            return finish(request, .json, response, .none, started)
        case .healthz:
            response = .text(.ok, "ok\n", headers: [("Cache-Control", "no-store")] + Self.commonHeaders)
        case .metrics:
            let text = metrics.exposition(
                cache: cache.statistics, cacheCapacity: cache.capacity, server: serverStatistics,
                pool: Metrics.PoolStatistics(queued: pool.queued, running: pool.running, threads: pool.threads),
                sources: sources?.statistics ?? (0, 0))
            response = HTTPResponse(
                status: .ok,
                headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")]
                    + Self.commonHeaders,
                body: Array(text.utf8))
        case .playground:
            response = PlaygroundPage.response
        }
        return finish(request, endpoint.route, Self.conditional(response, for: request), .none, started)
    }

    /// Event loop `loop`'s copy of the fonts.
    func fonts(_ loop: Int) -> LabelFonts { loopFonts[loop % loopFonts.count] }

    /// Counts and logs an answer, and passes it on.
    func finish(
        _ request: HTTPRequest, _ route: Metrics.Route, _ response: HTTPResponse, _ cache: AccessLog.CacheOutcome,
        _ started: Double
    ) -> HTTPResponse {
        metrics.record(route: route, status: response.status.code, loop: request.eventLoop)
        return identified(request, response, route: route, cache: cache, started: started)
    }

    /// Counts and logs the answer a render thread sends to a request that waited for it.
    private func record(_ waiter: RenderPool.Waiter, _ response: HTTPResponse, cache: AccessLog.CacheOutcome)
        -> HTTPResponse
    {
        let route: Metrics.Route = waiter.query.format == ImageFormat.png.code ? .png : .svg
        metrics.record(route: route, status: response.status.code)
        return identified(waiter.request, response, route: route, cache: cache, started: waiter.started)
    }

    /// The answer with its request id (the client's `X-Request-Id`, or one made here when
    /// the access log is on), logged.
    private func identified(
        _ request: HTTPRequest, _ response: HTTPResponse, route: Metrics.Route, cache: AccessLog.CacheOutcome,
        started: Double
    ) -> HTTPResponse {
        let given = request.requestID
        guard accessLog.isEnabled || given != nil else { return response }
        let id = requestIDs.id(for: request, given: given)
        var response = response
        response.requestHeaders = HTTPHeaderBlock(name: "X-Request-Id", value: id)
        if accessLog.isEnabled {
            accessLog.record(
                AccessLog.Entry(
                    client: ClientIdentity.address(of: request, trusting: configuration.trustedProxies),
                    method: request.method.rawValue, target: request.target, minorVersion: request.minorVersion,
                    status: response.status.code, bytes: request.method == .head ? 0 : response.body.count,
                    microseconds: Int((MonotonicClock.now() - started) * 1e6), cache: cache,
                    format: route.labels.format, userAgent: request.header("User-Agent") ?? "",
                    referer: request.header("Referer") ?? "", requestID: id))
        }
        return response
    }

    /// What a path names.
    private enum Endpoint {
        case image(ImageFormat)
        case json, healthz, metrics, playground

        init?(path: String) {
            switch path {
            case "/ring.svg": self = .image(.svg)
            case "/ring.png": self = .image(.png)
            case "/ring.json": self = .json
            case "/healthz": self = .healthz
            case "/metrics": self = .metrics
            case "/": self = .playground
            default: return nil
            }
        }

        var route: Metrics.Route {
            switch self {
            case .image(let format): format == .svg ? .svg : .png
            case .json: .json
            case .healthz: .healthz
            case .metrics: .metrics
            case .playground: .playground
            }
        }
    }

    /// An image answered now (and whether from the cache), or later by a render thread.
    enum ImageOutcome {
        case now(HTTPResponse, cache: AccessLog.CacheOutcome)
        case later
    }

    /// How a request for an image is answered on the miss path, carried beside the request
    /// itself: a copy of an ``HTTPRequest`` in this value retained and released each of its
    /// fields, which cost a new SVG 580 instructions (callgrind, `ring-bench --profile-miss`).
    struct ImageContext {
        let format: ImageFormat
        /// Where a render thread sends the answer; nil: answer now, whatever it costs.
        let reply: HTTPReply?
        /// When the request was taken in, for the access log.
        let started: Double
        /// For a live ring, the freshness its answer carries instead of a ring's caching.
        var live: LiveFreshness? = nil
    }

    /// The hot path: one cache lookup by raw query; parse, estimate and render only on a miss.
    private func image(_ request: HTTPRequest, format: ImageFormat, reply: HTTPReply?, started: Double)
        -> ImageOutcome
    {
        let query = ResponseCache.Query(request.query, format: format.code)
        let loop = request.eventLoop
        if let entry = cache.findInFront(query: query, loop: loop) { return hit(entry, for: request, format: format) }
        let context = ImageContext(format: format, reply: reply, started: started)
        // Parsed before the store is asked, which reads the doorkeeper's word that
        // `findInFront` began to fetch: the parse hides the wait. A query found in the store
        // (asked for again, not yet in this loop's front) wastes its parse; that is rare. Each
        // way out asks the store itself: a spec carried to one call in an optional or a
        // `Result` is copied (424 bytes and a retain per array), which cost a new SVG 490
        // instructions.
        guard query.text.utf8.count <= configuration.maxQueryBytes else {
            if case .found(let entry) = cache.findBehindFront(query: query, loop: loop) {
                return hit(entry, for: request, format: format)
            }
            let message = "query: longer than \(configuration.maxQueryBytes) bytes"
            return .now(
                errorResponse(message: message, format: context.format, request: request, query: query), cache: .miss)
        }
        let spec: RingSpec
        do {
            spec = try RingSpec(query: query.text)
        } catch {
            if case .found(let entry) = cache.findBehindFront(query: query, loop: loop) {
                return hit(entry, for: request, format: format)
            }
            return .now(
                errorResponse(message: error.description, format: context.format, request: request, query: query),
                cache: .miss)
        }
        switch cache.findBehindFront(query: query, loop: loop) {
        case .found(let entry): return hit(entry, for: request, format: format)
        case .absent(var miss):
            if spec.isLive { return live(spec, request, context) }
            if spec.isTimed { return timed(spec, request, context) }
            return ring(spec, &miss, request, context)
        }
    }

    /// A cache hit's answer, counting an error image's.
    private func hit(_ entry: ResponseCache.Entry, for request: HTTPRequest, format: ImageFormat) -> ImageOutcome {
        if entry.isErrorImage { metrics.recordRenderError(format) }
        return .now(Self.select(entry, for: request), cache: .hit)
    }

    /// A valid ring: its entry by digest, or its render, inline or on the pool. `miss` carries
    /// the query the entry is remembered under: the request's own, or for a live ring the
    /// query of the ring its values make (`context.live` then gives the answer the live
    /// ring's caching).
    func ring(
        _ spec: consuming RingSpec, _ miss: inout ResponseCache.Miss, _ request: HTTPRequest, _ context: ImageContext
    ) -> ImageOutcome {
        // Moved, not copied: a copy of a spec retains each of its many fields, and releases them.
        var spec = spec
        let format = context.format
        let loop = request.eventLoop
        let digest = RingSpec.digest(of: &spec)
        // `scale` is not part of the digest (it does not change the ring): the PNG's key adds it.
        let key = ResponseCache.Key(digest: digest, format: format.variant(scale: spec.scale))
        // The scene and the estimate first: the estimate says whether the ring is cheap, and a
        // ring found by digest here is rarely found so (a URL is found by its text once stored).
        let box = ErrorScene.Box(size: spec.size, scale: spec.scale, half: spec.half)
        if format == .png, !spec.half {
            // A full ring's pixels are its size and scale alone: a PNG past the limits, or one
            // meeting a full gate, is answered before its scene is built.
            let side = spec.size * spec.scale
            if let refusal = configuration.raster.refusal(width: side, height: side, scale: spec.scale) {
                return .now(
                    errorResponse(message: refusal, format: format, request: request, query: miss.query, box: box),
                    cache: .miss)
            }
            if let refused = refusedBeforeItsScene(
                spec, side: side, key: key, miss: &miss, box: box, request: request, context)
            {
                return refused
            }
        }
        let image: RingImage
        do throws(RingImage.Refusal) {
            image = try RingImage(
                valid: consume spec, format: format, digest: digest, limits: configuration.raster,
                fonts: fonts(loop))
        } catch {
            return .now(
                errorResponse(message: error.message, format: format, request: request, query: miss.query, box: box),
                cache: .miss)
        }
        let admission = admission(image.spec, image, format: format)
        let inline = admission.cost <= Double(configuration.inlineRenderMicroseconds)
        if let entry = cache.find(key, for: &miss, cheap: format == .svg && inline) {
            return .now(respond(entry, to: request, live: context.live), cache: .hit)
        }
        if let refusal = admission.refusal {
            return .now(
                errorResponse(message: refusal, format: format, request: request, query: miss.query, box: box),
                cache: .miss)
        }
        let headers = ringHeaders[format.index]
        // Past the inline budget, a small ring (one a spare turn may take) is still rendered
        // here while the loop's budget for them lasts: cheaper than the pool's round trip.
        let atOnce =
            !inline && context.reply != nil && admission.gate == nil
            && admission.cost <= Double(configuration.spareRenderMicroseconds)
            && loopRenders.allows(loop: loop, now: MonotonicClock.now())
        guard let reply = context.reply, !inline, !atOnce else {
            let body = RenderJob.render(image, metrics: metrics, loop: loop, budget: atOnce ? loopRenders : nil)
            let own = Self.ownHeaders(image)
            guard miss.stores else {
                return .now(
                    unstored(body, own: own, headers: headers, request: request, live: context.live), cache: .miss)
            }
            let entry = Self.makeEntry(body: body, own: own, shared: headers)
            cache.store(entry, key: key, for: miss)
            return .now(respond(entry, to: request, live: context.live), cache: .stored)
        }
        let job = RenderJob(image: image, headers: headers, metrics: metrics)
        var waiter = RenderPool.Waiter(request: request, reply: reply, query: miss.query, started: context.started)
        waiter.live = context.live
        switch pool.submit(key, waiter: waiter, cost: admission.cost, gate: admission.gate, render: job.entry) {
        case .queued, .joined:
            return .later
        case .queueFull:
            metrics.recordRenderRefused(.queueFull)
            return .now(refusal(.queueFull, query: miss.query, loop: loop, box: box), cache: .none)
        case .gateFull:
            metrics.recordRenderRefused(.largePNG)
            return .now(refusal(.largePNGs, query: miss.query, loop: loop, box: box), cache: .none)
        }
    }

    /// A full ring's large PNG (`side` pixels square, within the limits), while every large-PNG
    /// place is taken: its estimate needs no scene, so it is answered before one is built. Only
    /// a ring not being rendered and not cached is refused here (the same 503
    /// ``ring(_:_:_:_:)`` would give after the scene); any other takes the usual path. Under a
    /// flood of the heaviest PNGs the defaults render, the scene was most of a refusal's cost.
    private func refusedBeforeItsScene(
        _ spec: borrowing RingSpec, side: Int, key: ResponseCache.Key, miss: inout ResponseCache.Miss,
        box: ErrorScene.Box, request: HTTPRequest, _ context: ImageContext
    ) -> ImageOutcome? {
        guard pngRenders.count >= pngRenders.limit else { return nil }
        guard side * side > configuration.pngGatePixels,
            RenderCost.microseconds(spec, pngPixels: side * side) <= Double(configuration.maxRenderMilliseconds) * 1000,
            !pool.isRendering(key)
        else { return nil }
        if let entry = cache.find(key, for: &miss, cheap: false) {
            return .now(respond(entry, to: request, live: context.live), cache: .hit)
        }
        metrics.recordRenderRefused(.largePNG)
        return .now(refusal(.largePNGs, query: miss.query, loop: request.eventLoop, box: box), cache: .none)
    }

    /// The answer to a ring rendered and not stored (asked for the first time): the 200 an
    /// entry would hold, made without the entry, unless the request's preconditions or a live
    /// ring's freshness need one.
    private func unstored(
        _ body: [UInt8], own: HTTPHeaderBlock, headers: ImageHeaders, request: HTTPRequest, live: LiveFreshness?
    ) -> HTTPResponse {
        guard live == nil, !request.hasPreconditions else {
            return respond(Self.makeEntry(body: body, own: own, shared: headers), to: request, live: live)
        }
        return HTTPResponse(status: .ok, shared: headers.ok, headers: own, body: body)
    }

    /// A ring's entry as the answer to `request`: as cached, or with a live ring's freshness.
    private func respond(_ entry: ResponseCache.Entry, to request: HTTPRequest, live: LiveFreshness?) -> HTTPResponse {
        guard let live else { return Self.select(entry, for: request) }
        return liveResponse(entry, to: request, freshness: live)
    }

    /// What is decided about a new ring before it is rendered: its estimated cost, the gate a
    /// large PNG passes, or why it is refused.
    struct Admission {
        var cost: Double
        var gate: RenderGate?
        /// The error image's message for a ring past `--max-render-ms`.
        var refusal: String?
    }

    /// The decision for `image`, the same for a request and for `/ring.json`'s description.
    func admission(_ spec: RingSpec, _ image: RingImage, format: ImageFormat) -> Admission {
        var admission: Admission
        var pixels: Int?
        switch format {
        case .svg:
            admission = Admission(cost: RenderCost.microseconds(spec))
        case .png:
            let (width, height) = image.pixelSize
            pixels = width * height
            admission = Admission(
                cost: RenderCost.microseconds(spec, pngPixels: width * height),
                gate: width * height > configuration.pngGatePixels ? pngRenders : nil)
        }
        if admission.cost > Double(configuration.maxRenderMilliseconds) * 1000 {
            admission.refusal =
                "\(RenderCost.culprit(spec, pngPixels: pixels)): this ring would take about "
                + "\(Self.milliseconds(admission.cost)) to render, past the limit of "
                + "\(configuration.maxRenderMilliseconds) ms"
        }
        return admission
    }

    /// One ring to render, on the loop or on a render thread.
    private struct RenderJob: Sendable {
        var image: RingImage
        var headers: ImageHeaders
        var metrics: Metrics

        /// Past the size whose buffers a render thread keeps (RenderScratch): about 300 px a side.
        static func isLarge(_ image: RingImage) -> Bool {
            guard image.format == .png else { return false }
            let (width, height) = image.pixelSize
            return width * height > 90_000
        }

        @Sendable func entry() -> ResponseCache.Entry {
            Self.entry(image: image, headers: headers, metrics: metrics)
        }

        /// The render and its entry, from borrowed parts.
        static func entry(image: RingImage, headers: ImageHeaders, metrics: Metrics) -> ResponseCache.Entry {
            RingService.makeEntry(
                body: render(image, metrics: metrics), own: RingService.ownHeaders(image), shared: headers)
        }

        /// The render itself, timed and counted: the inline path calls it without making a job,
        /// on event loop `loop` (nil: a render thread, or a loop's spare turn for the pool).
        /// A render `budget` allowed is spent from it.
        static func render(
            _ image: RingImage, metrics: Metrics, loop: Int? = nil, budget: LoopRenderBudget? = nil
        ) -> [UInt8] {
            let started = MonotonicClock.now()
            let body = image.render()
            let seconds = MonotonicClock.now() - started
            metrics.recordRender(image.format, seconds: seconds, loop: loop)
            if let budget, let loop { budget.spend(seconds, loop: loop) }
            metrics.recordNotdef(image.missingCharacterCount)
            // A large render's buffers are gone now: give their pages back at once.
            if Self.isLarge(image) { MemoryPolicy.releaseFreeMemory() }
            return body
        }
    }

    /// On a render thread: stores the entry and answers every request that waited for it.
    private func answer(_ waiters: [RenderPool.Waiter], with entry: ResponseCache.Entry, key: ResponseCache.Key) {
        cache.insert(entry, key: key)
        for waiter in waiters {
            let response = respond(entry, to: waiter.request, live: waiter.live)
            waiter.reply.send(record(waiter, response, cache: .stored))
        }
    }

    /// `Cache-Control` of rings (and their descriptions) and of error images.
    let ringCacheControl: String
    let errorCacheControl: String
    /// By ``ImageFormat`` raw value.
    let ringHeaders: [ImageHeaders]
    let errorHeaders: [ImageHeaders]
    let liveHeaders: [ImageHeaders]
    /// By ``ImageFormat`` index: the constant lines of refusal images.
    let refusalHeaders: [HTTPHeaderBlock]
    /// By ``Refusal`` index: each refusal's `X-Ring-Error` line, written once.
    let refusalLines: [HTTPHeaderBlock]
    /// Ids for requests that bring none.
    let requestIDs: RequestIDs
    /// Refusal images' bytes, made once for each words, format and box.
    let refusals = Locked(RefusalImages())
    /// The documents live rings read; nil when no source host is allowed.
    let sources: LiveSources?
    let notFound: HTTPResponse
    let methodNotAllowed: HTTPResponse
}
