/// Writes a ring as SVG bytes: deterministic, compact, well-formed, with no script, event
/// attribute or external reference whatever the spec holds.
///
/// Arcs are path commands with end points computed here (never dashes or `pathLength`, which
/// renderers disagree on); arcs over 180° are split in two so no arc ever has coinciding or
/// ambiguous end points. Element ids and class names derive from the spec's digest, so
/// several rings inlined in one page never collide.
public enum RingRenderer {
    /// Bumped whenever the same spec would render different bytes; part of the server's ETag.
    /// 2: element ids from the 128-bit digest instead of a 64-bit FNV-1a hash.
    public static let version = 2

    /// When ``version`` began, in seconds since 1970 (2026-12-01T00:00:00Z): every ring's
    /// `Last-Modified`, since a ring's bytes change only with the renderer. Moves forward with
    /// every version bump.
    public static let versionDate = 1_796_083_200

    /// The SVG document for `spec`. Pass `digest` when the caller has it already (the server
    /// needs it for its cache first), so the canonical key is not built and hashed twice.
    /// `spec` is `consuming`, so a spec passed straight in is moved into the rendering, not copied.
    public static func render(_ spec: consuming RingSpec, digest: RingDigest? = nil) -> [UInt8] {
        var document = document(spec, digest: digest)
        // Written into stack scratch, then copied once into the array: one allocation per ring.
        // A ring that outgrows the scratch (long gradients) moves to the heap.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
            var writer = ByteWriter(scratch: scratch)
            document.write(into: &writer)
            return writer.bytes
        }
    }

    private static func document(_ spec: consuming RingSpec, digest: RingDigest?) -> Document {
        let digest = digest ?? spec.digest  // before `spec` moves into the document
        return Document(spec: spec, digest: digest)
    }

    /// The percentage as the label shows it, e.g. `72%` or `72.50%` with `decimals=2`.
    public static func percentageText(_ spec: RingSpec) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
            var writer = ByteWriter(scratch: scratch)
            writer.append(number: spec.percentage, decimals: spec.decimals, keepZeros: true)
            writer.append(byte: UInt8(ascii: "%"))
            return writer.text
        }
    }
}

/// The scheme colours used where the URL gives none.
enum DefaultColors {
    static let bar = RingColor(rgb: 0x2F81F7)
    static let lightTrack = RingColor(rgb: 0xE1E4E8)
    static let darkTrack = RingColor(rgb: 0x30363D)
    static let lightLabel = RingColor(rgb: 0x24292F)
    static let darkLabel = RingColor(rgb: 0xE6EDF3)
}

/// One rendering in progress: the spec, its layout and its id prefix.
private struct Document {
    let spec: RingSpec
    let geometry: RingGeometry
    let labelText: String?
    let title: String
    /// The 32 hex digits of the digest, as ASCII bytes held inline (no allocation); `r` and
    /// these prefix every id and class name.
    let idDigits: (UInt64, UInt64, UInt64, UInt64)

