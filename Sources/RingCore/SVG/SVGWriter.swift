/// Serialises a ``RingScene`` as SVG: deterministic, compact, well-formed, with no script,
/// event attribute or external reference whatever the scene holds.
///
/// Arcs are path commands with end points computed here (never dashes or `pathLength`, which
/// renderers disagree on), in pieces of at most 90° (`SVGWriter+Paths.swift`). Element ids and
/// class names are `r` and the ring's 32-hex-digit digest, so several rings inlined in one page
/// never collide.
///
/// The parts live in extensions by concern: the stylesheet and definitions (`+Style`), the
/// track, outline, solid bars and laps (`+Shapes`), gradient bars (`+Gradient`), tick and
/// target marks (`+Marks`) and arc path data (`+Paths`); this file holds the document, the text and the primitives they share.
struct SVGWriter: ~Copyable {
    /// The scene, borrowed for the writer's life (``RingRenderer/render(scene:digest:)`` makes
    /// the writer inside `withUnsafePointer(to:)` and drops it there): a stored copy retained
    /// each of the scene's arrays and strings, and released them, on every new ring.
    private let scenePointer: UnsafePointer<RingScene>
    var scene: RingScene { unsafeAddress { scenePointer } }
    /// The 32 hex digits of the digest, as ASCII bytes held inline (no allocation).
    let idDigits: (UInt64, UInt64, UInt64, UInt64)

