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
    /// What a PNG's text is drawn with.
    public let fonts: LabelFonts

    /// Validates `spec` (a spec from `RingSpec(query:)` is valid already), and for a
    /// PNG checks its pixel size and memory against `limits`; a PNG's text is drawn with
    /// `fonts`. The error is the message a user sees, naming the parameter to change.
    public init(
        spec: RingSpec, format: Format, limits: RasterLimits = RasterLimits(), fonts: LabelFonts = .embedded
    ) throws(RingImage.Refusal) {
        var spec = spec
        do {
            try spec.validate()
        } catch {
            throw Refusal(message: error.description)
        }
        spec = spec.normalized()
        try self.init(valid: spec, format: format, digest: spec.digest, limits: limits, fonts: fonts)
    }

    /// For a spec the parser gave (valid and normalised) whose digest the caller has already:
    /// the service looks the ring up in its cache by that digest before it renders.
    package init(
        valid spec: RingSpec, format: Format, digest: RingDigest, limits: RasterLimits,
        fonts: LabelFonts = .embedded
    ) throws(RingImage.Refusal) {
        // A live ring's values are a document's, which only the service reads.
        guard !spec.isLive else { throw Refusal(message: Self.liveRefusal) }
        let scene = RingScene(spec: spec)
        if format == .png, let refusal = limits.refusal(scene, scale: spec.scale) {
            throw Refusal(message: refusal)
        }
        self.spec = spec
        self.format = format
        self.digest = digest
        self.scene = scene
        self.fonts = fonts
    }

    /// Why a live ring (`src=`) is not drawn here: its values come from its document, which
    /// `ring serve` reads (`RingSpec.resolving(values:maximums:)` gives the ring to draw).
    public static let liveRefusal =
        "src: a live ring is drawn by ring serve, which reads its document; write the values with p to draw it here"

    /// The image's size in pixels: a PNG's at its scale, an SVG's at 1.
    public var pixelSize: (width: Int, height: Int) {
        RingRasterizer.pixelSize(of: scene, scale: format == .png ? spec.scale : 1)
    }

    /// The image's bytes.
    public func render() -> [UInt8] {
        switch format {
        case .svg: RingRenderer.render(scene: scene, digest: digest)
        case .png: RingRasterizer.png(scene, scale: spec.scale, fonts: fonts)
        }
    }

    /// The characters of a PNG's label and caption that no font has, each drawn as one
    /// `.notdef` box; none for an SVG, whose fonts are the reader's.
    public var missingCharacters: [Character] {
        var missing: [Character] = []
        forEachDrawnLine { missing += fonts.missingCharacters(in: $0) }
        return missing
    }

    /// How many ``missingCharacters`` there are, for the count every PNG render adds to: made
    /// without the arrays the list takes (about 3 000 instructions a PNG).
    public var missingCharacterCount: Int {
        var count = 0
        forEachDrawnLine { count += fonts.missingCharacters(in: $0).count }
        return count
    }

    /// Each line of text a PNG draws with its fonts: the label's and the caption's, each one or
    /// two lines (``RingScene/Label/lines``, without the array); none for an SVG.
    private func forEachDrawnLine(_ body: (String) -> Void) {
        guard format == .png else { return }
        func lines(of text: RingScene.Label?) {
            guard let text else { return }
            body(text.text)
            if let secondLine = text.secondLine { body(secondLine) }
        }
        lines(of: scene.label)
        lines(of: scene.caption)
    }

    /// A strong entity tag, quoted, for this image (`"r8-png@2x-…"`): the format's renderer
    /// version, the format, a PNG's scale, a PNG's fallback fonts and the ring's digest. No two
    /// different images share one, and a change to one format's renderer moves only that
    /// format's tags.
    public var entityTag: String {
        Self.entityTag("r", format, scale: spec.scale, fonts: fonts, digest)
    }

    /// The tag of an image of `kind` (`r` a ring, `e` an error image) with `digest`: a new
    /// renderer invalidates every copy of its format downstream, and an error image never
    /// shares a tag with a ring. A PNG drawn with fallback fonts carries their fingerprint
    /// (`"r8-png-f0123abcd-…"`), so servers with other fonts never claim each other's pixels.
    package static func entityTag(
        _ kind: StaticString, _ format: Format, scale: Int, fonts: LabelFonts, _ digest: RingDigest
    ) -> String {
        var writer = ByteWriter(capacity: 64)
        writeEntityTag(kind, format, scale: scale, fonts: fonts, digest, into: &writer)
        return writer.text
    }

    /// Room for ``entityTag``'s bytes: the longest, `"r8-png@4x-f0123abcd-`, 32 digits and a
    /// quote, is 54 (the scale is at most 4, ``RingLimits/scale``).
    package static let maximumEntityTagBytes = 64

    /// ``entityTag``'s bytes written into `target`, which has room for
    /// ``maximumEntityTagBytes``; returns their count. The service writes them into the `ETag`
    /// line without making a `String`, on every new ring: an SVG's as a copy of its fixed start
    /// then its digest's digits, a PNG's (scale and fonts in it) through a writer.
    package func writeEntityTag(to target: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(target.count >= Self.maximumEntityTagBytes, "room for an entity tag")
        let base = target.baseAddress!
        if format == .svg {
            let start = Self.svgEntityTagStart
            start.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: $0.count) }
            digest.write(hexTo: base + start.count)
            base[start.count + 32] = UInt8(ascii: "\"")
            return start.count + 33
        }
        var writer = ByteWriter(scratch: target)
        Self.writeEntityTag("r", format, scale: spec.scale, fonts: fonts, digest, into: &writer)
        return writer.withBytes { written in
            precondition(written.baseAddress == UnsafePointer(base), "an entity tag fits its room")
            return written.count
        }
    }

    /// What every SVG's tag begins with: a quote, `r`, the SVG renderer's version and `-svg-`.
    private static let svgEntityTagStart = Array("\"r\(Format.svg.rendererVersion)-svg-".utf8)

    private static func writeEntityTag(
        _ kind: StaticString, _ format: Format, scale: Int, fonts: LabelFonts, _ digest: RingDigest,
        into writer: inout ByteWriter
    ) {
        // Few appends, each a call into RingCore: a new SVG's tag is written on every new ring.
        writer.append(byte: UInt8(ascii: "\""))
        writer.append(kind)
        writer.append(integer: format.rendererVersion)
        let fontTag = format == .png ? fonts.tag : nil
        if format == .svg {
            writer.append("-svg-")
        } else if scale == 1, fontTag == nil {
            writer.append("-png-")
        } else {
            writer.append("-png")
            if scale > 1 {
                writer.append("@")
                writer.append(integer: scale)
                writer.append("x")
            }
            if let fontTag {
                let digits = Array("0123456789abcdef".utf8)
                writer.append("-f")
                for shift in stride(from: 28, through: 0, by: -4) {
                    writer.append(byte: digits[Int(fontTag >> UInt64(shift) & 0xF)])
                }
            }
            writer.append(byte: UInt8(ascii: "-"))
        }
        digest.write(hexInto: &writer)
        writer.append(byte: UInt8(ascii: "\""))
    }

    /// The image that answers a query refused with `message`, laid out for the box the query
    /// asked for (`size` × `scale`, else the default; an SVG's box ignores `scale`, as a
    /// ring's does), with its identity: the digest of the message and the box, and its ETag.
    /// `box`: a valid ring's own, when the error is about one; else read from `query`.
    package static func error(
        message: String, query: String, format: Format, fonts: LabelFonts = .embedded, box: ErrorScene.Box? = nil
    ) -> ErrorAnswer {
        var box = box ?? ErrorScene.Box(query: query)
        if format == .svg { box.scale = 1 }
        return ErrorAnswer(
            message: message, format: format, box: box, fonts: fonts,
            digest: RingDigest(
                of: "v\(ErrorScene.layoutVersion) \(box.size)@\(box.scale)\(box.half ? " half" : "") \(message)"))
    }

    /// An error image's identity, and its bytes (the service renders them only on a miss).
    package struct ErrorAnswer {
        package let message: String
        package let format: Format
        package let box: ErrorScene.Box
        package let fonts: LabelFonts
        /// The digest of the message and the box: each box has its own cache entry and ETag.
        package let digest: RingDigest

        package var entityTag: String { RingImage.entityTag("e", format, scale: box.scale, fonts: fonts, digest) }

        package func render() -> [UInt8] {
            switch format {
            case .svg: ErrorImage.render(message: message, box: box)
            case .png: ErrorImage.png(message: message, box: box, fonts: fonts)
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
