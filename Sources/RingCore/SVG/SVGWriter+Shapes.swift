/// The track, the outline and the solid bars, in painting order.
extension SVGWriter {
    func writeTrack(_ track: RingScene.Track, into w: inout ByteWriter) {
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
        w.write(" stroke-width=\"", (stroke.width, "\"/>"))
    }

    func writeOutline(_ outline: RingScene.Outline, into w: inout ByteWriter) {
        if outline.isClosed {
            for radius in [outline.radius + outline.offset, outline.radius - outline.offset] where radius > 0 {
                circle(radius: radius, into: &w)
                outlineStroke(outline, into: &w)
            }
            return
        }
        w.append("<path d=\"")
        let round = outline.cap == .round
        bandPath(outline.arc, radius: outline.radius, offset: outline.offset, round: (round, round), into: &w)
        w.append(byte: UInt8(ascii: "\""))
        outlineStroke(outline, into: &w)
    }

    /// The closed contour of the band `offset` either side of `arc` at `radius`: out along the
    /// outer edge, round (or across) the end, back along the inner edge, round (or across) the
    /// start. An outline strokes it; a stacked part fills it, round at the stack's ends only.
    func bandPath(
        _ arc: RingScene.Arc, radius: Double, offset: Double, round: (start: Bool, end: Bool),
        into w: inout ByteWriter
    ) {
        let outer = radius + offset
        let inner = max(radius - offset, 0)
        let back = RingScene.Arc(start: arc.end, sweep: -arc.sweep)
        arcPath(arc, radius: outer, closed: false, into: &w)
        bandCap(at: arc.end, of: arc, radius: radius, offset: offset, round: round.end, to: inner, into: &w)
        arcPath(back, radius: inner, closed: false, move: false, into: &w)
        bandCap(at: arc.start, of: arc, radius: radius, offset: offset, round: round.start, to: outer, into: &w)
        w.append(byte: UInt8(ascii: "Z"))
    }

    /// From one edge of the band to the one at `to`, across its end at `angle`: a semicircle
    /// round a round cap (two quarter arcs, so no arc has opposite end points), a straight line
    /// across a butt one.
    func bandCap(
        at angle: Double, of arc: RingScene.Arc, radius: Double, offset: Double, round: Bool, to: Double,
        into w: inout ByteWriter
    ) {
        // The end point is the next arc's start: written with that arc's digits.
        let decimals = Self.arcDecimals(pieceDegrees: Self.pieces(of: arc).sweep.magnitude)
        let end = point(at: angle, radius: to)
        guard round else {
            w.append(byte: UInt8(ascii: "L"))
            coordinates(end, decimals: decimals, into: &w)
            return
        }
        // The cap bulges forward at the end and backward at the start: in both, turning the same
        // way as the arc runs (a part of no length keeps its sign: -0 runs counter-clockwise).
        let backwards = arc.sweep.sign == .minus
        let centre = point(at: angle, radius: radius)
        let outward = (x: end.x - centre.x, y: end.y - centre.y)  // towards `to`, length `offset`
        let forward = backwards ? (x: outward.y, y: -outward.x) : (x: -outward.y, y: outward.x)
        let middle = (x: centre.x - forward.x, y: centre.y - forward.y)
        for point in [middle, end] {
            w.write("A", (Decimals(offset, decimals), " "), (Decimals(offset, decimals), ""))
            w.append(backwards ? " 0 0 0 " : " 0 0 1 ")
            coordinates(point, decimals: decimals, into: &w)
        }
    }

    /// A stack's parts, each its band filled in its colour: round caps only where the stack
    /// ends, and no stroke, so neighbours meet edge to edge.
    func writeParts(_ parts: [RingScene.Part], into w: inout ByteWriter) {
        for part in parts {
            w.append("<path d=\"")
            bandPath(
                part.stroke.arc, radius: part.stroke.radius, offset: part.stroke.width / 2,
                round: (part.stroke.isRound(.start), part.stroke.isRound(.end)), into: &w)
            w.append(byte: UInt8(ascii: "\""))
            paint("fill", part.color, into: &w)
            w.append("/>")
        }
    }

    func outlineStroke(_ outline: RingScene.Outline, into w: inout ByteWriter) {
        w.append(" fill=\"none\"")
        paint("stroke", outline.color, into: &w)
        w.write(" stroke-width=\"", (outline.width, "\"/>"))
    }

