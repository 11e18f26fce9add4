import RingCore

/// The one way from a spec to image bytes, in either format, with the limits enforced: the
/// service, `ring render`, the benchmark and library users all come through here.
///
/// ```swift
/// let image = try RingImage(spec: try RingSpec(query: "p=72&scale=2"), format: .png)
/// let bytes = image.render()  // a 240 × 240 PNG
/// let etag = image.entityTag   // changes with the ring and with the PNG engine only
/// ```
///
/// The scene is built once, here, and both writers draw it. A spec's `scale` matters only
/// here: the PNG draws at it, the SVG ignores it, and ``entityTag`` adds it to a PNG's.
public struct RingImage: Sendable {
    /// What the image is written as; each format has its own renderer version.
    public enum Format: String, Sendable, CaseIterable {
        case svg, png

        /// Bumped whenever the same spec would give different bytes in this format, apart
        /// for each format: a change to the PNG engine moves only PNG tags.
        public var rendererVersion: Int {
            switch self {
            case .svg: RingRenderer.version
            case .png: RingRasterizer.version
            }
        }

        /// When ``rendererVersion`` began, in seconds since 1970: every image's
        /// `Last-Modified` in this format.
        public var versionDate: Int {
            switch self {
            case .svg: RingRenderer.versionDate
            case .png: RingRasterizer.versionDate
            }
        }
    }

    /// The ring, validated and normalised.
    public let spec: RingSpec
    /// What ``render()`` writes.
    public let format: Format
    /// The ring's identity, `RingSpec.digest`.
    public let digest: RingDigest
    /// What both writers draw.
    package let scene: RingScene

    /// Validates `spec` (a spec from `RingSpec(query:)` is valid already), and for a
    /// PNG checks its pixel size and memory against `limits`. The error is the message a user
    /// sees, naming the parameter to change.
    public init(spec: RingSpec, format: Format, limits: RasterLimits = RasterLimits()) throws(RingImage.Refusal) {
        var spec = spec
        do {
            try spec.validate()
        } catch {
            throw Refusal(message: error.description)
        }
        spec = spec.normalized()
        try self.init(valid: spec, format: format, digest: spec.digest, limits: limits)
    }

    /// For a spec the parser gave (valid and normalised) whose digest the caller has already:
    /// the service looks the ring up in its cache by that digest before it renders.
    package init(valid spec: RingSpec, format: Format, digest: RingDigest, limits: RasterLimits)
        throws(RingImage.Refusal)
    {
        let scene = RingScene(spec: spec)
        if format == .png, let refusal = limits.refusal(scene, scale: spec.scale) {
            throw Refusal(message: refusal)
        }
        self.spec = spec
        self.format = format
        self.digest = digest
        self.scene = scene
    }

    /// The image's size in pixels: a PNG's at its scale, an SVG's at 1.
    public var pixelSize: (width: Int, height: Int) {
        RingRasterizer.pixelSize(of: scene, scale: format == .png ? spec.scale : 1)
    }

    /// The image's bytes.
    public func render() -> [UInt8] {
        switch format {
        case .svg: RingRenderer.render(scene: scene, digest: digest)
        case .png: RingRasterizer.png(scene, scale: spec.scale)
        }
    }

    /// A strong entity tag, quoted, for this image (`"r5-png@2x-…"`): the format's renderer
    /// version, the format, a PNG's scale and the ring's digest. No two different images share
    /// one, and a change to one format's renderer moves only that format's tags.
    public var entityTag: String {
        Self.entityTag("r", format, scale: spec.scale, digest)
    }

    /// The tag of an image of `kind` (`r` a ring, `e` an error image) with `digest`: a new
    /// renderer invalidates every copy of its format downstream, and an error image never
    /// shares a tag with a ring.
    package static func entityTag(_ kind: StaticString, _ format: Format, scale: Int, _ digest: RingDigest) -> String {
        var writer = ByteWriter(capacity: 64)
        writer.append("\"")
        writer.append(kind)
        writer.append(integer: format.rendererVersion)
        writer.append(byte: UInt8(ascii: "-"))
        writer.append(format == .svg ? "svg" : "png")
        if format == .png, scale > 1 {
            writer.append("@")
            writer.append(integer: scale)
            writer.append("x")
        }
        writer.append(byte: UInt8(ascii: "-"))
        digest.write(hexInto: &writer)
        writer.append("\"")
        return writer.text
    }

    /// The image that answers a query refused with `message`, laid out for the box the query
    /// asked for (`size` × `scale`, else the default; an SVG's box ignores `scale`, as a
    /// ring's does), with its identity: the digest of the message and the box, and its ETag.
    package static func error(message: String, query: String, format: Format) -> ErrorAnswer {
        var box = ErrorScene.Box(query: query)
        if format == .svg { box.scale = 1 }
        return ErrorAnswer(
            message: message, format: format, box: box, digest: RingDigest(of: "\(box.size)@\(box.scale) \(message)"))
    }

    /// An error image's identity, and its bytes (the service renders them only on a miss).
    package struct ErrorAnswer {
        package let message: String
        package let format: Format
        package let box: ErrorScene.Box
        /// The digest of the message and the box: each box has its own cache entry and ETag.
        package let digest: RingDigest

        package var entityTag: String { RingImage.entityTag("e", format, scale: box.scale, digest) }

        package func render() -> [UInt8] {
            switch format {
            case .svg: ErrorImage.render(message: message, box: box)
            case .png: ErrorImage.png(message: message, box: box)
            }
        }
    }

    /// Why an image is not rendered: the message names the parameter to change.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// What to tell the user, naming the parameter to change.
        public let message: String
        /// ``message``.
        public var description: String { message }
    }
}
