import HTTPServer
import Primitives
import RingCore
import RingRaster

extension RingService {
    /// `/ring.json?QUERY`: what the server makes of a query, for tools, CI scripts and the
    /// playground. A valid query gets 200 with its canonical key, digest, ring values and
    /// non-default parameters as parsed, and for each format the URL, ETag and size the image
    /// route would answer with, or the message it would refuse with. An invalid one gets 400
    /// with every error and the parameter it names (``RingSpec/errors(inQuery:)``).
    ///
    /// Nothing is rendered and nothing is cached: a description costs about what a new SVG's
    /// parse and admission cost, and its ETag is the digest of its own bytes, so it moves
    /// whenever anything in it does (a renderer version, the fonts, a limit).
    ///
    /// A live ring's description (`src=`) reads its document first, as the image would: its
    /// `rings` and formats are those of the ring the document's values make, `source` says
    /// where they came from, and it is cached as that ring is. When the document gives no
    /// ring, the answer is 502 with the error. It may be answered later, through `reply`.
    func describe(_ request: HTTPRequest, reply: HTTPReply?, started: Double) -> HTTPResponse? {
        let query = request.query
        let errors: [RingSpecError]
        var spec: RingSpec?
        if query.utf8.count > configuration.maxQueryBytes {
            errors = [.unfit(parameter: "query", rule: "longer than \(configuration.maxQueryBytes) bytes")]
        } else {
            errors = RingSpec.errors(inQuery: query)
            if errors.isEmpty { spec = try? RingSpec(query: query) }
        }
        guard let spec else {
            return invalid(
                errors.map { error in
                    let suggestion: String? = if case .unknown(_, let suggestion) = error { suggestion } else { nil }
                    return (error.parameter, error.description, suggestion)
                }, request)
        }
        if spec.isTimed {
            let elapsed = spec.resolving(at: configuration.wallClock.now())
            return described(spec, ring: elapsed.ring, source: nil, time: elapsed, request: request)
        }
        guard spec.isLive else { return described(spec, ring: spec, source: nil, request: request) }
        guard let sources, let url = spec.source else {
            return invalid(
                [("src", "src: live values are disabled on this server (ring serve --source-allow HOSTS)", nil)],
                request)
        }
        if let refusal = configuration.sources.refusal(of: url) {
            return invalid([("src", "src: \(refusal)", nil)], request)
        }
        let answer: @Sendable (LiveSources.Answer) -> HTTPResponse = { [self] answer in
            switch answer {
            case .failure(let failure):
                // A fetch refused its turn is this server's limit, not the source's fault.
                let status: HTTPStatus = failure.kind == .busy ? .serviceUnavailable : .badGateway
                return invalid([("src", "src: \(failure.message)", nil)], request, status: status)
            case .document(let document, let freshFor, let stale):
                switch Self.read(spec, from: document) {
                case .failure(let error):
                    let parameter = String(error.message.prefix { $0 != ":" })
                    return invalid([(parameter, error.message, nil)], request, status: .badGateway)
                case .success(let ring):
                    let freshness = LiveFreshness(
                        format: .svg, maxAge: stale ? configuration.errorMaxAge : freshFor, stale: stale)
                    return described(spec, ring: ring, source: (url, freshness), request: request)
                }
            }
        }
        guard let reply else { return sources.readWaiting(url).map(answer) ?? Self.busy }
        let now = sources.read(url) { [self] fetched in
            reply.send(finish(request, .json, answer(fetched), .miss, started))
        }
        return now.map(answer)
    }

    /// 400 (or `status`) with every error, each with its parameter and any suggestion.
    private func invalid(
        _ errors: [(parameter: String, message: String, suggestion: String?)], _ request: HTTPRequest,
        status: HTTPStatus = .badRequest
    ) -> HTTPResponse {
        var json = JSONWriter()
        json.object { json in
            json.key("valid")
            json.bool(false)
            json.key("errors")
            json.array { json in
                for error in errors {
                    json.object { json in
                        json.key("parameter")
                        json.string(error.parameter)
                        json.key("message")
                        json.string(error.message)
                        if let suggestion = error.suggestion {
                            json.key("suggestion")
                            json.string(suggestion)
                        }
                    }
                }
            }
        }
        return Self.jsonResponse(status, json.bytes, cacheControl: errorCacheControl, request: request)
    }

