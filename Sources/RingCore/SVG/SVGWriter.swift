#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serialises a ``RingScene`` as SVG: deterministic, compact, well-formed, with no script,
/// event attribute or external reference whatever the scene holds.
///
/// Arcs are path commands with end points computed here (never dashes or `pathLength`, which
/// renderers disagree on); arcs over 180° are split in two so no arc ever has coinciding or
/// ambiguous end points. Element ids and class names are `r` and the ring's 32-hex-digit
/// digest, so several rings inlined in one page never collide.
struct SVGWriter: ~Copyable {
    let scene: RingScene
    /// The 32 hex digits of the digest, as ASCII bytes held inline (no allocation).
    private let idDigits: (UInt64, UInt64, UInt64, UInt64)

    init(scene: consuming RingScene, digest: RingDigest) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { bytes in
            let hex: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                bytes[index] = hex.utf8Start[Int(truncatingIfNeeded: digest.high >> UInt64(60 - 4 * index) & 0xF)]
                bytes[16 + index] = hex.utf8Start[Int(truncatingIfNeeded: digest.low >> UInt64(60 - 4 * index) & 0xF)]
            }
        }
        idDigits = digits
        self.scene = scene
        // Index loops, here and below: each reads one field of a ring in place instead of
        // copying the whole ring out of the array (measured in docs/performance.md).
        var trackDark: RingColor?
        var hasBars = false
        var barsSwitch = false
        for index in self.scene.rings.indices {
            if trackDark == nil { trackDark = self.scene.rings[index].track?.color.dark }
            if self.scene.rings[index].bar != nil { hasBars = true }
            if self.scene.rings[index].bar?.dark != nil { barsSwitch = true }
        }
        self.trackDark = trackDark
        self.hasBars = hasBars
        self.barsSwitch = barsSwitch
        labelDark = self.scene.label?.color.dark
        captionDark = self.scene.caption?.color.dark
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
        if let label = scene.label { writeText(label, darkClass: labelDark != nil ? "l" : nil, into: &w) }
        if let caption = scene.caption { writeText(caption, darkClass: captionDark != nil ? "c" : nil, into: &w) }
        w.append("</svg>")
    }

    /// `<svg …>` of `width` × `height` px, an image whose accessible name is `title`, and its
    /// `<title>`: how every SVG the service writes begins, rings and error images alike.
    static func openDocument(width: Double, height: Double, title: String, into w: inout ByteWriter) {
        w.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        w.append(number: width)
        w.append("\" height=\"")
        w.append(number: height)
        w.append("\" viewBox=\"0 0 ")
        w.append(number: width)
        w.append(byte: UInt8(ascii: " "))
        w.append(number: height)
        w.append("\" role=\"img\" aria-label=\"")
        w.append(escaping: title)
        w.append("\"><title>")
        w.append(escaping: title)
        w.append("</title>")
    }

    // MARK: Style and definitions

    /// The dark-scheme alternates, looked up once.
    private let trackDark: RingColor?
    /// Whether any ring has a bar (not every ring is above 0 %).
    private let hasBars: Bool
    /// Whether any bar has a dark-scheme colour (a ring of the default palette).
    private let barsSwitch: Bool
    private let labelDark: RingColor?
    private let captionDark: RingColor?

    private func writeStyle(into w: inout ByteWriter) {
        let animation = scene.animation
        let switches = trackDark != nil || labelDark != nil || captionDark != nil || barsSwitch
        guard switches || animation != nil else { return }
        w.append("<style>")
        if switches {
            w.append("@media (prefers-color-scheme:dark){")
            for index in scene.rings.indices {
                guard let bar = scene.rings[index].bar, let dark = bar.dark else { continue }
                let shapes = Self.shapes(of: bar)
                if shapes.strokes {
                    className("b", ring: index, into: &w, selector: true)
                    w.append("{stroke:")
                    w.append(rgb: dark)
                    w.append("}")
                }
                if shapes.dots {
                    className("b", ring: index, into: &w, selector: true)
                    w.append("d{fill:")
                    w.append(rgb: dark)
                    w.append("}")
                }
            }
            if let trackDark {
                className("t", into: &w, selector: true)
                w.append("{stroke:")
                w.append(rgb: trackDark)
                w.append("}")
            }
            if let labelDark {
                className("l", into: &w, selector: true)
                w.append("{fill:")
                w.append(rgb: labelDark)
                w.append("}")
            }
            if let captionDark {
                className("c", into: &w, selector: true)
                w.append("{fill:")
                w.append(rgb: captionDark)
                w.append("}")
            }
            w.append("}")
        }
        if let animation {
            // The static attributes already show the final ring; only browsers that run CSS
            // animations and allow motion see it fill in. Each bar has its own keyframes, so
            // every ring fills in over the same time whatever its length.
            w.append("@media (prefers-reduced-motion:no-preference){")
            for index in scene.rings.indices where scene.rings[index].bar != nil {
                className("a", ring: index, into: &w, selector: true)
                w.append("{animation:")
                appendID(into: &w)
                w.append("-f")
                ringNumber(index, into: &w)
                w.append(byte: UInt8(ascii: " "))
                w.append(number: animation, decimals: 3)
                w.append("s ease-out both}")
            }
            w.append(byte: UInt8(ascii: "}"))
            for index in scene.rings.indices {
                guard let bar = scene.rings[index].bar?.stroke else { continue }
                w.append("@keyframes ")
                appendID(into: &w)
                w.append("-f")
                ringNumber(index, into: &w)
                w.append("{from{stroke-dashoffset:")
                w.append(number: maskDashLength(bar))
                w.append("}}")
            }
        }
        w.append("</style>")
    }

    /// Longer than the bar's path, so a single dash covers all of it.
    private func maskDashLength(_ bar: RingScene.Stroke) -> Double {
        (bar.arc.sweep.magnitude * .pi / 180 * bar.radius + bar.width + 2).rounded(.up)
    }

    private func writeDefinitions(into w: inout ByteWriter) {
        guard hasBars, scene.shadow != nil || scene.animation != nil else { return }
        w.append("<defs>")
        if let shadow = scene.shadow {
            // Only a blur: the shadow is its own element under the bar, offset by a transform
            // and dimmed by its opacity, so a renderer without filters (CairoSVG) draws it
            // sharp but in its place, and never moves the bar.
            w.append("<filter id=\"")
            appendID(into: &w)
            w.append("-s\" filterUnits=\"userSpaceOnUse\"")
            region(y: -shadow.offset, into: &w)
            w.append(" color-interpolation-filters=\"sRGB\"><feGaussianBlur stdDeviation=\"")
            w.append(number: shadow.blur)
            w.append("\"/></filter>")
        }
        if scene.animation != nil {
            w.append("<mask id=\"")
            appendID(into: &w)
            w.append("-m\" maskUnits=\"userSpaceOnUse\"")
            region(into: &w)
            w.append(byte: UInt8(ascii: ">"))
            for index in scene.rings.indices {
                guard let bar = scene.rings[index].bar?.stroke else { continue }
                w.append("<path class=\"")
                className("a", ring: index, into: &w, selector: false)
                w.append("\" d=\"")
                arcPath(bar.arc, radius: bar.radius, closed: false, into: &w)
                w.append("\" fill=\"none\" stroke=\"#fff\" stroke-width=\"")
                // Wide enough to uncover the shadow's blur and offset too; neighbouring rings'
                // masks may overlap, since each uncovers only what is there to see.
                let shadowExtent = scene.shadow.map { 2 * (3 * $0.blur + $0.offset) } ?? 0
                w.append(number: bar.width + 2 + shadowExtent)
                w.append(bar.cap == .round ? "\" stroke-linecap=\"round" : "\" stroke-linecap=\"square")
                w.append("\" stroke-dasharray=\"")
                w.append(number: maskDashLength(bar))
                w.append(byte: UInt8(ascii: " "))
                w.append(number: maskDashLength(bar))
                w.append("\"/>")
            }
            w.append("</mask>")
        }
        w.append("</defs>")
    }

    // MARK: Track, outline, bar, label

    private func writeTrack(_ track: RingScene.Track, into w: inout ByteWriter) {
        let stroke = track.stroke
        if !track.segments.isEmpty {
            // One path, a subpath per segment: each gets its caps.
            w.append("<path d=\"")
            for segment in track.segments { arcPath(segment.arc, radius: segment.radius, closed: false, into: &w) }
            w.append("\" stroke-linecap=\"")
            w.append(stroke.cap == .round ? "round" : "butt")
            w.append(byte: UInt8(ascii: "\""))
        } else if stroke.isClosed {
            circle(radius: stroke.radius, into: &w)
        } else {
            w.append("<path d=\"")
            arcPath(stroke.arc, radius: stroke.radius, closed: false, into: &w)
            w.append("\" stroke-linecap=\"")
            w.append(stroke.cap == .round ? "round" : "butt")
            w.append(byte: UInt8(ascii: "\""))
        }
        if trackDark != nil {
            w.append(" class=\"")
            className("t", into: &w, selector: false)
            w.append(byte: UInt8(ascii: "\""))
        }
        w.append(" fill=\"none\"")
        paint("stroke", track.color.color, into: &w)
        w.append(" stroke-width=\"")
        w.append(number: stroke.width)
        w.append("\"/>")
    }

    private func writeOutline(_ outline: RingScene.Outline, into w: inout ByteWriter) {
        if outline.isClosed {
            for radius in [outline.radius + outline.offset, outline.radius - outline.offset] where radius > 0 {
                circle(radius: radius, into: &w)
                outlineStroke(outline, into: &w)
            }
            return
        }
        // One contour: out along the outer edge, round (or across) the end, back along the
        // inner edge, round (or across) the start.
        let arc = outline.arc
        let outer = outline.radius + outline.offset
        let inner = max(outline.radius - outline.offset, 0)
        let back = RingScene.Arc(start: arc.end, sweep: -arc.sweep)
        w.append("<path d=\"")
        arcPath(arc, radius: outer, closed: false, into: &w)
        outlineCap(at: arc.end, outline, from: outer, to: inner, into: &w)
        arcPath(back, radius: inner, closed: false, move: false, into: &w)
        outlineCap(at: arc.start, outline, from: inner, to: outer, into: &w)
        w.append("Z\"")
        outlineStroke(outline, into: &w)
    }

    /// From the outline's edge at `from` to the one at `to`, across the track's end at
    /// `angle`: a semicircle round a round cap (two quarter arcs, so no arc has opposite end
    /// points), a straight line across a butt one.
    private func outlineCap(
        at angle: Double, _ outline: RingScene.Outline, from: Double, to: Double, into w: inout ByteWriter
    ) {
        // The end point is the next arc's start: written with that arc's digits.
        let decimals = Self.arcDecimals(pieceDegrees: Self.pieces(of: outline.arc).sweep.magnitude)
        let end = scene.point(at: angle, radius: to)
        guard outline.cap == .round else {
            w.append(byte: UInt8(ascii: "L"))
            coordinates(end, decimals: decimals, into: &w)
            return
        }
        // The cap bulges forward at the end and backward at the start: in both, turning the same
        // way as the arc runs.
        let centre = scene.point(at: angle, radius: outline.radius)
        let outward = (x: end.x - centre.x, y: end.y - centre.y)  // towards `to`, length `offset`
        let forward = outline.arc.sweep < 0 ? (x: outward.y, y: -outward.x) : (x: -outward.y, y: outward.x)
        let middle = (x: centre.x - forward.x, y: centre.y - forward.y)
        for point in [middle, end] {
            w.append(byte: UInt8(ascii: "A"))
            w.append(number: outline.offset, decimals: decimals)
            w.append(byte: UInt8(ascii: " "))
            w.append(number: outline.offset, decimals: decimals)
            w.append(outline.arc.sweep < 0 ? " 0 0 0 " : " 0 0 1 ")
            coordinates(point, decimals: decimals, into: &w)
        }
    }

    private func outlineStroke(_ outline: RingScene.Outline, into w: inout ByteWriter) {
        w.append(" fill=\"none\"")
        paint("stroke", outline.color, into: &w)
        w.append(" stroke-width=\"")
        w.append(number: outline.width)
        w.append("\"/>")
    }

    /// Every ring's bar (a ring at 0 % has none, so round caps leave no dot), under one
    /// shadow of them all and one animation mask.
    private func writeBars(into w: inout ByteWriter) {
        guard hasBars else { return }
        if scene.animation != nil {
            w.append("<g mask=\"url(#")
            appendID(into: &w)
            w.append("-m)\">")
        }
        if let shadow = scene.shadow {
            w.append("<g filter=\"url(#")
            appendID(into: &w)
            w.append("-s)\" transform=\"translate(0 ")
            w.append(number: shadow.offset)
            w.append(")\" opacity=\"")
            w.append(number: shadow.opacity)
            w.append("\">")
            for index in scene.rings.indices {
                guard let bar = scene.rings[index].bar else { continue }
                solidShapes(bar, RingColor(red: 0, green: 0, blue: 0, alpha: bar.paint.alpha), ring: nil, into: &w)
            }
            w.append("</g>")
        }
        for index in scene.rings.indices {
            guard let bar = scene.rings[index].bar else { continue }
            switch bar.paint {
            case .solid(let color):
                solidShapes(bar, color, ring: index, into: &w)
            case .gradient(let gradient):
                writeGradientBar(bar.stroke, gradient, ring: index, into: &w)
            }
        }
        if scene.animation != nil { w.append("</g>") }
    }

    /// Whether a solid bar is drawn with strokes, with dots (discs), or both.
    private static func shapes(of bar: RingScene.Bar) -> (strokes: Bool, dots: Bool) {
        guard !bar.segments.isEmpty else { return (!bar.stroke.isDot, bar.stroke.isDot) }
        return (bar.segments.contains { !$0.isDot }, bar.segments.contains { $0.isDot })
    }

    /// The bar in one colour: its stroke (a dot when tiny), or with segments one path of its
    /// pieces, each with its caps, and a dot for a piece too short to show its caps. `ring`
    /// names the bar's dark-scheme class when it has one (never on its shadow).
    private func solidShapes(_ bar: RingScene.Bar, _ color: RingColor, ring: Int?, into w: inout ByteWriter) {
        let switching = ring.flatMap { bar.dark == nil ? nil : $0 }
        guard !bar.segments.isEmpty else {
            if bar.stroke.isDot {
                dot(bar.stroke, color, ring: switching, into: &w)
            } else {
                solidBar(bar.stroke, color, ring: switching, into: &w)
            }
            return
        }
        let pieces = bar.segments.filter { !$0.isDot }
        if let first = pieces.first {
            w.append("<path d=\"")
            for piece in pieces { arcPath(piece.arc, radius: piece.radius, closed: false, into: &w) }
            w.append(byte: UInt8(ascii: "\""))
            barClass(ring: switching, dot: false, into: &w)
            w.append(" fill=\"none\"")
            paint("stroke", color, into: &w)
            w.append(" stroke-width=\"")
            w.append(number: first.width)
            w.append(first.cap == .round ? "\" stroke-linecap=\"round\"/>" : "\"/>")
        }
        for piece in bar.segments where piece.isDot { dot(piece, color, ring: switching, into: &w) }
    }

    /// ` class="r…-bN"` (`-bNd` on a dot) for a bar that switches with the scheme.
    private func barClass(ring: Int?, dot: Bool, into w: inout ByteWriter) {
        guard let ring else { return }
        w.append(" class=\"")
        className("b", ring: ring, into: &w, selector: false)
        if dot { w.append(byte: UInt8(ascii: "d")) }
        w.append(byte: UInt8(ascii: "\""))
    }

    private func solidBar(_ stroke: RingScene.Stroke, _ color: RingColor, ring: Int?, into w: inout ByteWriter) {
        w.append("<path d=\"")
        arcPath(stroke.arc, radius: stroke.radius, closed: stroke.isClosed, into: &w)
        w.append(byte: UInt8(ascii: "\""))
        barClass(ring: ring, dot: false, into: &w)
        w.append(" fill=\"none\"")
        paint("stroke", color, into: &w)
        w.append(" stroke-width=\"")
        w.append(number: stroke.width)
        w.append(stroke.cap == .round && !stroke.isClosed ? "\" stroke-linecap=\"round\"/>" : "\"/>")
    }

    /// SVG has no conic gradient: the bar becomes short sub-arcs, each with a linear gradient
    /// along its chord from the colour at its start to the colour at its end, so the colour
    /// runs on without steps however large the ring. Neighbours overlap by at least a pixel at
    /// the bar's inner edge, where a fixed angle would shrink to nothing, so no seam shows.
    ///
    /// The sub-arcs and the round caps are painted opaque and the stops' alpha applied once,
    /// as a group opacity when all stops share it, else as a mask of the same shapes in grey:
    /// overlaps never add up to stripes or darker caps.
    ///
    /// The pieces are a pixel wider than the bar on each side and cut to the bar's exact shape by
    /// one more mask, so the bar's edges are anti-aliased once: otherwise every overlap paints an
    /// edge pixel again, and small rings get visibly bolder edges than a solid bar.
    private func writeGradientBar(
        _ bar: RingScene.Stroke, _ gradient: RingScene.Gradient, ring: Int, into w: inout ByteWriter
    ) {
        guard !bar.isDot else {
            dot(bar, gradient.color(at: 0), into: &w)
            return
        }
        w.append("<mask id=\"")
        gradientID("m", ring: ring, into: &w)
        w.append("\" maskUnits=\"userSpaceOnUse\"")
        region(into: &w)
        w.append(byte: UInt8(ascii: ">"))
        if bar.isClosed {
            circle(radius: bar.radius, into: &w)
        } else {
            w.append("<path d=\"")
            arcPath(bar.arc, radius: bar.radius, closed: false, into: &w)
            w.append(bar.cap == .round ? "\" stroke-linecap=\"round\"" : "\"")
        }
        w.append(" fill=\"none\" stroke=\"#fff\" stroke-width=\"")
        w.append(number: bar.width)
        w.append("\"/></mask><g mask=\"url(#")
        gradientID("m", ring: ring, into: &w)
        w.append(")\">")
        defer { w.append("</g>") }
        let alphas = gradient.stops.map(\.alpha)
        let uniform = alphas.allSatisfy { $0 == alphas[0] }
        if !uniform {
            w.append("<mask id=\"")
            gradientID("a", ring: ring, into: &w)
            w.append("\" maskUnits=\"userSpaceOnUse\"")
            region(into: &w)
            w.append(" color-interpolation=\"sRGB\">")
            gradientShapes(bar, gradient, suffix: "a", ring: ring, into: &w) { color in
                RingColor(red: color.alpha, green: color.alpha, blue: color.alpha)
            }
            w.append("</mask><g mask=\"url(#")
            gradientID("a", ring: ring, into: &w)
            w.append(")\">")
        } else if alphas[0] != 255 {
            w.append("<g opacity=\"")
            w.append(number: Double(alphas[0]) / 255, decimals: 3)
            w.append("\">")
        }
        gradientShapes(bar, gradient, suffix: "c", ring: ring, into: &w) { color in
            RingColor(red: color.red, green: color.green, blue: color.blue)
        }
        if !uniform || alphas[0] != 255 { w.append("</g>") }
    }

    /// The gradient bar's sub-arcs and caps, painted with `paint` of each colour, opaque.
    private func gradientShapes(
        _ bar: RingScene.Stroke, _ gradient: RingScene.Gradient, suffix: StaticString, ring: Int,
        into w: inout ByteWriter, paint colorOf: (RingColor) -> RingColor
    ) {
        let total = gradient.span
        let length = bar.arc.sweep.magnitude
        let sign: Double = bar.arc.sweep < 0 ? -1 : 1
        let count = max(1, Int((length / 6).rounded(.up)))
        let step = length / Double(count)
        // At least 1.5 px at the inner edge. Later sub-arcs paint over earlier ones, so an
        // overlap longer than a sub-arc only hides what the next one covers anyway.
        let inner = max(bar.radius - bar.width / 2, 0.5)
        let overlap = max(0.75, 1.5 / inner * 180 / .pi)
        w.append("<defs>")
        for index in 0..<count {
            let from = Double(index) * step
            let begin = scene.point(at: bar.arc.start + sign * from, radius: bar.radius)
            let end = scene.point(at: bar.arc.start + sign * (from + step), radius: bar.radius)
            w.append("<linearGradient id=\"")
            gradientID(suffix, ring: ring, into: &w)
            w.append(integer: index)
            w.append("\" gradientUnits=\"userSpaceOnUse\" x1=\"")
            w.append(number: begin.x)
            w.append("\" y1=\"")
            w.append(number: begin.y)
            w.append("\" x2=\"")
            w.append(number: end.x)
            w.append("\" y2=\"")
            w.append(number: end.y)
            w.append("\"><stop offset=\"0\" stop-color=\"")
            w.append(rgb: colorOf(gradient.color(at: from / total)))
            w.append("\"/><stop offset=\"1\" stop-color=\"")
            w.append(rgb: colorOf(gradient.color(at: (from + step) / total)))
            w.append("\"/></linearGradient>")
        }
        w.append("</defs>")
        // The round caps go under the sub-arcs, which cover their inner halves: what shows is
        // the half beyond each end, in the colour the bar has there, so the colour runs on
        // through the cap. On top, a flat disc hid half a stroke's width of the gradient and
        // ended in a step (14 levels on a wide bar).
        if bar.cap == .round && !bar.isClosed {
            for (angle, position) in [(bar.arc.start, 0.0), (bar.arc.end, length / total)] {
                disc(
                    at: scene.point(at: angle, radius: bar.radius), width: bar.width + 2 * Self.gradientBleed,
                    colorOf(gradient.color(at: position)), into: &w)
            }
        }
        w.append("<g fill=\"none\" stroke-width=\"")
        w.append(number: bar.width + 2 * Self.gradientBleed)
        w.append("\">")
        for index in 0..<count {
            let from = Double(index) * step
            let isLast = index == count - 1
            let extra = bar.isClosed ? overlap : isLast ? 0 : min(overlap, length - from - step)
            let arc = RingScene.Arc(start: bar.arc.start + sign * from, sweep: sign * (step + extra))
            w.append("<path d=\"")
            arcPath(arc, radius: bar.radius, closed: false, into: &w)
            w.append("\" stroke=\"url(#")
            gradientID(suffix, ring: ring, into: &w)
            w.append(integer: index)
            w.append(")\"/>")
        }
        w.append("</g>")
    }

    /// How far, in pixels, the gradient's pieces reach past the bar's edges under its mask.
    static let gradientBleed = 1.0

    /// `r…-g` with the ring's number (none for the first) and `suffix`: the gradient's
    /// masks (`m`, `a`) and, followed by a piece's number, its sub-arcs' gradients (`c`, `a`).
    private func gradientID(_ suffix: StaticString, ring: Int, into w: inout ByteWriter) {
        appendID(into: &w)
        w.append("-g")
        ringNumber(ring, into: &w)
        w.append(suffix)
    }

    /// A ring's number in ids and class names: nothing for the first (so one ring's SVG is
    /// what it always was), else its index.
    private func ringNumber(_ ring: Int, into w: inout ByteWriter) {
        if ring > 0 { w.append(integer: ring) }
    }

    /// The label or the caption: centred text in the label's font stack, bold, with the
    /// dark-scheme class `darkClass` when it switches with the reader's scheme.
    private func writeText(_ text: RingScene.Label, darkClass: StaticString?, into w: inout ByteWriter) {
        guard text.fontSize > 0 else { return }
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
        w.append("<text x=\"")
        w.append(number: x)
        w.append("\" y=\"")
        w.append(number: baseline)
        w.append("\" text-anchor=\"middle\" font-family=\"")
        w.append(fontFamily)
        w.append("\" font-size=\"")
        w.append(number: fontSize)
        w.append("\" font-weight=\"700\"")
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
    private func paint(_ property: StaticString, _ color: RingColor, into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: " "))
        w.append(property)
        w.append("=\"")
        w.append(rgb: color)
        w.append(byte: UInt8(ascii: "\""))
        if color.alpha != 255 {
            w.append(byte: UInt8(ascii: " "))
            w.append(property)
            w.append("-opacity=\"")
            w.append(number: color.opacity, decimals: 3)
            w.append(byte: UInt8(ascii: "\""))
        }
    }

    /// A disc as wide as the stroke, where the stroke is; `ring` names its dark-scheme class.
    private func dot(_ stroke: RingScene.Stroke, _ color: RingColor, ring: Int? = nil, into w: inout ByteWriter) {
        let point = scene.point(at: stroke.arc.start + stroke.arc.sweep / 2, radius: stroke.radius)
        circle(x: point.x, y: point.y, radius: stroke.width / 2, into: &w)
        barClass(ring: ring, dot: true, into: &w)
        paint("fill", color, into: &w)
        w.append("/>")
    }

    /// A filled disc `width` across at `point`.
    private func disc(at point: (x: Double, y: Double), width: Double, _ color: RingColor, into w: inout ByteWriter) {
        circle(x: point.x, y: point.y, radius: width / 2, into: &w)
        paint("fill", color, into: &w)
        w.append("/>")
    }

    /// `<circle cx cy r` without closing, centred on the ring.
    private func circle(radius: Double, into w: inout ByteWriter) {
        circle(x: scene.centerX, y: scene.centerY, radius: radius, into: &w)
    }

    private func circle(x: Double, y: Double, radius: Double, into w: inout ByteWriter) {
        w.append("<circle cx=\"")
        w.append(number: x)
        w.append("\" cy=\"")
        w.append(number: y)
        w.append("\" r=\"")
        w.append(number: radius)
        w.append(byte: UInt8(ascii: "\""))
    }

    /// ` x="0" y="…" width="…" height="…"`: a filter's or mask's region, the whole image.
    private func region(y: Double = 0, into w: inout ByteWriter) {
        w.append(" x=\"0\" y=\"")
        w.append(number: y)
        w.append("\" width=\"")
        w.append(number: scene.width)
        w.append("\" height=\"")
        w.append(number: scene.height)
        w.append(byte: UInt8(ascii: "\""))
    }

    private func appendID(into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: "r"))
        withUnsafeBytes(of: idDigits) { w.append(raw: $0) }
    }

    private func className(_ suffix: StaticString, ring: Int = 0, into w: inout ByteWriter, selector: Bool) {
        if selector { w.append(byte: UInt8(ascii: ".")) }
        appendID(into: &w)
        w.append(byte: UInt8(ascii: "-"))
        w.append(suffix)
        ringNumber(ring, into: &w)
    }

    /// Path data for `arc`: a move and one arc command per piece of at most 90°, so no arc ends
    /// where it starts or opposite it, written with ``arcDecimals(pieceDegrees:)`` digits.
    /// `closed` adds `Z` for a full circle (no caps).
    ///
    /// A renderer finds an arc's centre from its rounded end points and radius alone. On a
    /// half circle a rounding error ε moves that centre by √(2rε): 3 px on a large half gauge.
    /// A quarter circle or less keeps the error proportional to ε, and the digits keep it
    /// under 0.01 px (`ArcCentreTests` checks every emitted arc).
    private func arcPath(
        _ arc: RingScene.Arc, radius r: Double, closed: Bool, move: Bool = true, into w: inout ByteWriter
    ) {
        let (pieces, piece) = Self.pieces(of: arc)
        let decimals = Self.arcDecimals(pieceDegrees: piece.magnitude)
        if move {
            w.append(byte: UInt8(ascii: "M"))
            coordinates(scene.point(at: arc.start, radius: r), decimals: decimals, into: &w)
        }
        for index in 1...pieces {
            w.append(byte: UInt8(ascii: "A"))
            w.append(number: r, decimals: decimals)
            w.append(byte: UInt8(ascii: " "))
            w.append(number: r, decimals: decimals)
            w.append(arc.sweep < 0 ? " 0 0 0 " : " 0 0 1 ")
            coordinates(scene.point(at: arc.start + piece * Double(index), radius: r), decimals: decimals, into: &w)
        }
        if closed { w.append(byte: UInt8(ascii: "Z")) }
    }

    /// How many arc commands draw `arc`, and the sweep of each.
    private static func pieces(of arc: RingScene.Arc) -> (count: Int, sweep: Double) {
        let count = max(1, Int((arc.sweep.magnitude / 90).rounded(.up)))
        return (count, arc.sweep / Double(count))
    }

    /// `x y`.
    private func coordinates(_ point: (x: Double, y: Double), decimals: Int, into w: inout ByteWriter) {
        w.append(number: point.x, decimals: decimals)
        w.append(byte: UInt8(ascii: " "))
        w.append(number: point.y, decimals: decimals)
    }

    /// The fewest digits after the point (2…6) with which an arc of `pieceDegrees` implies its
    /// centre within 0.01 px.
    ///
    /// Rounding moves each coordinate by at most ε = ½·10⁻ᵈ. For an arc of angle θ, the
    /// midpoint of its chord then moves by up to √2·ε, the chord turns and carries the centre
    /// with it by √2·ε·cot(θ/2), the half chord's change moves it by √2·ε·tan(θ/2), and the
    /// radius's by ε/cos(θ/2). A quarter circle needs 3 digits; a short segment far from the
    /// centre, more.
    static func arcDecimals(pieceDegrees: Double) -> Int {
        let half = pieceDegrees * .pi / 360
        guard half > 1e-6 else { return 6 }
        let gain = 2.0.squareRoot() * (1 + 1 / tan(half) + tan(half)) + 1 / cos(half)
        var epsilon = 0.005
        for decimals in 2..<6 {
            if epsilon * gain <= 0.01 { return decimals }
            epsilon /= 10
        }
        return 6
    }
}
