import RingCore
import RingTestSupport
import Testing

@testable import RingRaster

/// How PNG text is laid out: coverage, NFC, zero-width characters, fallback fonts, kerning.
@Suite struct LabelFontsTests {
    let embedded = LabelFonts.embedded

    /// The glyphs of `text` as (font, glyph id) pairs.
    func glyphs(_ text: String, _ fonts: LabelFonts = .embedded) -> [[Int]] {
        fonts.layout(text, fontSize: 20).glyphs.map { [$0.font, Int($0.id)] }
    }

    /// Every script the issue names that DejaVu Sans Bold has is drawn from it, no box.
    @Test func coversAllOfDejaVu() {
        let samples = [
            "Terminé à 72%", "Œuvre™ Š š Ž ž Ÿ œ", "łąę řč ğşİı", "Hoàn thành", "Tiến độ 72%", "Cập nhật",
            "ă ơ ư đ Ữ ỹ Ặ", "Ωμέγα", "Привет", "₫ ₹ € → ← ↑ ─ ┼ ╬", "–—‘’“”…", "≤≥≠≈∞",
        ]
        for sample in samples {
            #expect(embedded.missingCharacters(in: sample).isEmpty, "\(sample)")
            #expect(!glyphs(sample).contains([0, 0]), "\(sample) draws a .notdef")
        }
    }

    /// A decomposed letter is drawn as the precomposed one, whatever order its marks came in.
    @Test func composesToNFC() {
        #expect(glyphs("e\u{301}te\u{301}") == glyphs("été"))
        #expect(glyphs("e\u{323}\u{302}") == glyphs("ệ"))
        #expect(glyphs("e\u{302}\u{323}") == glyphs("ệ"))  // canonical order first
        #expect(glyphs("ê\u{323}") == glyphs("ệ"))  // decomposed, then composed again
        #expect(glyphs("A\u{30A}") == glyphs("Å"))
        #expect(Normalization.composed("\u{1100}\u{1161}\u{11A8}".unicodeScalars) == ["각"])
        #expect(Normalization.composed("\u{212B}".unicodeScalars) == ["Å"])  // a singleton decomposes
        #expect(Normalization.composed("q\u{307}\u{323}".unicodeScalars) == ["q", "\u{323}", "\u{307}"])
    }

    /// A mark with no precomposed letter is drawn over its base with its zero advance.
    @Test func drawsAnUncomposedMarkWithItsZeroAdvance() {
        let plain = embedded.layout("x", fontSize: 20)
        let marked = embedded.layout("x\u{301}", fontSize: 20)
        #expect(marked.glyphs.count == 2)
        #expect(abs(marked.width - plain.width) < 1e-9)
        #expect(marked.missing.isEmpty)
    }

