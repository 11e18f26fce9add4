import RingTestSupport
import Testing

@testable import RingRaster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The TrueType reader, on the embedded font and on fonts the tests write themselves.
@Suite struct TrueTypeFontTests {
    let embedded = TrueTypeFont.embedded

    @Test func readsTheEmbeddedFont() {
        #expect(embedded.unitsPerEm == 2048)
        #expect(embedded.glyphCount > 5900)
        #expect(embedded.name == "DejaVu Sans Bold")
        // DejaVu Sans Bold's own advances, in font units.
        #expect(embedded.glyphID(for: "7").map(embedded.advance) == 1425)
        #expect(embedded.glyphID(for: "%").map(embedded.advance) == 2052)
        #expect(embedded.glyphID(for: "中") == nil)
    }

    /// DejaVu's "ệ" is a composite of "e", the dot below and the circumflex: assembled, it
    /// has the points of its parts, the base's unmoved.
    @Test func assemblesCompositeGlyphs() throws {
        let e = embedded.glyph(try #require(embedded.glyphID(for: "e")))
        let composite = embedded.glyph(try #require(embedded.glyphID(for: "ệ")))
        #expect(composite.contours.count > e.contours.count)
        #expect(composite.advance == e.advance)
        #expect(composite.contours.contains(e.contours[0]))
    }

    @Test func readsBothCharacterMapFormats() throws {
        for format in [4, 12] {
            var builder = FontBuilder()
            builder.cmapFormat = format
            let a = builder.square(for: "A")
            let han = builder.square(for: "中")
            let font = try TrueTypeFont(bytes: builder.bytes(), fallbackName: "test")
            #expect(font.glyphID(for: "A") == a, "format \(format)")
            #expect(font.glyphID(for: "中") == han, "format \(format)")
            #expect(font.glyphID(for: "B") == nil, "format \(format)")
            #expect(
                font.glyph(han).contours == [
                    [
                        OutlinePoint(x: 100, y: 0, onCurve: true), OutlinePoint(x: 900, y: 0, onCurve: true),
                        OutlinePoint(x: 900, y: 800, onCurve: true), OutlinePoint(x: 100, y: 800, onCurve: true),
                    ]
                ])
        }
        var astral = FontBuilder()
        let emoji = astral.square(for: "😀")
        #expect(try TrueTypeFont(bytes: astral.bytes(), fallbackName: "test").glyphID(for: "😀") == emoji)
    }

    @Test func placesScaledAndMatchedComponents() throws {
        var builder = FontBuilder()
        let square = builder.square(for: "A", size: 400)
        builder.glyphs.append(
            (1000, .composite([FontBuilder.Component(glyph: square, first: 200, second: -50, scale: 0.5)])))
        // The second square's point 0 meets the first's point 2.
        builder.glyphs.append(
            (
                1000,
                .composite([
                    FontBuilder.Component(glyph: square),
                    FontBuilder.Component(glyph: square, first: 2, second: 0, matching: true),
                ])
            ))
        let font = try TrueTypeFont(bytes: builder.bytes(), fallbackName: "test")
        let scaled = font.glyph(2).contours
        #expect(scaled.first?.first == OutlinePoint(x: 250, y: -50, onCurve: true))
        #expect(scaled.first?[2] == OutlinePoint(x: 450, y: 150, onCurve: true))
        let matched = font.glyph(3).contours
        #expect(matched.count == 2)
        #expect(matched[1][0] == matched[0][2])
    }

    @Test func readsKerningAndTheName() throws {
        var builder = FontBuilder()
        let a = builder.square(for: "A")
        let v = builder.square(for: "V")
        builder.kerning = [(a, v, -120)]
        builder.name = "Test\u{7}Sans \u{202E}Bold"
        let font = try TrueTypeFont(bytes: builder.bytes(), fallbackName: "file.ttf")
        #expect(font.kerning(a, v) == -120)
        #expect(font.kerning(v, a) == 0)
        // Only printable ASCII of the font's own words reaches a log line.
        #expect(font.name == "TestSans Bold")
        builder.name = nil
        #expect(try TrueTypeFont(bytes: builder.bytes(), fallbackName: "file.ttf").name == "file.ttf")
        // DejaVu's own pairs: "A" before "V" comes closer.
        let (dejaA, dejaV) = (try #require(embedded.glyphID(for: "A")), try #require(embedded.glyphID(for: "V")))
        #expect(embedded.kerning(dejaA, dejaV) < 0)
    }

    /// A collection gives its first face.
    @Test func readsACollection() throws {
        var builder = FontBuilder()
        builder.square(for: "中")
        let single = builder.bytes()
        // "ttcf", version 1, one font at offset 16; the face's table offsets move by 16.
        var collection = Array("ttcf".utf8) + be32(0x0001_0000) + be32(1) + be32(16) + single
        let tables = Int(single[4]) << 8 | Int(single[5])
        for index in 0..<tables {
            let at = 16 + 12 + index * 16 + 8
            let offset =
                Int(collection[at]) << 24 | Int(collection[at + 1]) << 16 | Int(collection[at + 2]) << 8
                | Int(collection[at + 3])
            collection.replaceSubrange(at..<at + 4, with: be32(offset + 16))
        }
        let font = try TrueTypeFont(bytes: collection, fallbackName: "test.ttc")
        #expect(font.glyphID(for: "中") == 1)
    }

    @Test func refusesWhatItCannotDraw() {
        func refusal(_ builder: FontBuilder) -> String? {
            do {
                _ = try TrueTypeFont(bytes: builder.bytes(), fallbackName: "test")
                return nil
            } catch {
                return error.message
            }
        }
        var cff = FontBuilder()
        cff.sfntVersion = 0x4F54_544F  // "OTTO"
        #expect(refusal(cff)?.contains("CFF") == true)
        var bitmaps = FontBuilder()
        bitmaps.omitted = ["glyf"]
        #expect(refusal(bitmaps)?.contains("no TrueType outlines") == true)
        var noMap = FontBuilder()
        noMap.omitted = ["cmap"]
        #expect(refusal(noMap) == "has no 'cmap' table")
        var tiny = FontBuilder()
        tiny.unitsPerEm = 4
        #expect(refusal(tiny)?.contains("units per em") == true)
        #expect(throws: FontError.self) { try TrueTypeFont(bytes: Array("not a font".utf8), fallbackName: "x") }
        #expect(throws: FontError.self) {
            try TrueTypeFont(bytes: FontBuilder().bytes(), fallbackName: "x", limits: FontLimits(maximumFileBytes: 100))
        }
    }

    /// A glyph that contains itself, or more points than the limit, draws nothing; no trap,
    /// no endless loop.
    @Test func hostileGlyphsDrawNothing() throws {
        var builder = FontBuilder()
        builder.glyphs.append((1000, .composite([FontBuilder.Component(glyph: 1)])))  // itself
        let big = (0..<5000).map { ($0, $0 % 7, true) }
        builder.glyphs.append((1000, .outline([big])))
        builder.glyphs.append((1000, .composite([FontBuilder.Component(glyph: 999)])))  // missing
        let font = try TrueTypeFont(bytes: builder.bytes(), fallbackName: "test")
        #expect(font.glyph(1).contours.isEmpty)
        #expect(font.glyph(2).contours.isEmpty)
        #expect(font.glyph(3).contours.isEmpty)
        #expect(font.advance(of: 1) == 1000)
    }

    /// Every prefix of a font, and a thousand copies with bytes changed at random, either read
    /// or are refused; every glyph of those that read decodes without a trap.
    @Test func corruptFilesNeverTrap() {
        var builder = FontBuilder()
        builder.square(for: "A")
        builder.square(for: "中")
        builder.kerning = [(1, 2, -10)]
        builder.name = "Corrupt"
        builder.glyphs.append((900, .composite([FontBuilder.Component(glyph: 1, first: 10, second: 10, scale: 0.5)])))
        let good = builder.bytes()
        func exercise(_ bytes: [UInt8]) {
            guard let font = try? TrueTypeFont(bytes: bytes, fallbackName: "x") else { return }
            for id in 0..<UInt16(min(font.glyphCount, 64)) {
                _ = font.glyph(id)
                _ = font.advance(of: id)
                _ = font.kerning(id, 2)
            }
            for scalar in "A中😀\u{FFFF}".unicodeScalars { _ = font.glyphID(for: scalar) }
            _ = LabelFonts(fallbacks: [font]).outline(of: "A中x", fontSize: 12, centreX: 10, baseline: 10)
        }
        for length in 0..<good.count { exercise(Array(good.prefix(length))) }
        var generator = SeededGenerator(seed: 25)
        for _ in 0..<1000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            exercise(bytes)
        }
    }