    /// 200 for a valid query: `query`'s identity (its canonical key and digest) and the ring
    /// it draws, `ring`, which for a live ring is the one its document's values make.
    private func described(
        _ query: RingSpec, ring: RingSpec, source: (url: SourceURL, freshness: LiveFreshness)?,
        time: RingSpec.Elapsed? = nil, request: HTTPRequest
    ) -> HTTPResponse {
        var query = query
        var ring = ring
        var json = JSONWriter()
        let digest = RingSpec.digest(of: &query)
        let ringDigest = RingSpec.digest(of: &ring)
        json.object { json in
            json.key("valid")
            json.bool(true)
            json.key("canonical")
            json.string(query.canonicalKey)
            json.key("digest")
            json.string(digest.description)
            json.key("rings")
            json.array { json in
                for index in 0..<ring.ringCount {
                    let values = ring.ring(index)
                    Self.write(values, text: RingScene.percentageText(values.percentage, ring), into: &json)
                }
            }
            if ring.stack {
                // Each part's value, its share of the whole, and its name.
                json.key("parts")
                json.array { json in
                    for index in ring.values.indices {
                        let part = ring.part(index)
                        json.object { json in
                            json.key("name")
                            if index < ring.partNames.count { json.string(ring.partNames[index]) } else { json.null() }
                            json.key("value")
                            json.number(part.value)
                            json.key("percentage")
                            json.number(part.percentage)
                            json.key("percentageText")
                            json.string(RingScene.percentageText(ring, ring: index))
                        }
                    }
                }
            }
            json.key("parameters")
            json.object { json in
                for (name, value) in query.canonicalParameters {
                    json.key(name)
                    json.string(value)
                }
            }
            if let source {
                json.key("source")
                json.object { json in
                    json.key("url")
                    json.string(source.url.description)
                    json.key("state")
                    json.string(source.freshness.stale ? "stale" : "fresh")
                    json.key("maxAge")
                    json.number(Double(source.freshness.maxAge))
                }
            }
            if let time {
                // Time progress: the share elapsed now, and when the drawing next changes.
                let now = configuration.wallClock.now()
                json.key("time")
                json.object { json in
                    json.key("percentage")
                    json.number(time.percentage)
                    json.key("drawn")
                    json.number(time.ring.values[0])
                    json.key("nextChange")
                    if let next = time.nextChange { json.string(Moment.text(next)) } else { json.null() }
                    json.key("maxAge")
                    json.number(Double(Self.maxAge(until: time.nextChange, now: now)))
                }
            }
            for format in ImageFormat.allCases {
                json.key(format == .svg ? "svg" : "png")
                write(ring, digest: ringDigest, identity: query, format: format, into: &json)
            }
            json.key("errors")
            json.array { _ in }
        }
        let cacheControl =
            source.map {
                "public, max-age=\($0.freshness.maxAge), stale-if-error=\(configuration.sources.stale)"
            } ?? ringCacheControl
        return Self.jsonResponse(.ok, json.bytes, cacheControl: cacheControl, request: request)
    }

    /// What the image route would answer for `spec` in `format`: its URL, ETag and size, or
    /// the message of the error image it would answer instead.
    /// The URL is `identity`'s: a live ring's stays its `src=` URL, which follows the document.
    private func write(
        _ spec: RingSpec, digest: RingDigest, identity: RingSpec, format: ImageFormat, into json: inout JSONWriter
    ) {
        json.object { json in
            let image: RingImage
            do throws(RingImage.Refusal) {
                image = try RingImage(
                    valid: spec, format: format, digest: digest, limits: configuration.raster,
                    fonts: configuration.fonts)
            } catch {
                json.key("error")
                json.string(error.message)
                return
            }
            if let refusal = admission(spec, image, format: format).refusal {
                json.key("error")
                json.string(refusal)
                return
            }
            let scale = format == .png && spec.scale > 1 ? "&scale=\(spec.scale)" : ""
            json.key("url")
            json.string("/ring.\(format == .svg ? "svg" : "png")?\(identity.canonicalKey)\(scale)")
            json.key("etag")
            json.string(image.entityTag)
            let (width, height) = image.pixelSize
            json.key("width")
            json.number(width)
            json.key("height")
            json.number(height)
            if format == .png {
                json.key("missingCharacters")
                json.array { json in
                    for character in image.missingCharacters {
                        json.string(
                            character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
                                .joined(separator: " "))
                    }
                }
            }
        }
    }

    /// One ring's values: as given, and as drawn (the fraction of the arc, the percentage, and
    /// the percentage as the label writes it, which the playground uses for alt text).
    private static func write(_ ring: RingSpec.Ring, text: String, into json: inout JSONWriter) {
        json.object { json in
            for (name, value) in [("value", ring.value), ("min", ring.minimum), ("max", ring.maximum)] {
                json.key(name)
                json.number(value)
            }
            json.key("target")
            if let target = ring.target { json.number(target) } else { json.null() }
            json.key("fraction")
            json.number(ring.fraction)
            json.key("percentage")
            json.number(ring.percentage)
            json.key("percentageText")
            json.string(text)
        }
    }

    /// A JSON answer with the caching headers of the image it describes, a strong ETag that
    /// is the digest of its bytes, and the request's preconditions applied.
    private static func jsonResponse(
        _ status: HTTPStatus, _ body: [UInt8], cacheControl: String, request: HTTPRequest
    ) -> HTTPResponse {
        let etag = "\"j-\(body.withUnsafeBytes { RingDigest(of: $0) }.description)\""
        let cache = [("Cache-Control", cacheControl), ("ETag", etag)] + jsonHeaders
        if request.hasPreconditions, status == .ok {
            switch Preconditions.evaluate(request, etag: etag, lastModified: nil) {
            case .proceed: break
            case .notModified: return HTTPResponse(status: .notModified, headers: cache)
            case .failed: return HTTPResponse.text(.preconditionFailed, "precondition failed\n", headers: commonHeaders)
            }
        }
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + cache, body: body)
    }

    /// Any page may read a description, as any page may show a ring.
    private static let jsonHeaders: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"), ("X-Content-Type-Options", "nosniff"),
    ]
}
