import RingCore
import RingTestSupport
import Testing

@testable import RingRaster

/// The indexed canvas against an RGBA one: the same fills must leave the same pixels,
/// including when the indexed canvas runs out of its 256 colours part-way through a fill.
@Suite struct IndexedCanvasTests {
    /// A random disc, ring or square, sometimes partly off the canvas.
    private func shape(_ generator: inout some RandomNumberGenerator, side: Int) -> Polygon {
        var polygon = Polygon()
        let centre = Point(
            x: Double.random(in: -4...Double(side + 4), using: &generator),
            y: Double.random(in: -4...Double(side + 4), using: &generator))
        let radius = Double.random(in: 0.3...Double(side) / 2, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: polygon.addCircle(centre: centre, radius: radius)
        case 1: polygon.addAnnulus(centre: centre, inner: radius / 2, outer: radius)
        default:
            polygon.addRoundedRect(x: centre.x, y: centre.y, width: radius, height: radius * 1.5, radius: radius / 4)
        }
        return polygon
    }

    private func mask(_ polygon: Polygon, side: Int) -> CoverageMask {
        CoverageMask.filled(polygon, width: side, height: side)
    }

    @Test func randomFillsLeaveTheSamePixelsAsOnRGBA() {
        var generator = SystemRandomNumberGenerator()
        var stayedIndexed = 0
        for _ in 0..<150 {
            let side = Int.random(in: 1...40, using: &generator)
            var indexed = Canvas(width: side, height: side)
            var rgba = Canvas(width: side, height: side, indexed: false)
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let mask = mask(shape(&generator, side: side), side: side)
                let alpha = Bool.random(using: &generator) ? 255 : UInt8.random(in: 1...254, using: &generator)
                let colour = RingColor(
                    red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                    blue: .random(in: 0...255, using: &generator), alpha: alpha)
                let opacity = Bool.random(using: &generator) ? 1 : Float.random(in: 0...1, using: &generator)
                indexed.fill(mask, colour, opacity: opacity)
                rgba.fill(mask, colour, opacity: opacity)
            }
            #expect(!rgba.isIndexed)
            if indexed.isIndexed { stayedIndexed += 1 }  // else past 256 colours, part-way
            let same = indexed.rgbaPixels() == rgba.rgbaPixels()  // (not the arrays: a failure would print both)
            #expect(same, "\(side) × \(side)")
        }
        // Most random canvases keep to 256 colours: the test is mostly of the indexed path.
        #expect(stayedIndexed > 100, "\(stayedIndexed) of 150 stayed indexed")
    }

    @Test func theTwoHundredFiftySeventhColourTurnsTheCanvasRGBAPartWayThroughAFill() {
        let side = 40
        var indexed = Canvas(width: side, height: side)
        var rgba = Canvas(width: side, height: side, indexed: false)
        // 250 opaque colours, one pixel each (a square exactly on the pixel: full cover).
        for index in 0..<250 {
            var square = Polygon()
            let (x, y) = (Double(index % side), Double(index / side))
            square.contours = [
                [Point(x: x, y: y), Point(x: x + 1, y: y), Point(x: x + 1, y: y + 1), Point(x: x, y: y + 1)]
            ]
            let colour = RingColor(red: UInt8(index), green: 255 - UInt8(index), blue: 7, alpha: 255)
            indexed.fill(mask(square, side: side), colour)
            rgba.fill(mask(square, side: side), colour)
        }
        #expect(indexed.isIndexed)
        // A translucent disc over all of them makes far more than 6 new colours.
        var disc = Polygon()
        disc.addCircle(centre: Point(x: 20, y: 20), radius: 19)
        let veil = RingColor(red: 40, green: 90, blue: 200, alpha: 100)
        indexed.fill(mask(disc, side: side), veil)
        rgba.fill(mask(disc, side: side), veil)
        #expect(!indexed.isIndexed)
        let same = indexed.rgbaPixels() == rgba.rgbaPixels()
        #expect(same)
    }
}

extension Canvas {
    func filled(_ colour: RingColor) -> Canvas {
        var canvas = self
        canvas.fillAll(colour)
        return canvas
    }
}
