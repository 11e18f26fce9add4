import RingTestSupport
import Testing

@testable import RingCore

/// The caption stays muted on every surface and in both schemes: it reads at least 3:1, and
/// less than the label against what lies under both.
@Suite struct CaptionHierarchyTests {
    /// What the reader sees under the text over a page of `page`: the fill, the background.
    static func surface(_ ring: RingScene, page: RingColor) -> RingColor {
        [ring.fill?.color, ring.background].compactMap { $0 }.reversed().reduce(page) { $1.over($0) }
    }

    static func check(_ query: String) throws {
        let ring = try scene(query)
        let label = try #require(ring.label, "\(query)")
        let caption = try #require(ring.caption, "\(query)")
        let theme = try RingSpec(query: query).theme
        var pages: [(RingColor, RingColor, RingColor)] = []  // page, label, caption
        if theme != .dark { pages.append((.white, label.color.color, caption.color.color)) }
        if theme == .dark { pages.append((.black, label.color.color, caption.color.color)) }
        if theme == .auto {
            pages.append((.black, label.color.dark ?? label.color.color, caption.color.dark ?? caption.color.color))
        }
        for (page, labelColor, captionColor) in pages {
            let seen = surface(ring, page: page)
            let captionContrast = captionColor.contrast(with: seen)
            #expect(captionContrast >= RingScene.minimumCaptionContrast - 0.01, "\(query) on \(page)")
            #expect(captionContrast < labelColor.contrast(with: seen), "\(query) on \(page)")
        }
    }

    /// The two the issue measured: the label's colour on GitHub's dark surface, and a caption
    /// darker than its label on yellow.
    @Test(arguments: ["p=72&caption=coverage&bg=0d1117", "p=72&caption=coverage&fill=ffcc00"])
    func measuredSurfaces(query: String) throws {
        try Self.check(query)
    }

    @Test func randomSurfacesInBothSchemes() throws {
        var generator = SeededGenerator(seed: 0xCA97)
        func colour() -> String {
            let value = UInt32.random(in: 0...0xFF_FFFF, using: &generator)
            let alpha = [255, 255, 200, 128, 40].randomElement(using: &generator)!
            return String(value, radix: 16).leftPadded(6) + String(alpha, radix: 16).leftPadded(2)
        }
        for _ in 0..<500 {
            var query =
                "p=72&size=200&caption=coverage&theme=\(["light", "dark", "auto"].randomElement(using: &generator)!)"
            if Bool.random(using: &generator) { query += "&bg=\(colour())" }
            if Bool.random(using: &generator) || !query.contains("bg=") { query += "&fill=\(colour())" }
            try Self.check(query)
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