    init(spec: consuming RingSpec, digest: RingDigest) {
        let percentage = RingRenderer.percentageText(spec)
        switch spec.label {
        case .auto: labelText = percentage
        case .none: labelText = nil
        case .text(let text): labelText = text.replacing("{p}", with: percentage)
        }
        title = spec.title ?? percentage
        geometry = RingGeometry(spec: spec, labelText: labelText)
        self.spec = spec  // last: moved in, not copied
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { bytes in
            let hex: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                bytes[index] = hex.utf8Start[Int(truncatingIfNeeded: digest.high >> UInt64(60 - 4 * index) & 0xF)]
                bytes[16 + index] = hex.utf8Start[Int(truncatingIfNeeded: digest.low >> UInt64(60 - 4 * index) & 0xF)]
            }
        }
        idDigits = digits
    }

    private var isDark: Bool { spec.theme == .dark }
    /// The track uses the scheme default and `theme=auto` must switch it in dark mode.
    private var trackFollowsScheme: Bool { spec.theme == .auto && spec.track == .standard }
    private var labelFollowsScheme: Bool { spec.theme == .auto && spec.labelColor == nil && labelText != nil }

    mutating func write(into w: inout ByteWriter) {
        let g = geometry
        w.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        w.append(number: g.width)
        w.append("\" height=\"")
        w.append(number: g.height)
        w.append("\" viewBox=\"0 0 ")
        w.append(number: g.width)
        w.append(byte: UInt8(ascii: " "))
        w.append(number: g.height)
        w.append("\" role=\"img\" aria-label=\"")
        w.append(escaping: title)
        w.append("\"><title>")
        w.append(escaping: title)
        w.append("</title>")
        writeStyle(into: &w)
        writeDefinitions(into: &w)
        if let background = spec.background {
            w.append("<rect width=\"100%\" height=\"100%\"")
            paint("fill", background, into: &w)
            w.append("/>")
        }
        if let fill = spec.fill {
            w.append("<circle cx=\"")
            w.append(number: g.centerX)
            w.append("\" cy=\"")
            w.append(number: g.centerY)
            w.append("\" r=\"")
            w.append(number: max(g.radius - g.trackWidth / 2, 0))
            w.append(byte: UInt8(ascii: "\""))
            paint("fill", fill, into: &w)
            w.append("/>")
        }
        writeTrack(into: &w)
        writeOutline(into: &w)
        writeBar(into: &w)
        writeLabel(into: &w)
        w.append("</svg>")
    }

    // MARK: Style and definitions

    private func writeStyle(into w: inout ByteWriter) {
        let dark = trackFollowsScheme || labelFollowsScheme
        let animated = spec.animation > 0 && g.bar != nil
        guard dark || animated else { return }
        w.append("<style>")
        if dark {
            w.append("@media (prefers-color-scheme:dark){")
            if trackFollowsScheme {
                className("t", into: &w, selector: true)
                w.append("{stroke:")
                w.append(rgb: DefaultColors.darkTrack)
                w.append("}")
            }
            if labelFollowsScheme {
                className("l", into: &w, selector: true)
                w.append("{fill:")
                w.append(rgb: DefaultColors.darkLabel)
                w.append("}")
            }
            w.append("}")
        }
        if animated {
            // The static attributes already show the final ring; only browsers that run CSS
            // animations and allow motion see it fill in.
            w.append("@media (prefers-reduced-motion:no-preference){")
            className("a", into: &w, selector: true)
            w.append("{animation:")
            appendID(into: &w)
            w.append("-f ")
            w.append(number: spec.animation, decimals: 3)
            w.append("s ease-out both}}@keyframes ")
            appendID(into: &w)
            w.append("-f{from{stroke-dashoffset:")
            w.append(number: maskDashLength)
            w.append("}}")
        }
        w.append("</style>")
    }

    private var g: RingGeometry { geometry }

    /// Longer than the bar's path, so a single dash covers all of it.
    private var maskDashLength: Double {
        guard let bar = g.bar else { return 0 }
        return (bar.sweep.magnitude * .pi / 180 * g.radius + g.barWidth + 2).rounded(.up)
    }

    private func writeDefinitions(into w: inout ByteWriter) {
        let shadow = spec.shadow && g.bar != nil
        let animated = spec.animation > 0 && g.bar != nil
        guard shadow || animated, let bar = g.bar else { return }
        w.append("<defs>")
        if shadow {
            // Plain primitives: older librsvg has no feDropShadow.
            w.append("<filter id=\"")
            appendID(into: &w)
            w.append("-s\" filterUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"")
            w.append(number: g.width)
            w.append("\" height=\"")
            w.append(number: g.height)
            w.append("\" color-interpolation-filters=\"sRGB\"><feGaussianBlur in=\"SourceAlpha\" stdDeviation=\"")
            w.append(number: g.shadowBlur)
            w.append("\"/><feOffset dy=\"")
            w.append(number: g.shadowOffset)
            w.append("\" result=\"o\"/><feFlood flood-color=\"#000\" flood-opacity=\"0.35\"/>")
            w.append("<feComposite in2=\"o\" operator=\"in\"/><feMerge><feMergeNode/>")
            w.append("<feMergeNode in=\"SourceGraphic\"/></feMerge></filter>")
        }
        if animated {
            w.append("<mask id=\"")
            appendID(into: &w)
            w.append("-m\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"")
            w.append(number: g.width)
            w.append("\" height=\"")
            w.append(number: g.height)
            w.append("\"><path class=\"")
            className("a", into: &w, selector: false)
            w.append("\" d=\"")
            arcPath(bar, closed: false, into: &w)
            w.append("\" fill=\"none\" stroke=\"#fff\" stroke-width=\"")
            w.append(number: g.barWidth + 2)
            w.append(spec.cap == .round ? "\" stroke-linecap=\"round" : "\" stroke-linecap=\"square")
            w.append("\" stroke-dasharray=\"")
            w.append(number: maskDashLength)
            w.append(byte: UInt8(ascii: " "))
            w.append(number: maskDashLength)
            w.append("\"/></mask>")
        }
        w.append("</defs>")
    }

    // MARK: Track, outline, bar, label

    private func writeTrack(into w: inout ByteWriter) {
        let color: RingColor
        switch spec.track {
        case .none: return
        case .color(let given): color = given
        case .standard: color = isDark ? DefaultColors.darkTrack : DefaultColors.lightTrack
        }
        if g.track.sweep.magnitude >= 360 {
            circle(radius: g.radius, into: &w)
        } else {
            w.append("<path d=\"")
            arcPath(g.track, closed: false, into: &w)
            w.append("\" stroke-linecap=\"")
            w.append(spec.cap == .round ? "round" : "butt")
            w.append(byte: UInt8(ascii: "\""))
        }
        if trackFollowsScheme {
            w.append(" class=\"")
            className("t", into: &w, selector: false)
            w.append(byte: UInt8(ascii: "\""))
        }
        w.append(" fill=\"none\"")
        paint("stroke", color, into: &w)
        w.append(" stroke-width=\"")
        w.append(number: g.trackWidth)
        w.append("\"/>")
    }

    private func writeOutline(into w: inout ByteWriter) {
        guard let outline = spec.outline else { return }
        let offset = g.trackWidth / 2 + g.outlineWidth / 2
        for radius in [g.radius + offset, g.radius - offset] where radius > 0 {
            if g.track.sweep.magnitude >= 360 {
                circle(radius: radius, into: &w)
            } else {
                w.append("<path d=\"")
                arcPath(g.track, radius: radius, closed: false, into: &w)
                w.append("\"")
            }
            w.append(" fill=\"none\"")
            paint("stroke", outline, into: &w)
            w.append(" stroke-width=\"")
            w.append(number: g.outlineWidth)
            w.append("\"/>")
        }
    }

    private func writeBar(into w: inout ByteWriter) {
        guard let bar = g.bar else { return }  // 0 %: no bar, so round caps leave no dot
        let shadow = spec.shadow
        let animated = spec.animation > 0
        if shadow {
            w.append("<g filter=\"url(#")
            appendID(into: &w)
            w.append("-s)\">")
        }
        if animated {
            w.append("<g mask=\"url(#")
            appendID(into: &w)
            w.append("-m)\">")
        }
        if spec.gradient.isEmpty {
            w.append("<path d=\"")
            arcPath(bar, closed: g.barIsClosed, into: &w)
            w.append("\" fill=\"none\"")
            paint("stroke", spec.color ?? DefaultColors.bar, into: &w)
            w.append(" stroke-width=\"")
            w.append(number: g.barWidth)
            w.append(spec.cap == .round && !g.barIsClosed ? "\" stroke-linecap=\"round\"/>" : "\"/>")
        } else {
            writeGradientBar(bar, into: &w)
        }
        if animated { w.append("</g>") }
        if shadow { w.append("</g>") }
    }

    /// SVG has no conic gradient: the bar becomes short sub-arcs, each a solid colour taken
    /// along the usable arc, overlapping slightly to hide seams; the caps stay solid.
    private func writeGradientBar(_ bar: RingGeometry.Arc, into w: inout ByteWriter) {
        let total = g.track.sweep.magnitude
        let length = bar.sweep.magnitude
        let sign: Double = bar.sweep < 0 ? -1 : 1
        let count = max(1, Int((length / 6).rounded(.up)))
        let step = length / Double(count)
        w.append("<g fill=\"none\" stroke-width=\"")
        w.append(number: g.barWidth)
        w.append("\">")
        for index in 0..<count {
            let from = Double(index) * step
            let isLast = index == count - 1
            let overlap = isLast && !g.barIsClosed ? 0 : min(0.75, step / 2)
            let arc = RingGeometry.Arc(start: bar.start + sign * from, sweep: sign * (step + overlap))
            w.append("<path d=\"")
            arcPath(arc, closed: false, into: &w)
            w.append(byte: UInt8(ascii: "\""))
            paint("stroke", gradientColor(at: (from + step / 2) / total), into: &w)
            w.append("/>")
        }
        w.append("</g>")
        if spec.cap == .round && !g.barIsClosed {
            for (angle, position) in [(bar.start, 0.0), (bar.end, length / total)] {
                let point = g.point(at: angle)
                w.append("<circle cx=\"")
                w.append(number: point.x)
                w.append("\" cy=\"")
                w.append(number: point.y)
                w.append("\" r=\"")
                w.append(number: g.barWidth / 2)
                w.append(byte: UInt8(ascii: "\""))
                paint("fill", gradientColor(at: position), into: &w)
                w.append("/>")
            }
        }
    }

    /// The gradient's colour at `position` (0…1) along the usable arc.
    private func gradientColor(at position: Double) -> RingColor {
        let colors = spec.gradient
        let scaled = position.clamped(to: 0...1) * Double(colors.count - 1)
        let index = min(Int(scaled), colors.count - 2)
        return colors[index].mixed(with: colors[index + 1], by: scaled - Double(index))
    }

    private func writeLabel(into w: inout ByteWriter) {
        guard let labelText, g.fontSize > 0 else { return }
        w.append("<text x=\"")
        w.append(number: g.centerX)
        w.append("\" y=\"")
        w.append(number: g.labelBaseline)
        w.append(
            "\" text-anchor=\"middle\" font-family=\"Verdana,DejaVu Sans,Helvetica,Arial,sans-serif\" font-size=\"")
        w.append(number: g.fontSize)
        w.append("\" font-weight=\"700\"")
        if labelFollowsScheme {
            w.append(" class=\"")
            className("l", into: &w, selector: false)
            w.append(byte: UInt8(ascii: "\""))
        }
        paint("fill", spec.labelColor ?? (isDark ? DefaultColors.darkLabel : DefaultColors.lightLabel), into: &w)
        w.append(byte: UInt8(ascii: ">"))
        w.append(escaping: labelText)
        w.append("</text>")
    }

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

    /// `<circle cx cy r` without closing, for a full ring.
    private func circle(radius: Double, into w: inout ByteWriter) {
        w.append("<circle cx=\"")
        w.append(number: g.centerX)
        w.append("\" cy=\"")
        w.append(number: g.centerY)
        w.append("\" r=\"")
        w.append(number: radius)
        w.append(byte: UInt8(ascii: "\""))
    }

    private func appendID(into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: "r"))
        withUnsafeBytes(of: idDigits) { w.append(raw: $0) }
    }

    private func className(_ suffix: StaticString, into w: inout ByteWriter, selector: Bool) {
        if selector { w.append(byte: UInt8(ascii: ".")) }
        appendID(into: &w)
        w.append(byte: UInt8(ascii: "-"))
        w.append(suffix)
    }

    /// Path data for `arc`: a move and one arc command per half, so no single arc spans more
    /// than 180° or ends where it starts. `closed` adds `Z` for a full circle (no caps).
    private func arcPath(_ arc: RingGeometry.Arc, radius: Double? = nil, closed: Bool, into w: inout ByteWriter) {
        let r = radius ?? g.radius
        let pieces = arc.sweep.magnitude > 180 ? 2 : 1
        let piece = arc.sweep / Double(pieces)
        let begin = g.point(at: arc.start, radius: r)
        w.append(byte: UInt8(ascii: "M"))
        w.append(number: begin.x)
        w.append(byte: UInt8(ascii: " "))
        w.append(number: begin.y)
        for index in 1...pieces {
            let end = g.point(at: arc.start + piece * Double(index), radius: r)
            w.append(byte: UInt8(ascii: "A"))
            w.append(number: r)
            w.append(byte: UInt8(ascii: " "))
            w.append(number: r)
            w.append(arc.sweep < 0 ? " 0 0 0 " : " 0 0 1 ")
            w.append(number: end.x)
            w.append(byte: UInt8(ascii: " "))
            w.append(number: end.y)
        }
        if closed { w.append(byte: UInt8(ascii: "Z")) }
    }
}
