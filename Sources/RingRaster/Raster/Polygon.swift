#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in image pixels, y downwards.
struct Point: Equatable {
    var x: Double
    var y: Double
}

/// Closed contours of straight edges, in image pixels: what ``CoverageMask`` fills. The ring's
/// shapes are built here from circles and arcs, flattened finely enough that the chords stay
/// within ``tolerance`` of the true curve.
///
/// Angles are the scene's: degrees clockwise from 12 o'clock, about a centre.
struct Polygon {
    var contours: [[Point]] = []

    /// Largest distance of a chord from its arc, in pixels: below what anti-aliasing can show.
    static let tolerance = 0.05

    /// Most segments one curve is cut into: a full circle of radius 16 000 px needs 1 800, so
    /// this only bounds the work for numbers no ring has (a scene is a package value).
    static let maximumSegments = 4096

    /// Appends the points of an arc of `radius` about `centre` from `start` through `sweep`
    /// degrees, both ends included, to `points`.
    static func appendArc(
        _ points: inout [Point], centre: Point, radius: Double, start: Double, sweep: Double
    ) {
        guard radius.isFinite, start.isFinite, sweep.isFinite else { return }
        guard radius > 0 else {
            points.append(centre)
            return
        }
        // A chord of angle θ strays r(1 − cos(θ/2)) from its arc.
        let maximumStep = 2 * acos(max(-1, 1 - tolerance / radius))
        let radians = min(abs(sweep), 360) * .pi / 180 * (sweep < 0 ? -1 : 1)
        let count = Int(min(max((abs(radians) / maximumStep).rounded(.up), 1), Double(maximumSegments)))
        let step = abs(radians) / Double(count)
        // Chords between points on the circle cut inside it and lose area along the whole arc
        // (a circle of radius 15 drawn 0.03 px too thin). Points on a radius larger by
        // √(θ / sin θ) give the chords the arc's own area: they cross it, half in, half out.
        let fitted = step > 1e-9 ? radius * (step / sin(step)).squareRoot() : radius
        // Each point is the last turned by one step: two multiplications a coordinate, not a
        // sine and a cosine. Rounding drifts by about an ulp a step, under 1e-12 of the radius
        // after the most steps an arc has.
        let first = start * .pi / 180
        let (stepSine, stepCosine) = (sin(radians / Double(count)), cos(radians / Double(count)))
        var (sine, cosine) = (sin(first), cos(first))
        points.reserveCapacity(points.count + count + 1)
        for _ in 0...count {
            points.append(Point(x: centre.x + fitted * sine, y: centre.y - fitted * cosine))
            (sine, cosine) = (sine * stepCosine + cosine * stepSine, cosine * stepCosine - sine * stepSine)
        }
    }

    /// A full circle, clockwise (or anticlockwise, to cut a hole in a clockwise contour).
    mutating func addCircle(centre: Point, radius: Double, clockwise: Bool = true) {
        guard radius > 0, radius.isFinite else { return }
        var points: [Point] = []
        Self.appendArc(&points, centre: centre, radius: radius, start: 0, sweep: clockwise ? 360 : -360)
        guard points.count > 2 else { return }
        points.removeLast()  // the same as the first
        contours.append(points)
    }

    /// The band between `inner` and `outer` radius all the way round: a closed stroke.
    mutating func addAnnulus(centre: Point, inner: Double, outer: Double) {
        addCircle(centre: centre, radius: outer)
        addCircle(centre: centre, radius: inner, clockwise: false)
    }