    @Test func zeroWidthCharactersDrawNothing() {
        for invisible in ["\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FE0F}", "\u{FE00}", "\u{FEFF}", "\u{AD}"]
        {
            #expect(
                glyphs("a\(invisible)b") == glyphs("ab"),
                "U+\(String(invisible.unicodeScalars.first!.value, radix: 16))")
        }
        #expect(glyphs("\u{2764}\u{FE0F}") == glyphs("\u{2764}"))
    }

    /// An emoji sequence no font has is one character, drawn as one box: none for its joiner.
    @Test func aCharacterNoFontHasIsOneBox() {
        let line = embedded.layout("👩\u{200D}💻 7", fontSize: 20)
        #expect(line.missing == ["👩\u{200D}💻"])
        #expect(line.glyphs.filter { $0.id == 0 }.count == 1)
        #expect(embedded.missingCharacters(in: "完成") == ["完", "成"])
    }

    /// What DejaVu lacks comes from the fallback fonts, the first that has it.
    @Test func fallbackFontsAreTriedInOrder() throws {
        var first = FontBuilder()
        first.square(for: "完")
        var second = FontBuilder()
        second.square(for: "完")
        second.square(for: "성")
        let fonts = LabelFonts(fallbacks: [
            try TrueTypeFont(bytes: first.bytes(), fallbackName: "first"),
            try TrueTypeFont(bytes: second.bytes(), fallbackName: "second"),
        ])
        #expect(glyphs("7完성", fonts) == [[0, Int(TrueTypeFont.embedded.glyphID(for: "7")!)], [1, 1], [2, 2]])
        #expect(fonts.missingCharacters(in: "完성 72%").isEmpty)
        // Each font at its own units per em: a 1000-unit advance at 20 px is 20 px.
        let line = fonts.layout("完", fontSize: 20)
        #expect(abs(line.width - 20) < 1e-9)
        let square = fonts.outline(of: "完", fontSize: 20, centreX: 50, baseline: 40)
        let bounds = try #require(square.bounds(margin: 0))
        #expect(bounds.minX == 42 && bounds.maxX == 58)  // 100…900 units from 40 px
    }

    /// DejaVu's kerning pairs apply: "AV" is narrower than its two advances.
    @Test func kernsWithTheFontsPairs() throws {
        let font = TrueTypeFont.embedded
        let (a, v) = (try #require(font.glyphID(for: "A")), try #require(font.glyphID(for: "V")))
        let apart = Double(font.advance(of: a) + font.advance(of: v)) / 2048 * 20
        let kerned = embedded.advance(of: "AV", fontSize: 20)
        #expect(abs(kerned - (apart + Double(font.kerning(a, v)) / 2048 * 20)) < 1e-9)
        #expect(kerned < apart)
    }

    /// A PNG's entity tag names its fallback fonts; an SVG's, drawn by the reader's fonts, never.
    @Test func entityTagsFollowTheFonts() throws {
        var builder = FontBuilder()
        builder.square(for: "完")
        let one = LabelFonts(fallbacks: [try TrueTypeFont(bytes: builder.bytes(), fallbackName: "one")])
        builder.square(for: "成")
        let two = LabelFonts(fallbacks: [try TrueTypeFont(bytes: builder.bytes(), fallbackName: "two")])
        let spec = try RingSpec(query: "p=72&label=完成")
        func tag(_ format: RingImage.Format, _ fonts: LabelFonts, scale: Int = 1) throws -> String {
            var scaled = spec
            scaled.scale = scale
            let image = try RingImage(spec: scaled, format: format, fonts: fonts)
            // The bytes the service writes into the `ETag` line are the tag's, in every form.
            let written = [UInt8](unsafeUninitializedCapacity: RingImage.maximumEntityTagBytes) { room, count in
                count = image.writeEntityTag(to: room)
            }
            #expect(String(decoding: written, as: UTF8.self) == image.entityTag)
            return image.entityTag
        }
        #expect(try tag(.png, one, scale: RingLimits.scale.upperBound).contains("@\(RingLimits.scale.upperBound)x-f"))
        #expect(try tag(.svg, .embedded).hasPrefix("\"r\(RingImage.Format.svg.rendererVersion)-svg-"))
        let plain = try tag(.png, .embedded)
        #expect(!plain.contains("-f"))
        #expect(try tag(.png, one).contains("-f"))
        #expect(Set([plain, try tag(.png, one), try tag(.png, two)]).count == 3)
        #expect(try tag(.svg, one) == (try tag(.svg, .embedded)))
        #expect(try RingImage(spec: spec, format: .png, fonts: one).missingCharacters == ["成"])
        #expect(try RingImage(spec: spec, format: .svg, fonts: one).missingCharacters.isEmpty)
    }

    /// The count each PNG render records is the list's length, over both lines of a wrapped
    /// label and a caption; an SVG has none.
    @Test func theMissingCountIsTheListsLength() throws {
        // A label of two lines, a label and a caption, and only ASCII.
        for (query, missing) in [("p=72&label=進捗状況を表示中", 8), ("p=72&label=完成&caption=完了", 4), ("p=72", 0)] {
            let spec = try RingSpec(query: query)
            let png = try RingImage(spec: spec, format: .png, fonts: embedded)
            #expect(png.missingCharacters.count == missing, "\(query)")
            #expect(png.missingCharacterCount == missing, "\(query)")
            #expect(try RingImage(spec: spec, format: .svg, fonts: embedded).missingCharacterCount == 0)
        }
        let wrapped = try RingImage(spec: RingSpec(query: "p=72&label=進捗状況を表示中"), format: .png, fonts: embedded)
        #expect(wrapped.scene.label?.secondLine != nil)
        let captioned = try RingImage(spec: RingSpec(query: "p=72&label=完成&caption=完了"), format: .png, fonts: embedded)
        #expect(captioned.scene.caption != nil)
    }

    /// A copy (one for each event loop) is another object with the same fonts: equal, with the
    /// same entity tags and the same pixels.
    @Test func aCopyDrawsAndTagsAsTheOriginal() throws {
        var builder = FontBuilder()
        builder.square(for: "完")
        let original = LabelFonts(fallbacks: [try TrueTypeFont(bytes: builder.bytes(), fallbackName: "one")])
        let copy = LabelFonts(copying: original)
        #expect(copy !== original)
        #expect(copy == original)
        #expect(copy != LabelFonts.embedded)
        let spec = try RingSpec(query: "p=72&label=完成")
        let first = try RingImage(spec: spec, format: .png, fonts: original)
        let second = try RingImage(spec: spec, format: .png, fonts: copy)
        #expect(first.entityTag == second.entityTag)
        #expect(first.entityTag != (try RingImage(spec: spec, format: .png, fonts: .embedded).entityTag))
        #expect(first.missingCharacters == second.missingCharacters)
        #expect(first.render() == second.render())
    }

    /// Implied on-curve points: two off-curve points in a row meet at their middle.
    @Test func flatteningPassesThroughImpliedPoints() {
        let points = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        let flat = LabelFonts.flatten(points, onCurve: [true, false, false, true])
        #expect(flat.first == Point(x: 0, y: 0))
        #expect(flat.contains(Point(x: 10, y: 5)))
        #expect(flat.contains(Point(x: 0, y: 10)))
    }
}
