import HTTPServer
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
    func describe(_ request: HTTPRequest) -> HTTPResponse {
        let query = request.query
        let errors: [RingSpecError]
        var spec: RingSpec?
        if query.utf8.count > configuration.maxQueryBytes {
            errors = [.unfit(parameter: "query", rule: "longer than \(configuration.maxQueryBytes) bytes")]
        } else {
            errors = RingSpec.errors(inQuery: query)
            if errors.isEmpty { spec = try? RingSpec(query: query) }
        }
        var json = JSONWriter()
        guard var spec else {
            json.object { json in
                json.key("valid")
                json.bool(false)
                json.key("errors")
                Self.write(errors, into: &json)
            }
            return Self.jsonResponse(.badRequest, json.bytes, cacheControl: errorCacheControl, request: request)
        }
        let digest = RingSpec.digest(of: &spec)
        json.object { json in
            json.key("valid")
            json.bool(true)
            json.key("canonical")
            json.string(spec.canonicalKey)
            json.key("digest")
            json.string(digest.description)
            json.key("rings")
            json.array { json in
                for index in 0..<spec.ringCount {
                    Self.write(spec.ring(index), text: RingScene.percentageText(spec, ring: index), into: &json)
                }
            }
            json.key("parameters")
            json.object { json in
                for (name, value) in spec.canonicalParameters {
                    json.key(name)
                    json.string(value)
                }
            }
            for format in ImageFormat.allCases {
                json.key(format == .svg ? "svg" : "png")
                write(spec, digest: digest, format: format, into: &json)
            }
            json.key("errors")
            json.array { _ in }
        }
        return Self.jsonResponse(.ok, json.bytes, cacheControl: ringCacheControl, request: request)
    }

    /// What the image route would answer for `spec` in `format`: its URL, ETag and size, or
    /// the message of the error image it would answer instead.
    private func write(_ spec: RingSpec, digest: RingDigest, format: ImageFormat, into json: inout JSONWriter) {
        json.object { json in
            let image: RingImage
            do throws(RingImage.Refusal) {
                image = try RingImage(
                    valid: spec, format: format.image, digest: digest, limits: configuration.raster,
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
            json.string("/ring.\(format == .svg ? "svg" : "png")?\(spec.canonicalKey)\(scale)")
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

    private static func write(_ errors: [RingSpecError], into json: inout JSONWriter) {
        json.array { json in
            for error in errors {
                json.object { json in
                    json.key("parameter")
                    json.string(error.parameter)
                    json.key("message")
                    json.string(error.description)
                    if case .unknown(_, let suggestion?) = error {
                        json.key("suggestion")
                        json.string(suggestion)
                    }
                }
            }
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
