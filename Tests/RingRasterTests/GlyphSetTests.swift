import Testing

@testable import RingRaster

@Suite struct GlyphSetTests {
    let font = GlyphSet.labelFont

    @Test func coversASCIILatin1AndTypographicPunctuation() {
        let scalars =
            (0x20...0x7E).compactMap(Unicode.Scalar.init) + (0xA0...0xFF).compactMap(Unicode.Scalar.init)
            + "–—‘’‚“”„†‡•…‰‹›€−✓✔".unicodeScalars
        let missing = scalars.filter { !font.covers($0) }
        #expect(missing.isEmpty, "\(missing)")
        #expect(font.unitsPerEm == 2048)
    }

    /// DejaVu Sans Bold's own advances, in font units.
    @Test func advancesAreTheFonts() {
        #expect(font.glyph(for: "7").advance == 1425)
        #expect(font.glyph(for: "%").advance == 2052)
        #expect(abs(font.advance(of: "72%", fontSize: 2048) - Double(1425 * 2 + 2052)) < 1e-9)
    }

    /// A character outside the set draws the font's .notdef box, with its advance.
    @Test func anUncoveredCharacterDrawsNotdef() {
        #expect(!font.covers("中"))
        #expect(font.glyph(for: "中").advance == font.notdef.advance)
        #expect(!font.notdef.contours.isEmpty)
        let box = font.outline(of: "中", fontSize: 20, centreX: 20, baseline: 30)
        #expect(!box.contours.isEmpty)
    }

    /// Implied on-curve points: two off-curve points in a row meet at their middle.
    @Test func flatteningPassesThroughImpliedPoints() {
        let points = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        let flat = GlyphSet.flatten(points, onCurve: [true, false, false, true])
        #expect(flat.first == Point(x: 0, y: 0))
        #expect(flat.contains(Point(x: 10, y: 5)))
        #expect(flat.contains(Point(x: 0, y: 10)))
    }
}