    /// Every ring's bar (a ring at 0 % has none, so round caps leave no dot), under one
    /// shadow of them all and one animation mask.
    func writeBars(into w: inout ByteWriter) {
        guard hasBars else { return }
        if scene.animation != nil {
            w.append("<g mask=\"url(#")
            appendID(into: &w)
            w.append("-m)\">")
        }
        if let shadow = scene.shadow {
            w.append("<g filter=\"url(#")
            appendID(into: &w)
            w.write("-s)\" transform=\"translate(0 ", (shadow.offset, ")\" opacity=\""), (shadow.opacity, "\">"))
            for index in scene.rings.indices {
                guard let bar = scene.rings[index].bar else { continue }
                for shape in [scene.rings[index].lap?.beneath, bar] {
                    guard let shape else { continue }
                    let black = RingColor(red: 0, green: 0, blue: 0, alpha: shape.paint.alpha)
                    solidShapes(shape, black, into: &w)
                }
            }
            w.append("</g>")
        }
        for index in scene.rings.indices {
            guard let bar = scene.rings[index].bar else { continue }
            guard let lap = scene.rings[index].lap else {
                writeBar(bar, gradientNumber: index, into: &w)
                continue
            }
            // Under the top lap the laps before it; over it the head's shadow, then the head.
            if let beneath = lap.beneath {
                writeBar(beneath, gradientNumber: index + RingLimits.rings.upperBound, into: &w)
            }
            writeBar(bar, gradientNumber: index, into: &w)
            writeHeadShadow(lap.shadow, ring: index, into: &w)
            if let head = lap.head { writeBar(head, gradientNumber: index, into: &w) }
        }
        if scene.animation != nil { w.append("</g>") }
    }

    /// One bar: solid, or a gradient whose ids carry `gradientNumber` (its ring's, or past
    /// every ring's for the laps under a top lap, so no two ids meet).
    func writeBar(_ bar: RingScene.Bar, gradientNumber: Int, into w: inout ByteWriter) {
        guard bar.parts.isEmpty else { return writeParts(bar.parts, into: &w) }
        switch bar.paint {
        case .solid(let color):
            solidShapes(bar, color, into: &w)
        case .gradient(let gradient):
            writeGradientBar(bar.stroke, gradient, ring: gradientNumber, into: &w)
        }
    }

    /// The top lap's head shadow: its piece of the band, stroked with a radial gradient about
    /// the head's centre, black from the head's edge fading to nothing.
    func writeHeadShadow(_ shadow: RingScene.HeadShadow, ring: Int, into w: inout ByteWriter) {
        let centre = point(at: shadow.head, radius: shadow.stroke.radius)
        let reach = shadow.fade.upperBound
        w.append("<defs><radialGradient id=\"")
        appendID(into: &w)
        w.append("-h")
        ringNumber(ring, into: &w)
        w.write(
            "\" gradientUnits=\"userSpaceOnUse\" cx=\"", (centre.x, "\" cy=\""), (centre.y, "\" r=\""),
            (reach, "\"><stop offset=\""), (Decimals(shadow.fade.lowerBound / reach, 3), "\" stop-opacity=\""),
            (
                Decimals(shadow.opacity, 3),
                "\"/><stop offset=\"1\" stop-opacity=\"0\"/></radialGradient></defs><path d=\""
            ))
        arcPath(shadow.stroke.arc, radius: shadow.stroke.radius, closed: false, into: &w)
        w.append("\" fill=\"none\" stroke=\"url(#")
        appendID(into: &w)
        w.append("-h")
        ringNumber(ring, into: &w)
        w.write(")\" stroke-width=\"", (shadow.stroke.width, "\"/>"))
    }

    /// Whether a solid bar is drawn with strokes, with dots (discs), or both.
    static func shapes(of bar: RingScene.Bar) -> (strokes: Bool, dots: Bool) {
        guard !bar.segments.isEmpty else { return (!bar.stroke.isDot, bar.stroke.isDot) }
        return (bar.segments.contains { !$0.isDot }, bar.segments.contains { $0.isDot })
    }

    /// The bar in one colour: its stroke (a dot when tiny), or with segments one path of its
    /// pieces, each with its caps, and a dot for a piece too short to show its caps.
    func solidShapes(_ bar: RingScene.Bar, _ color: RingColor, into w: inout ByteWriter) {
        guard !bar.segments.isEmpty else {
            if bar.stroke.isDot {
                dot(bar.stroke, color, into: &w)
            } else {
                solidBar(bar.stroke, color, into: &w)
            }
            return
        }
        let pieces = bar.segments.filter { !$0.isDot }
        if let first = pieces.first {
            w.append("<path d=\"")
            for piece in pieces { arcPath(piece.arc, radius: piece.radius, closed: false, into: &w) }
            closeBarPath(color, width: first.width, roundCaps: first.cap == .round, into: &w)
        }
        for piece in bar.segments where piece.isDot { dot(piece, color, into: &w) }
    }

    func solidBar(_ stroke: RingScene.Stroke, _ color: RingColor, into w: inout ByteWriter) {
        w.append("<path d=\"")
        arcPath(stroke.arc, radius: stroke.radius, closed: stroke.isClosed, into: &w)
        closeBarPath(color, width: stroke.width, roundCaps: stroke.cap == .round && !stroke.isClosed, into: &w)
    }

    /// A bar path's attributes after its path data: its paint, its width and caps.
    func closeBarPath(_ color: RingColor, width: Double, roundCaps: Bool, into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: "\""))
        w.append(" fill=\"none\"")
        paint("stroke", color, into: &w)
        w.write(" stroke-width=\"", (width, roundCaps ? "\" stroke-linecap=\"round\"/>" : "\"/>"))
    }
}
