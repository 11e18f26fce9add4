import RingCore
import RingTestSupport
import Testing

@testable import RingRaster

/// Exact area coverage: what each pixel gets is the area of it the shape covers.
@Suite struct CoverageMaskTests {
    private func resolved(_ polygon: Polygon, width: Int = 8, height: Int = 8) -> CoverageMask {
        var mask = CoverageMask(originX: 0, originY: 0, width: width, height: height)
        mask.add(polygon)
        mask.resolve()
        return mask
    }

    private func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool = true) -> [Point] {
        let points = [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
        return clockwise ? points : points.reversed()
    }

    private func total(_ mask: CoverageMask) -> Double {
        var sum = 0.0
        for row in 0..<mask.height {
            for column in 0..<mask.width { sum += Double(mask.coverage(column, row)) }
        }
        return sum
    }

    @Test func aRectangleOnFractionalEdgesCoversItsArea() {
        let mask = resolved(Polygon(contours: [rectangle(1.25, 0.5, 3.75, 2)]))
        #expect(mask.coverage(0, 0) == 0)
        #expect(abs(mask.coverage(1, 0) - 0.375) < 1e-6)  // three quarters wide, half high
        #expect(abs(mask.coverage(2, 0) - 0.5) < 1e-6)
        #expect(abs(mask.coverage(1, 1) - 0.75) < 1e-6)
        #expect(abs(mask.coverage(2, 1) - 1) < 1e-6)
        #expect(abs(mask.coverage(3, 1) - 0.75) < 1e-6)
        #expect(mask.coverage(4, 1) == 0)
        #expect(abs(total(mask) - 2.5 * 1.5) < 1e-5)
    }

    @Test func aSlantedTriangleCoversItsArea() {
        let triangle = [Point(x: 0.3, y: 0.2), Point(x: 7.6, y: 2.9), Point(x: 2.2, y: 7.7)]
        let area =
            abs(
                (triangle[1].x - triangle[0].x) * (triangle[2].y - triangle[0].y)
                    - (triangle[2].x - triangle[0].x) * (triangle[1].y - triangle[0].y)) / 2
        #expect(abs(total(resolved(Polygon(contours: [triangle]))) - area) < 1e-4)
    }

    @Test func aCircleCoversPiRSquared() {
        var polygon = Polygon()
        polygon.addCircle(centre: Point(x: 20.3, y: 19.7), radius: 15.2)
        let mask = resolved(polygon, width: 40, height: 40)
        #expect(abs(total(mask) - Double.pi * 15.2 * 15.2) < 0.05)
    }

    /// Non-zero winding: the same direction twice covers once; the opposite direction cuts a hole.
    @Test func windingDecidesOverlapsAndHoles() {
        let twice = resolved(Polygon(contours: [rectangle(0, 0, 4, 4), rectangle(2, 2, 6, 6)]))
        #expect(twice.coverage(3, 3) == 1)
        let hole = resolved(Polygon(contours: [rectangle(0, 0, 6, 6), rectangle(2, 2, 4, 4, clockwise: false)]))
        #expect(hole.coverage(3, 3) == 0)
        #expect(hole.coverage(1, 1) == 1)
        #expect(abs(total(hole) - 32) < 1e-5)
    }

    /// Edges outside the mask are clipped to it, never written past it.
    @Test func shapesBeyondTheMaskAreClipped() {
        let mask = resolved(Polygon(contours: [rectangle(-5, -3, 3.5, 20)]), width: 8, height: 8)
        #expect(mask.coverage(0, 0) == 1)
        #expect(abs(mask.coverage(3, 7) - 0.5) < 1e-6)
        #expect(mask.coverage(4, 7) == 0)
        #expect(abs(total(mask) - 3.5 * 8) < 1e-5)
    }

    /// The blur keeps what it spreads (away from the edges) and softens a hard edge.
    @Test(arguments: [1.0, 2.5, 4.0])
    func blurKeepsTheTotalAndSoftens(sigma: Double) {
        var mask = resolved(Polygon(contours: [rectangle(20, 20, 30, 30)]), width: 50, height: 50)
        let before = total(mask)
        mask.blur(sigma: sigma)
        #expect(abs(total(mask) - before) / before < 0.01)
        #expect(mask.coverage(25, 25) > 0.5)
        #expect(mask.coverage(19, 25) > 0.01)
        #expect(mask.coverage(20, 25) < 0.9)
    }

    /// Painting from the edges, run by run and skipping untouched blocks, gives exactly the
    /// pixels that painting the resolved coverage cell by cell gives: random polygons, some
    /// reaching past the mask and the canvas, in opaque and translucent colours, over paint.
    @Test func runsFromTheEdgesPaintWhatResolvedCoveragePaints() {
        var generator = SeededGenerator(seed: 24)
        for _ in 0..<300 {
            func coordinate() -> Double { Double.random(in: -10...70, using: &generator) }
            var polygon = Polygon()
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                polygon.contours.append(
                    (0..<Int.random(in: 3...9, using: &generator)).map { _ in
                        Point(x: coordinate(), y: coordinate())
                    })
            }
            let (originX, originY) = (
                Int.random(in: -4...20, using: &generator), Int.random(in: -4...20, using: &generator)
            )
            var edges = CoverageMask(
                originX: originX, originY: originY, width: Int.random(in: 1...50, using: &generator),
                height: Int.random(in: 1...50, using: &generator))
            edges.add(polygon)
            var resolved = edges
            resolved.resolve()
            let alpha =
                UInt8.random(in: 0...1, using: &generator) == 0 ? 255 : UInt8.random(in: 1...254, using: &generator)
            let colour = RingColor(red: 200, green: 30, blue: 90, alpha: alpha)
            var fromEdges = Canvas(width: 48, height: 48)
            fromEdges.fillAll(RingColor(red: 10, green: 120, blue: 250, alpha: 128))
            var fromCoverage = fromEdges
            fromEdges.fill(edges, colour)
            fromCoverage.fill(resolved, colour)
            // Compared apart from the expectation: a failure would print both arrays.
            let same = fromEdges.rgbaPixels() == fromCoverage.rgbaPixels()
            #expect(same)
            // And an opaque colour changes exactly the pixels of non-zero weight on the canvas.
            guard alpha == 255 else { continue }
            var expected = 0
            for row in 0..<resolved.height {
                for column in 0..<resolved.width where CoverageMask.weight(resolved.coverage(column, row)) > 0 {
                    let (x, y) = (originX + column, originY + row)
                    if x >= 0, x < 48, y >= 0, y < 48 { expected += 1 }
                }
            }
            var painted = 0
            // Read once each: an indexed canvas writes its pixels out when asked.
            let background = Canvas(width: 48, height: 48).filled(RingColor(red: 10, green: 120, blue: 250, alpha: 128))
                .rgbaPixels()
            let pixels = fromEdges.rgbaPixels()
            for index in 0..<pixels.count / 4
            where pixels[4 * index..<4 * index + 4] != background[4 * index..<4 * index + 4] {
                painted += 1
            }
            #expect(painted == expected)
        }
    }
}
