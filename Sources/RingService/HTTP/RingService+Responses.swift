import HTTPServer
import Primitives
import RingCore
import RingRaster

/// The responses the routes share: error images, 503s, preconditions, and the header blocks
/// every image answer carries.
extension RingService {
    /// `microseconds` as whole milliseconds, or to a tenth below 10.
    static func milliseconds(_ microseconds: Double) -> String {
        let tenths = Int((microseconds / 100).rounded())
        return tenths >= 100 ? "\(tenths / 10) ms" : "\(tenths / 10).\(tenths % 10) ms"
    }

    /// The answer to a new ring that cannot be rendered now, where there is no image to make
    /// (a caller without a reply, `/ring.json`): retry in a second, and no cache may keep it.
    static let busy = HTTPResponse.text(
        .serviceUnavailable, "busy: too many renders waiting, retry\n",
        headers: [("Retry-After", "1"), ("Cache-Control", "no-store")] + commonHeaders)

    /// Why a new ring is not rendered now. Each is answered 503 with `Retry-After: 1`.
    enum Refusal: String, CaseIterable {
        case queueFull = "busy: too many renders waiting; retry"
        case largePNGs = "busy: too many large PNGs rendering; retry"
        case draining = "stopping: retry"
    }

    /// What a refusal's bytes are kept by: the words, the format and the box they are laid
    /// out in.
    struct RefusalKey: Hashable {
        var refusal: Refusal
        var format: UInt8
        var box: ErrorScene.Box
    }

    /// Refusal images made, and their bytes. Past ``refusalBytesKept`` the table starts again:
    /// a refusal's box may be as large as a 4 096 px PNG, so a count alone would not bound it.
    struct RefusalImages {
        var images: [RefusalKey: [UInt8]] = [:]
        var bytes = 0
    }

    /// The most bytes of refusal images kept.
    static let refusalBytesKept = 2 << 20

    /// The answer to an image URL whose ring cannot be rendered now: an image in the format
    /// asked for (an `<img>` shows a 503 text as a broken image), laid out through the error
    /// scene in the query's box, with 503, `Retry-After: 1`, `Cache-Control: no-store` and the
    /// words in `X-Ring-Error`. Its bytes are made once for each words, format and box (up to
    /// ``refusalBytesKept``), so a flood of refusals costs the box's parse and a lookup.
    ///
    /// `box` is the valid ring's, when there is one; else it is read from the query. A refusal
    /// already made costs one lookup: in a flood of refused large PNGs, reading the box again
    /// from the query was a tenth of a loop's time.
    func refusal(_ refusal: Refusal, query: ResponseCache.Query, loop: Int, box: ErrorScene.Box? = nil)
        -> HTTPResponse
    {
        let format: ImageFormat = query.format == ImageFormat.png.code ? .png : .svg
        // Keyed by the box, before the error image's own digest is taken.
        let key = RefusalKey(refusal: refusal, format: format.code, box: box ?? ErrorScene.Box(query: query.text))
        let body =
            refusals.withLock { $0.images[key] }
            ?? {
                let answer = RingImage.error(
                    message: refusal.rawValue, query: query.text, format: format, fonts: fonts(loop))
                let bytes = answer.render()
                refusals.withLock { kept in
                    if kept.bytes + bytes.count > Self.refusalBytesKept { kept = RefusalImages() }
                    kept.images[key] = bytes
                    kept.bytes += bytes.count
                }
                return bytes
            }()
        return HTTPResponse(
            status: .serviceUnavailable, shared: refusalHeaders[format.index],
            headers: refusalLines[Refusal.allCases.firstIndex(of: refusal)!], body: body)
    }

    /// A refusal whose words name more than a reason (a live source's host and the flag that
    /// holds it back), made each time: the fetch scheduler bounds how often it happens.
    func refusal(message: String, query: ResponseCache.Query, loop: Int) -> HTTPResponse {
        let format: ImageFormat = query.format == ImageFormat.png.code ? .png : .svg
        let answer = RingImage.error(message: message, query: query.text, format: format, fonts: fonts(loop))
        return refusalResponse(message, format: format, body: answer.render())
    }