    init(scene: UnsafePointer<RingScene>, digest: RingDigest) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { bytes in
            let hex: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                bytes[index] = hex.utf8Start[Int(truncatingIfNeeded: digest.high >> UInt64(60 - 4 * index) & 0xF)]
                bytes[16 + index] = hex.utf8Start[Int(truncatingIfNeeded: digest.low >> UInt64(60 - 4 * index) & 0xF)]
            }
        }
        idDigits = digits
        scenePointer = scene
        // Index loops, here and below: each reads one field of a ring in place instead of
        // copying the whole ring out of the array (measured in docs/performance.md).
        var trackDark: RingColor?
        var hasBars = false
        for index in scene.pointee.rings.indices {
            if trackDark == nil { trackDark = scene.pointee.rings[index].track?.color.dark }
            if scene.pointee.rings[index].bar != nil { hasBars = true }
        }
        self.trackDark = trackDark
        self.hasBars = hasBars
        labelDark = scene.pointee.label?.color.dark
        captionDark = scene.pointee.caption?.color.dark
    }

    /// ``RingScene/point(at:radius:)`` of the scene: a method called on the borrowed scene
    /// would copy it first.
    func point(at degrees: Double, radius: Double) -> (x: Double, y: Double) {
        RingScene.point(at: degrees, radius: radius, centerX: scene.centerX, centerY: scene.centerY)
    }

    func write(into w: inout ByteWriter) {
        Self.openDocument(width: scene.width, height: scene.height, title: scene.title, into: &w)
        writeStyle(into: &w)
        writeDefinitions(into: &w)
        if let background = scene.background {
            w.append("<rect width=\"100%\" height=\"100%\"")
            paint("fill", background, into: &w)
            w.append("/>")
        }
        if let fill = scene.fill {
            circle(radius: fill.radius, into: &w)
            paint("fill", fill.color, into: &w)
            w.append("/>")
        }
        for index in scene.rings.indices {
            if let track = scene.rings[index].track { writeTrack(track, into: &w) }
        }
        for index in scene.rings.indices {
            if let outline = scene.rings[index].outline { writeOutline(outline, into: &w) }
        }
        writeBars(into: &w)
        if let ticks = scene.ticks { writeMarks(ticks, darkClass: "k", haloClass: "kh", into: &w) }
        if let targets = scene.targets { writeMarks(targets, darkClass: "x", haloClass: "xh", into: &w) }
        if let label = scene.label { writeText(label, darkClass: labelDark != nil ? "l" : nil, into: &w) }
        if let caption = scene.caption { writeText(caption, darkClass: captionDark != nil ? "c" : nil, into: &w) }
        w.append("</svg>")
    }

    /// `<svg …>` of `width` × `height` px, an image whose accessible name is `title`, and its
    /// `<title>`: how every SVG the service writes begins, rings and error images alike.
    static func openDocument(width: Double, height: Double, title: String, into w: inout ByteWriter) {
        w.write(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", (width, "\" height=\""),
            (height, "\" viewBox=\"0 0 "), (width, " "), (height, "\" role=\"img\" aria-label=\""))
        w.append(escaping: title)
        w.append("\"><title>")
        w.append(escaping: title)
        w.append("</title>")
    }

    // MARK: Looked up once

    /// The dark-scheme alternates, looked up once.
    let trackDark: RingColor?
    /// Whether any ring has a bar (not every ring is above 0 %).
    let hasBars: Bool
    /// Whether any bar has a dark-scheme colour (a ring of the default palette).
    let labelDark: RingColor?
    let captionDark: RingColor?

    /// A ring's number in ids and class names: nothing for the first (so one ring's SVG is
    /// what it always was), else its index.
    func ringNumber(_ ring: Int, into w: inout ByteWriter) {
        if ring > 0 { w.append(integer: ring) }
    }

    /// The label or the caption: centred text in the label's font stack, bold, with the
    /// dark-scheme class `darkClass` when it switches with the reader's scheme.
    func writeText(_ text: RingScene.Label, darkClass: StaticString?, into w: inout ByteWriter) {
        guard text.fontSize > 0 else { return }
        // A second line is a text of its own: every renderer draws it, where a tspan's dy
        // would depend on each one's line model.
        if text.secondLine != nil {
            for line in text.lines { writeText(line, darkClass: darkClass, into: &w) }
            return
        }
        Self.openText(x: text.x, baseline: text.baseline, fontSize: text.fontSize, into: &w)
        if let darkClass {
            w.append(" class=\"")
            className(darkClass, into: &w, selector: false)
            w.append(byte: UInt8(ascii: "\""))
        }
        paint("fill", text.color.color, into: &w)
        w.append(byte: UInt8(ascii: ">"))
        w.append(escaping: text.text)
        w.append("</text>")
    }

    /// `<text …` centred on `x`, bold, in the label's fonts, left open for its paint.
    static func openText(x: Double, baseline: Double, fontSize: Double, into w: inout ByteWriter) {
        w.write("<text x=\"", (x, "\" y=\""), (baseline, "\" text-anchor=\"middle\" font-family=\""))
        w.append(fontFamily)
        w.write("\" font-size=\"", (fontSize, "\" font-weight=\"700\""))
    }

    /// The label's fonts: sans-serif faces for Latin, then CJK sans faces (resvg otherwise falls
    /// back to a serif face for CJK), then the generic family.
    ///
    /// No emoji family is named. Colour emoji fonts also map the digits, `#`, `*` and spaces
    /// (keycap bases), and Pango, given such a family in the stack, took the digits from it:
    /// "72%" came out as "7 2 %", a third wider, in librsvg with Noto Color Emoji installed.
    /// Emoji still reach an emoji font by every renderer's own fallback.
    static let fontFamily: StaticString = """
        Verdana,DejaVu Sans,Helvetica,Arial,Noto Sans CJK SC,Source Han Sans SC,PingFang SC,Hiragino Sans,\
        Microsoft YaHei,sans-serif
        """

    // MARK: Primitives

    /// ` fill="#rrggbb"` plus ` fill-opacity` when the colour is not opaque.
    func paint(_ property: StaticString, _ color: RingColor, into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: " "))
        w.append(property)
        w.write("=\"", (color, "\""))
        if color.alpha != 255 {
            w.append(byte: UInt8(ascii: " "))
            w.append(property)
            w.write("-opacity=\"", (Decimals(color.opacity, 3), "\""))
        }
    }

    /// A disc as wide as the stroke, where the stroke is.
    func dot(_ stroke: RingScene.Stroke, _ color: RingColor, into w: inout ByteWriter) {
        let point = point(at: stroke.arc.start + stroke.arc.sweep / 2, radius: stroke.radius)
        Self.circle(x: point.x, y: point.y, radius: stroke.width / 2, into: &w)
        paint("fill", color, into: &w)
        w.append("/>")
    }

    /// A filled disc `width` across at `point`.
    func disc(at point: (x: Double, y: Double), width: Double, _ color: RingColor, into w: inout ByteWriter) {
        Self.circle(x: point.x, y: point.y, radius: width / 2, into: &w)
        paint("fill", color, into: &w)
        w.append("/>")
    }

    /// `<circle cx cy r` without closing, centred on the ring.
    func circle(radius: Double, into w: inout ByteWriter) {
        Self.circle(x: scene.centerX, y: scene.centerY, radius: radius, into: &w)
    }

    /// `<circle cx cy r` without closing, for rings and error images alike.
    static func circle(x: Double, y: Double, radius: Double, into w: inout ByteWriter) {
        w.write("<circle cx=\"", (x, "\" cy=\""), (y, "\" r=\""), (radius, "\""))
    }

    /// ` x="0" y="…" width="…" height="…"`: a filter's or mask's region, the whole image.
    func region(y: Double = 0, into w: inout ByteWriter) {
        w.write(" x=\"0\" y=\"", (y, "\" width=\""), (scene.width, "\" height=\""), (scene.height, "\""))
    }

    func appendID(into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: "r"))
        withUnsafeBytes(of: idDigits) { w.append(raw: $0) }
    }

    func className(_ suffix: StaticString, ring: Int = 0, into w: inout ByteWriter, selector: Bool) {
        if selector { w.append(byte: UInt8(ascii: ".")) }
        appendID(into: &w)
        w.append(byte: UInt8(ascii: "-"))
        w.append(suffix)
        ringNumber(ring, into: &w)
    }

}