    /// A stroke of `halfWidth` each side of the arc of `radius`, with round or butt ends, as
    /// SVG strokes an open arc path.
    ///
    /// `extend` moves butt ends along the stroke, in pixels perpendicular to the end line
    /// (positive outwards): an outline's band is the track's shape grown by one width and cut
    /// by the same shape grown by a smaller one, and a butt end grows as its end line moves.
    ///
    /// With round ends, `ends` says which of them are round: a stacked part between others is
    /// cut straight across where it meets them.
    mutating func addArcStroke(
        centre: Point, radius: Double, halfWidth: Double, start: Double, sweep: Double, round: Bool,
        ends: (start: Bool, end: Bool) = (true, true), extend: Double = 0, clockwise: Bool = true
    ) {
        guard halfWidth > 0 else { return }
        let outer = radius + halfWidth
        let inner = max(radius - halfWidth, 0)
        // A part of no length keeps its way round in its sign (-0 runs counter-clockwise).
        let direction: Double = sweep.sign == .minus ? -1 : 1
        var points: [Point] = []
        if round {
            Self.appendArc(&points, centre: centre, radius: outer, start: start, sweep: sweep)
            // The end cap: a half circle about the end point, bulging forward.
            if ends.end {
                let end = Self.point(centre, radius, start + sweep)
                Self.appendArc(
                    &points, centre: end, radius: halfWidth, start: start + sweep, sweep: direction * 180)
            }
            Self.appendArc(&points, centre: centre, radius: inner, start: start + sweep, sweep: -sweep)
            if ends.start {
                let begin = Self.point(centre, radius, start)
                Self.appendArc(
                    &points, centre: begin, radius: halfWidth, start: start + 180, sweep: direction * 180)
            }
        } else {
            // A butt end's line is radial; moved by `extend` perpendicular to itself it meets
            // the circle of radius ρ at an angle asin(extend/ρ) beyond the end.
            func beyond(_ rho: Double) -> Double {
                guard rho > 0 else { return 0 }
                return asin(min(max(extend / rho, -1), 1)) * 180 / .pi
            }
            let outerShift = beyond(outer)
            Self.appendArc(
                &points, centre: centre, radius: outer, start: start - direction * outerShift,
                sweep: sweep + direction * 2 * outerShift)
            if inner > 0 {
                let innerShift = beyond(inner)
                Self.appendArc(
                    &points, centre: centre, radius: inner, start: start + sweep + direction * innerShift,
                    sweep: -sweep - direction * 2 * innerShift)
            } else {
                points.append(centre)
            }
        }
        if !clockwise { points.reverse() }
        // A stroke that runs anticlockwise yields an anticlockwise contour: orient every
        // stroke the same way so that overlapping strokes add up, and holes subtract.
        if direction < 0 { points.reverse() }
        contours.append(points)
    }

    /// The point at `degrees` on the circle of `radius` about `centre`.
    static func point(_ centre: Point, _ radius: Double, _ degrees: Double) -> Point {
        let radians = degrees * .pi / 180
        return Point(x: centre.x + radius * sin(radians), y: centre.y - radius * cos(radians))
    }

    /// Every point moved by (`dx`, `dy`) and then scaled by `scale` about the origin.
    func transformed(dx: Double = 0, dy: Double = 0, scale: Double) -> Polygon {
        Polygon(contours: contours.map { $0.map { Point(x: ($0.x + dx) * scale, y: ($0.y + dy) * scale) } })
    }

    /// The smallest box of whole pixels holding every point, grown by `margin`.
    func bounds(margin: Double = 0) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for contour in contours {
            for point in contour {
                minX = min(minX, point.x)
                minY = min(minY, point.y)
                maxX = max(maxX, point.x)
                maxY = max(maxY, point.y)
            }
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        // Whole pixels, within a range any image fits in and any Int holds.
        func pixel(_ value: Double) -> Int { Int(min(max(value, -1e9), 1e9)) }
        return (
            pixel((minX - margin).rounded(.down)), pixel((minY - margin).rounded(.down)),
            pixel((maxX + margin).rounded(.up)), pixel((maxY + margin).rounded(.up))
        )
    }
}

extension Polygon {
    /// A rectangle with corners rounded to `radius`, clockwise (anticlockwise for a hole).
    mutating func addRoundedRect(
        x: Double, y: Double, width: Double, height: Double, radius: Double, clockwise: Bool = true
    ) {
        guard width > 0, height > 0 else { return }
        let r = min(max(radius, 0), width / 2, height / 2)
        var points: [Point] = []
        // Corners clockwise from the top right, each a quarter circle.
        Self.appendArc(&points, centre: Point(x: x + width - r, y: y + r), radius: r, start: 0, sweep: 90)
        Self.appendArc(&points, centre: Point(x: x + width - r, y: y + height - r), radius: r, start: 90, sweep: 90)
        Self.appendArc(&points, centre: Point(x: x + r, y: y + height - r), radius: r, start: 180, sweep: 90)
        Self.appendArc(&points, centre: Point(x: x + r, y: y + r), radius: r, start: 270, sweep: 90)
        if !clockwise { points.reverse() }
        contours.append(points)
    }
}
