import HTTPServer
import RingCore

/// What a live ring's answer says of its value instead of a ring's year-long caching: how
/// long it stays fresh, and whether it is the last good value of a failing source.
struct LiveFreshness: Sendable {
    var format: ImageFormat
    /// `max-age`: the seconds the document stays fresh, or for a stale value the error
    /// image's `max-age`, so clients ask again soon; for time progress, until the drawing
    /// next changes.
    var maxAge: Int
    var stale: Bool
    /// Whether a fetched document gave the value (`X-Ring-Source`, `stale-if-error`), rather
    /// than the clock.
    var fetched = true
}

/// Live values (`src`, `field`, `maxField`): a ring whose values a JSON document gives.
///
/// The request's spec is valid but not drawable until the document is read. With a fresh
/// document at hand (``LiveSources``) the values are read and the ring they make is drawn at
/// once, through the same cache and render path as any ring: its entry is the one of
/// `p=VALUES&…`, so its ETag covers the values. Otherwise the request waits for the fetch,
/// which answers it on a fetch thread; the event loop goes on with other requests.
extension RingService {
    func live(_ spec: RingSpec, _ request: HTTPRequest, _ context: ImageContext) -> ImageOutcome {
        let format = context.format
        let query = ResponseCache.Query(request.query, format: format.code)
        func failure(_ message: String) -> ImageOutcome {
            .now(
                errorResponse(message: message, format: format, request: request, query: query, remember: false),
                cache: .miss)
        }
        guard let sources, let url = spec.source else {
            return failure("src: live values are disabled on this server (ring serve --source-allow HOSTS)")
        }
        if let refusal = configuration.sources.refusal(of: url) { return failure("src: \(refusal)") }
        guard let reply = context.reply else {
            // No reply to keep (tests, tools): wait here, never on an event loop.
            guard let answer = sources.readWaiting(url) else { return failure("src: the fetch did not finish") }
            return resolve(spec, answer, request, context)
        }
        let now = sources.read(url) { [self] answer in
            // On the fetch's thread: render here if cheap, else on the pool, which answers.
            if case .now(let response, _) = resolve(spec, answer, request, context) {
                reply.send(finish(request, format == .svg ? .svg : .png, response, .miss, context.started))
            }
        }
        guard let now else { return .later }
        return resolve(spec, now, request, context)
    }

    /// The answer once the source has answered: the ring its values make, or the error image
    /// naming what went wrong (the fetch, or a field).
    private func resolve(
        _ spec: RingSpec, _ answer: LiveSources.Answer, _ request: HTTPRequest, _ context: ImageContext
    ) -> ImageOutcome {
        let format = context.format
        let query = ResponseCache.Query(request.query, format: format.code)
        func failure(_ message: String) -> ImageOutcome {
            .now(
                errorResponse(message: message, format: format, request: request, query: query, remember: false),
                cache: .miss)
        }
        switch answer {
        case .failure(let problem) where problem.kind == .busy:
            // Refused for load, not for what the URL says: a 503 image, retried in a second
            // and kept by no cache, as the render queue's refusals are.
            return .now(
                refusal(message: "src: \(problem.message)", query: query, loop: request.eventLoop), cache: .none)
        case .failure(let problem):
            return failure("src: \(problem.message)")
        case .document(let document, let freshFor, let stale):
            let ring: RingSpec
            switch Self.read(spec, from: document) {
            case .failure(let error): return failure(error.message)
            case .success(let resolved): ring = resolved
            }
            let text = format == .png && ring.scale > 1 ? "\(ring.canonicalKey)&scale=\(ring.scale)" : ring.canonicalKey
            let freshness = LiveFreshness(
                format: format, maxAge: stale ? configuration.errorMaxAge : freshFor, stale: stale)
            var made = context
            made.live = freshness
            var miss = ResponseCache.Miss(made: ResponseCache.Query(text, format: format.code), loop: request.eventLoop)
            return self.ring(ring, &miss, request, made)
        }
    }

    /// The ring `spec`'s paths make of `document`, or the message of what is missing.
    package static func read(_ spec: RingSpec, from document: JSONDocument) -> Result<RingSpec, LiveError> {
        if spec.fields.isEmpty { return readEndpoint(spec, from: document) }
        var values: [DocumentValue] = []
        var maximums: [DocumentValue] = []
        for (parameter, paths) in [(RingParameter.field, spec.fields), (.maxField, spec.maxFields)] {
            for path in paths {
                switch document.number(at: path) {
                case .success(let text):
                    if parameter == .field { values.append(text) } else { maximums.append(text) }
                case .failure(let refusal):
                    return .failure(LiveError("\(parameter.rawValue): \(refusal.reason)"))
                }
            }
        }
        do throws(RingSpecError) {
            return .success(try spec.resolving(values, maximums: maximums))
        } catch {
            return .failure(LiveError(error.description))
        }
    }

    /// The ring a shields endpoint document makes (`src` without `field`): its message is the
    /// value, its colour and label the bar's colour and the caption unless the URL sets them,
    /// and `isError` an error image with its message.
    private static func readEndpoint(_ spec: RingSpec, from document: JSONDocument) -> Result<RingSpec, LiveError> {
        guard let endpoint = document.endpoint else {
            return .failure(
                LiveError(
                    "field: is required with src: the path of the value (the document is not a shields endpoint: "
                        + "no schemaVersion 1)"))
        }
        guard let message = endpoint.message else {
            return .failure(LiveError("src: the endpoint document has no message"))
        }
        if endpoint.isError {
            return .failure(LiveError("src: the endpoint reports an error: \(RingSpecError.quote(message))"))
        }
        do throws(RingSpecError) {
            return .success(try spec.resolving(endpoint: message, color: endpoint.color, label: endpoint.label))
        } catch {
            return .failure(LiveError(error.description))
        }
    }

    /// A live ring's entry as the answer to `request`: the 200, 304 or 412 its preconditions
    /// decide, with the document's freshness for `Cache-Control` and `X-Ring-Source`.
    func liveResponse(_ entry: ResponseCache.Entry, to request: HTTPRequest, freshness: LiveFreshness)
        -> HTTPResponse
    {
        let own =
            freshness.fetched
            ? HTTPHeaderBlock([
                ("Cache-Control", "public, max-age=\(freshness.maxAge), stale-if-error=\(configuration.sources.stale)"),
                ("ETag", entry.etag), ("X-Ring-Source", freshness.stale ? "stale" : "fresh"),
            ]) : HTTPHeaderBlock([("Cache-Control", "public, max-age=\(freshness.maxAge)"), ("ETag", entry.etag)])
        let shared = liveHeaders[freshness.format.index]
        if request.hasPreconditions {
            switch Preconditions.evaluate(request, etag: entry.etag, lastModified: entry.lastModified) {
            case .proceed: break
            case .notModified: return HTTPResponse(status: .notModified, shared: shared.notModified, headers: own)
            case .failed: return Self.preconditionFailed
            }
        }
        return HTTPResponse(status: .ok, shared: shared.ok, headers: own, body: entry.ok.body)
    }
}

/// A live ring's failure, as its error image says it.
package struct LiveError: Error, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