    @Test func theCacheHasItsBound() throws {
        var builder = FontBuilder()
        for value in 0x4E00..<0x4E40 { builder.square(for: Unicode.Scalar(value)!) }
        let font = try TrueTypeFont(bytes: builder.bytes(), fallbackName: "test", limits: FontLimits(cachedGlyphs: 16))
        for id in 0..<UInt16(font.glyphCount) { _ = font.glyph(id) }
        #expect(font.cachedGlyphCount <= 16)
        #expect(font.cachedGlyphCount > 0)
    }

    @Test func readsFilesAndNamesTheOnesItCannot() throws {
        let path = "/tmp/ring-font-test-\(getpid()).ttf"
        var builder = FontBuilder()
        let a = builder.square(for: "A")
        let bytes = builder.bytes()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        close(descriptor)
        defer { unlink(path) }
        let font = try TrueTypeFont(contentsOf: path)
        #expect(font.path == path)
        #expect(font.name == "ring-font-test-\(getpid()).ttf")
        // Its outlines are read from the file when drawn: the same as from a copy of its bytes.
        let copy = try TrueTypeFont(bytes: bytes, fallbackName: "copy")
        #expect(font.fingerprint == copy.fingerprint)
        #expect(font.glyphCount == copy.glyphCount)
        for id in 0..<UInt16(copy.glyphCount) {
            #expect(font.glyph(id).contours == copy.glyph(id).contours)
            #expect(font.advance(of: id) == copy.advance(of: id))
        }
        #expect(font.glyphID(for: "A") == a)
        #expect(font.glyph(a).contours.count == 1)
        #expect(throws: FontError.self) { try TrueTypeFont(contentsOf: "/tmp") }
        let empty = "/tmp/ring-font-test-empty-\(getpid()).ttf"
        close(open(empty, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        defer { unlink(empty) }
        #expect(throws: FontError.truncated) { try TrueTypeFont(contentsOf: empty) }
        #expect(throws: FontError.self) { try TrueTypeFont(contentsOf: path, limits: FontLimits(maximumFileBytes: 10)) }
        do {
            _ = try LabelFonts.load(paths: [path, "/nonexistent/font.ttf"])
            Issue.record("a named font that does not exist loaded")
        } catch {
            #expect(error.message.hasPrefix("font /nonexistent/font.ttf cannot be opened"))
        }
        let loaded = try LabelFonts.load(paths: [path])
        #expect(loaded.fonts.fonts.count == 2)
        #expect(loaded.fonts.summary == "DejaVu Sans Bold (embedded), \(font.name) (\(path))")
        // A file cut short while open: its glyphs not yet drawn draw nothing, and nothing traps.
        let cut = try TrueTypeFont(contentsOf: path)
        #expect(truncate(path, 64) == 0)
        #expect(cut.glyph(a).contours.isEmpty)
        #expect(cut.glyphID(for: "A") == a)
        #expect(throws: FontError.self) { try TrueTypeFont(contentsOf: path) }
    }
}
