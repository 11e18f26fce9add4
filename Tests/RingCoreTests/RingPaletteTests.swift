import Foundation
import RingTestSupport
import Testing

@testable import RingCore

/// With no `color`, each concentric ring takes its own colour from a small palette, legible on
/// light and dark pages, switching with the reader's scheme.
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

    /// Every entry reads at 3:1 (WCAG's for graphics) on white in its light form and on GitHub's
    /// dark page in its dark form.
    @Test func everyPaletteColourIsLegibleInItsScheme() {
        for entry in SchemeDefault.palette {
            #expect(entry.light.contrast(with: RingColor(rgb: 0xFFFFFF)) >= 3)
            #expect(entry.dark.contrast(with: RingColor(rgb: 0x0D1117)) >= 3)
        }
    }

    @Test func theSchemeChoosesTheForm() throws {
        let dark = try Self.barColours("p=72,45,90&theme=dark")
        #expect(dark == SchemeDefault.palette.prefix(3).map(\.dark))
        #expect(try Self.barColours("p=72,45,90&bg=0d1117") == dark)
        let auto = try scene("p=72,45,90")
        #expect(auto.rings.map { $0.bar?.dark } == [nil] + SchemeDefault.palette[1...2].map(\.dark))
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: "p=72,45,90")), as: UTF8.self)
        #expect(svg.contains("-b1{stroke:#3fb950}") && svg.contains("-b2{stroke:#db6d28}"))
    }

    @Test func givenColoursThresholdsAndGradientsOverrideThePalette() throws {
        #expect(try Self.barColours("p=72,45&color=ff0000") == [RingColor(rgb: 0xFF0000), RingColor(rgb: 0xFF0000)])
        let thresholds = try scene("p=72,45&thresholds=ff0000,50:00ff00")
        #expect(thresholds.rings.allSatisfy { $0.bar?.dark == nil })
        #expect(
            try Self.barColours("p=72,45&thresholds=ff0000,50:00ff00") == [
                RingColor(rgb: 0x00FF00), RingColor(rgb: 0xFF0000),
            ])
        #expect(try scene("p=72,45&gradient=red,blue").rings.allSatisfy { $0.bar?.dark == nil })
    }

    /// A dot (a bar too short for its caps) switches too, by its fill.
    @Test func aDotSwitchesByItsFill() throws {
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: "p=72,0.01")), as: UTF8.self)
        #expect(svg.contains("-b1d{fill:#3fb950}"))
        #expect(svg.contains("class=\"r") && svg.contains("-b1d\""))
    }
}
