import Foundation
import RingTestSupport
import Testing

@testable import RingCore

/// With no `color`, each concentric ring takes its own colour from a small palette of one
/// lightness, legible on light and dark pages alike.
@Suite struct RingPaletteTests {
    static func barColours(_ query: String) throws -> [RingColor] {
        try scene(query).rings.compactMap { ring -> RingColor? in
            guard case .solid(let color)? = ring.bar?.paint else { return nil }
            return color
        }
    }

    @Test func concentricRingsGetDistinctColours() throws {
        let colours = try Self.barColours("p=72,45,90,30")
        #expect(Set(colours.map { "\($0.red),\($0.green),\($0.blue)" }).count == 4)
        #expect(colours[0] == SchemeDefault.bar.light)
        #expect(try Self.barColours("p=72") == [SchemeDefault.bar.light])
    }

    /// One perceived lightness for every hue, the default blue's, so no ring dominates, and
    /// each entry reads at 3:1 (WCAG's for graphics) on white and on GitHub's dark page: one
    /// colour serves both schemes.
    @Test func everyPaletteColourIsLegibleInBothSchemesAtOneLightness() {
        let lightness = SchemeDefault.palette.map(Self.oklabLightness)
        for (entry, value) in zip(SchemeDefault.palette, lightness) {
            #expect(abs(value - lightness[0]) < 0.005, "\(entry): L \(value) against the blue's \(lightness[0])")
            #expect(entry.contrast(with: RingColor(rgb: 0xFFFFFF)) >= 3)
            #expect(entry.contrast(with: RingColor(rgb: 0x0D1117)) >= 3)
        }
    }

    /// OKLab's L of an sRGB colour.
    static func oklabLightness(_ color: RingColor) -> Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(color.red), linear(color.green), linear(color.blue))
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
    }

    /// The palette does not switch with the scheme: the same colours in light, dark and auto,
    /// with no dark-scheme rule for a bar, a dot or a lap's head.
    @Test func theSameColoursInEveryScheme() throws {
        let light = try Self.barColours("p=72,45,90")
        #expect(light == Array(SchemeDefault.palette.prefix(3)))
        #expect(try Self.barColours("p=72,45,90&theme=dark") == light)
        #expect(try Self.barColours("p=72,45,90&bg=0d1117") == light)
        for query in ["p=72,45,90", "p=72,0.01", "p=50,230&overflow=lap"] {
            let svg = String(decoding: RingRenderer.render(try RingSpec(query: query)), as: UTF8.self)
            #expect(!svg.contains("-b1") && !svg.contains("-b2"), "\(query)")
        }
    }

    @Test func givenColoursThresholdsAndGradientsOverrideThePalette() throws {
        #expect(try Self.barColours("p=72,45&color=ff0000") == [RingColor(rgb: 0xFF0000), RingColor(rgb: 0xFF0000)])
        #expect(
            try Self.barColours("p=72,45&thresholds=ff0000,50:00ff00") == [
                RingColor(rgb: 0x00FF00), RingColor(rgb: 0xFF0000),
            ])
    }
}