    private func refusalResponse(_ words: String, format: ImageFormat, body: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: .serviceUnavailable, shared: refusalHeaders[format.index],
            headers: HTTPHeaderBlock(name: "X-Ring-Error", value: Self.headerSafe(words)), body: body)
    }

    /// The constant lines of a refusal image in each format.
    static func refusalHeaders(_ format: ImageFormat) -> HTTPHeaderBlock {
        .permanent(
            [("Content-Type", format.contentType), ("Retry-After", "1"), ("Cache-Control", "no-store")]
                + imageHeaders)
    }

    /// An invalid query still gets an image (image proxies drop non-2xx answers), laid out
    /// for the box the query asked for, with the message in `X-Ring-Error` and a short max-age.
    /// It is cached like a ring, under the digest of its message and its box (the SVG's box
    /// ignores `scale`, as a ring's does), so a repeated invalid URL is a cache hit.
    ///
    /// A live ring's failure is not cached here (`remember` false): its next request may see
    /// the source answer, and the source cache already keeps the failure.
    ///
    /// `box`: the valid ring's own, when it is refused past a limit; else read from the query.
    func errorResponse(
        message: String, format: ImageFormat, request: HTTPRequest, query: ResponseCache.Query,
        remember: Bool = true, box: ErrorScene.Box? = nil
    ) -> HTTPResponse {
        metrics.recordRenderError(format)
        let answer = RingImage.error(
            message: message, query: query.text, format: format, fonts: fonts(request.eventLoop), box: box)
        guard remember else {
            let entry = Self.makeEntry(
                body: answer.render(), own: Self.errorLines(etag: answer.entityTag, error: message),
                shared: errorHeaders[format.index], isErrorImage: true)
            return Self.select(entry, for: request)
        }
        let key = ResponseCache.Key(digest: answer.digest, format: format.errorVariant)
        if let entry = cache.lookup(key: key, aliasing: query, loop: request.eventLoop) {
            return Self.select(entry, for: request)
        }
        let entry = Self.makeEntry(
            body: answer.render(), own: Self.errorLines(etag: answer.entityTag, error: message),
            shared: errorHeaders[format.index], isErrorImage: true)
        cache.insert(entry, key: key)
        return Self.select(entry, for: request)
    }

    /// A cache entry: the 200 and the 304 of an image (or of an error image), which carry the
    /// same per-ring lines `own`, serialized once.
    static func makeEntry(
        body: [UInt8], own: HTTPHeaderBlock, shared: ImageHeaders, isErrorImage: Bool = false
    ) -> ResponseCache.Entry {
        let ok = HTTPResponse(status: .ok, shared: shared.ok, headers: own, body: body)
        let notModified = HTTPResponse(status: .notModified, shared: shared.notModified, headers: own)
        return ResponseCache.Entry(
            ok: ok, notModified: notModified, lastModified: shared.lastModified, isErrorImage: isErrorImage)
    }

    /// A ring's own header line, after the shared ones: its `ETag`, written from the digest
    /// into the line, with no `String` made on the way.
    static func ownHeaders(_ image: RingImage) -> HTTPHeaderBlock {
        HTTPHeaderBlock(name: "ETag", valueCapacity: RingImage.maximumEntityTagBytes) { image.writeEntityTag(to: $0) }
    }

    /// An error image's own lines: its `ETag` and the message in `X-Ring-Error`.
    static func errorLines(etag: String, error: String) -> HTTPHeaderBlock {
        HTTPHeaderBlock([("ETag", etag), ("X-Ring-Error", Self.headerSafe(error))])
    }

    /// The 200, the 304 or a 412, as the request's preconditions decide. An image's
    /// `Last-Modified` is its format's renderer version's date.
    static func select(_ entry: ResponseCache.Entry, for request: HTTPRequest) -> HTTPResponse {
        guard request.hasPreconditions else { return entry.ok }
        switch Preconditions.evaluate(request, etag: entry.etag, lastModified: entry.lastModified) {
        case .proceed: return entry.ok
        case .notModified: return entry.notModified
        case .failed: return preconditionFailed
        }
    }

    /// Preconditions on a response with no validators: `*` matches, any tag or date does not.
    static func conditional(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard request.hasPreconditions else { return response }
        switch Preconditions.evaluate(request, etag: nil, lastModified: nil) {
        case .proceed: return response
        case .notModified: return HTTPResponse(status: .notModified, headers: commonHeaders)
        case .failed: return preconditionFailed
        }
    }

    static let preconditionFailed = HTTPResponse.text(
        .preconditionFailed, "precondition failed\n", headers: commonHeaders)

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
    /// A live ring's have no `Cache-Control`: each answer carries its own freshness.
    struct ImageHeaders: Sendable {
        var ok: HTTPHeaderBlock
        var notModified: HTTPHeaderBlock
        var lastModified: Int

        init(format: ImageFormat, cacheControl: String?) {
            let cache = cacheControl.map { [("Cache-Control", $0)] } ?? []
            lastModified = format.versionDate
            ok = .permanent(
                [("Content-Type", format.contentType)] + cache
                    + [("Last-Modified", HTTPDate.format(format.versionDate))] + RingService.imageHeaders)
            notModified = .permanent(cache + RingService.imageHeaders)
        }
    }

    static let commonHeaders: [(String, String)] = [("X-Content-Type-Options", "nosniff")]

    static let imageHeaders: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Cross-Origin-Resource-Policy", "cross-origin"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
    ]
}
