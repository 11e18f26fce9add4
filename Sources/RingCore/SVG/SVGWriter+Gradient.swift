/// A gradient bar: short sub-arcs, each with a linear gradient along its chord.
extension SVGWriter {
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
    func writeGradientBar(
        _ bar: RingScene.Stroke, _ gradient: RingScene.Gradient, ring: Int, into w: inout ByteWriter
    ) {
        guard !bar.isDot else {
            dot(bar, gradient.color(along: 0), into: &w)
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
        w.write(" fill=\"none\" stroke=\"#fff\" stroke-width=\"", (bar.width, "\"/></mask><g mask=\"url(#"))
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
            w.write("<g opacity=\"", (Decimals(Double(alphas[0]) / 255, 3), "\">"))
        }
        gradientShapes(bar, gradient, suffix: "c", ring: ring, into: &w) { color in
            RingColor(red: color.red, green: color.green, blue: color.blue)
        }
        if !uniform || alphas[0] != 255 { w.append("</g>") }
    }

    /// The gradient bar's sub-arcs and caps, painted with `paint` of each colour, opaque.
    func gradientShapes(
        _ bar: RingScene.Stroke, _ gradient: RingScene.Gradient, suffix: StaticString, ring: Int,
        into w: inout ByteWriter, paint colorOf: (RingColor) -> RingColor
    ) {
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
            let begin = point(at: bar.arc.start + sign * from, radius: bar.radius)
            let end = point(at: bar.arc.start + sign * (from + step), radius: bar.radius)
            w.append("<linearGradient id=\"")
            gradientID(suffix, ring: ring, into: &w)
            w.write(
                "", (index, "\" gradientUnits=\"userSpaceOnUse\" x1=\""), (begin.x, "\" y1=\""), (begin.y, "\" x2=\""),
                (end.x, "\" y2=\""), (end.y, "\"><stop offset=\"0\" stop-color=\""),
                (colorOf(gradient.color(along: from)), "\"/><stop offset=\"1\" stop-color=\""),
                (colorOf(gradient.color(along: from + step)), "\"/></linearGradient>"))
        }
        w.append("</defs>")
        // The round caps go under the sub-arcs, which cover their inner halves: what shows is
        // the half beyond each end, in the colour the bar has there, so the colour runs on
        // through the cap. On top, a flat disc hid half a stroke's width of the gradient and
        // ended in a step (14 levels on a wide bar).
        if bar.cap == .round && !bar.isClosed {
            for (angle, along) in [(bar.arc.start, 0.0), (bar.arc.end, length)] {
                disc(
                    at: point(at: angle, radius: bar.radius), width: bar.width + 2 * Self.gradientBleed,
                    colorOf(gradient.color(along: along)), into: &w)
            }
        }
        w.write("<g fill=\"none\" stroke-width=\"", (bar.width + 2 * Self.gradientBleed, "\">"))
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
    func gradientID(_ suffix: StaticString, ring: Int, into w: inout ByteWriter) {
        appendID(into: &w)
        w.append("-g")
        ringNumber(ring, into: &w)
        w.append(suffix)
    }
}
