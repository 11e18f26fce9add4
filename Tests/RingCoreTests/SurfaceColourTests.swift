import Foundation
import RingTestSupport
import Testing

@testable import RingCore

/// A ring on a colour of its own keeps colours chosen for it (issue: `theme=auto` with `bg`).
@Suite struct SurfaceColourTests {
    private func scene(_ query: String) throws -> RingScene {
        RingScene(spec: try RingSpec(query: query))
    }

    @Test func aBackgroundFixesTheTrackAndTheLabel() throws {
        let onWhite = try scene("p=72&bg=ffffff")
        #expect(onWhite.label?.color == RingScene.SchemeColor(color: SchemeDefault.label.light, dark: nil))
        #expect(onWhite.rings[0].track?.color == RingScene.SchemeColor(color: SchemeDefault.track.light, dark: nil))
        let onDark = try scene("p=72&bg=0d1117")
        #expect(onDark.label?.color == RingScene.SchemeColor(color: SchemeDefault.label.dark, dark: nil))
        #expect(onDark.rings[0].track?.color == RingScene.SchemeColor(color: SchemeDefault.track.dark, dark: nil))
    }

    /// A fill sits under the label only: the label is chosen for it, the track still follows
    /// the page's scheme.
    @Test func aFillFixesTheLabelOnly() throws {
        let s = try scene("p=72&fill=222222")
        #expect(s.label?.color.dark == nil)
        #expect(s.label?.color.color == SchemeDefault.label.dark)
        #expect(s.rings[0].track?.color.dark == SchemeDefault.track.dark)
    }

    /// Whatever the surface and the theme, a label the ring chooses reads at WCAG's 4.5:1,
    /// also over either page when the surface is translucent; one the URL gives is kept.
    @Test func aChosenLabelAlwaysReads() throws {
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<1500 {
            let hex = String(format: "%06x", Int.random(in: 0...0xFFFFFF, using: &generator))
            let alpha =
                Bool.random(using: &generator) ? "" : String(format: "%02x", Int.random(in: 0...255, using: &generator))
            let theme = ["auto", "light", "dark"].randomElement(using: &generator)!
            let parameter = Bool.random(using: &generator) ? "bg" : "fill"
            let s = try scene("p=50&\(parameter)=\(hex)\(alpha)&theme=\(theme)")
            let surface = try #require(RingColor(parsing: hex + alpha))
            let label = try #require(s.label?.color)
            // Each scheme's label against what that scheme's reader sees: the surface over a
            // white page (light) or a black one (dark); an opaque surface is the same in both.
            var seen: [(RingColor, RingColor)] = []
            if theme != "dark" { seen.append((label.color, surface.over(.white))) }
            if theme != "light" {
                seen.append((theme == "dark" ? label.color : label.dark ?? label.color, surface.over(.black)))
            }
            if surface.alpha == 255 { #expect(label.dark == nil) }
            for (color, backdrop) in seen {
                #expect(
                    color.contrast(with: backdrop) >= RingScene.minimumLabelContrast,
                    "\(parameter)=\(hex)\(alpha) theme=\(theme): \(color.contrast(with: backdrop))")
            }
        }
        #expect(try scene("p=72&bg=ffffff&labelColor=eeeeee").label?.color.color == RingColor(rgb: 0xEEEEEE))
    }

    @Test func contrastFollowsWCAG() {
        #expect(abs(RingColor.white.contrast(with: .black) - 21) < 1e-9)
        #expect(abs(RingColor(rgb: 0x777777).contrast(with: .white) - 4.48) < 0.01)
    }
}

extension RingColor {
    static let white = RingColor(rgb: 0xFFFFFF)
    static let black = RingColor(rgb: 0x000000)
}
