// libFuzzer harness for the TrueType reader, compiled by scripts/checks/fuzz.sh together with
// RingRaster's sources against RingCore, the embedded font data and zlib (not part of the
// package).
//
// Input: a font file. The seeds in Tests/Fuzz/corpus/font are tiny subsets of DejaVu Sans Bold
// (composites and kerning), Droid Sans Fallback, NanumGothic Bold and a collection of two,
// written with fontTools; see the README there.
// Checks: no crash, trap or hang; a font that reads gives every glyph's outline with finite
// points and within the point limit, and a label drawn with it as a fallback font fills a
// canvas of the size asked for.

import RingCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFontReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let limits = FontLimits(cachedGlyphs: 64)
    guard
        let font = try? TrueTypeFont(
            bytes: Array(UnsafeBufferPointer(start: data, count: size)), fallbackName: "fuzz", limits: limits)
    else { return 0 }
    precondition(font.glyphCount > 0 && font.unitsPerEm >= 16)
    precondition(font.name.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) } && font.name.count <= 64)
    for id in 0..<UInt16(min(font.glyphCount, 128)) {
        let glyph = font.glyph(id)
        let points = glyph.contours.joined()
        precondition(points.count <= limits.maximumPoints, "glyph \(id) has \(points.count) points")
        precondition(points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        _ = font.kerning(id, id &+ 1)
    }
    for scalar in "A7é中成가완😀\u{FFFF}\u{10FFFF}".unicodeScalars {
        if let id = font.glyphID(for: scalar) { precondition(Int(id) < font.glyphCount) }
    }
    let fonts = LabelFonts(fallbacks: [font])
    var scene = RingScene(spec: try! RingSpec(query: "p=72&size=64&label=%E4%B8%AD%EA%B0%80A"))
    scene.caption = nil
    let canvas = RingRasterizer.draw(scene, scale: 1, fonts: fonts)
    precondition(canvas.width == 64 && canvas.height == 64)
    _ = fonts.missingCharacters(in: "中가😀")
    return 0
}
