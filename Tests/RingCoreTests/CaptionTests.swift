import RingTestSupport
import Testing

@testable import RingCore

/// `caption`: a second, smaller line under the label, centred with it as one block.
@Suite struct CaptionTests {
    @Test func sitsUnderTheLabelAndTheBlockIsCentred() throws {
        let ring = try scene("p=72&caption=coverage")
        let label = try #require(ring.label)
        let caption = try #require(ring.caption)
        #expect(caption.text == "coverage")
        #expect(caption.fontSize < label.fontSize && caption.fontSize >= RingGeometry.minimumFontSize)
        #expect(caption.baseline > label.baseline + 0.72 * caption.fontSize)
        // The block, from the label's cap height to the caption's baseline, is centred.
        let top = label.baseline - 0.72 * label.fontSize
        #expect(abs((top + caption.baseline) / 2 - ring.centerY) < 0.01)
        // Alone, the label is larger and centred on its own.
        let alone = try #require(try scene("p=72").label)
        #expect(alone.fontSize > label.fontSize)
    }

    /// Both lines fit inside the inner circle: their corners stay within its radius.
    @Test(arguments: [
        "p=72&caption=coverage", "p=100&caption=all+tests+passed+on+main&size=300&width=40",
        "p=5&caption=WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW&size=64",
    ])
    func bothLinesFitInsideTheRing(query: String) throws {
        let ring = try scene(query)
        let stroke = try #require(ring.rings[0].track?.stroke)
        let inner = stroke.radius - stroke.width / 2
        for text in [ring.label, ring.caption].compactMap({ $0 }) {
            let half = TextWidth.em(text.text) * text.fontSize / 2
            for y in [text.baseline, text.baseline - 0.72 * text.fontSize] {
                #expect((half * half + (y - ring.centerY) * (y - ring.centerY)).squareRoot() <= inner, "\(text.text)")
            }
        }
    }

    @Test func onAHalfGaugeItSitsWhereTheLabelWouldAndTheBoxStillHoldsIt() throws {
        let ring = try scene("p=64&half&caption=of+budget")
        let caption = try #require(ring.caption)
        let label = try #require(ring.label)
        #expect(caption.baseline == (try scene("p=64&half")).label?.baseline)
        #expect(label.baseline < caption.baseline && caption.baseline + 0.25 * caption.fontSize <= ring.height)
    }

    @Test func substitutesThePercentageAndIsLeftOutWhenTooSmall() throws {
        #expect(try scene("p=72&caption=of+{p}").caption?.text == "of 72%")
        #expect(try scene("p=72&caption=coverage&size=40").caption == nil)
        #expect(try scene("p=72&caption=coverage&label=none").caption?.text == "coverage")
        #expect(try scene("p=72").caption == nil)
    }

    @Test func colourIsMutedSwitchesUnderAutoAndCanBeGiven() throws {
        let auto = try #require(try scene("p=72&caption=x").caption)
        #expect(auto.color == RingScene.SchemeColor(color: DefaultColors.lightCaption, dark: DefaultColors.darkCaption))
        #expect(try scene("p=72&caption=x&theme=dark").caption?.color.color == DefaultColors.darkCaption)
        #expect(try scene("p=72&caption=x&captionColor=0969da").caption?.color.color == RingColor(rgb: 0x0969DA))
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: "p=72&caption=x")), as: UTF8.self)
        #expect(svg.contains("-c{fill:#8b949e}"))
        #expect(svg.contains(">x</text>"))
        // On a dark fill the muted colour still reads at 4.5:1.
        let onFill = try #require(try scene("p=72&caption=x&fill=0d1117&theme=light").caption)
        #expect(onFill.color.color.contrast(with: RingColor(rgb: 0x0D1117)) >= RingScene.minimumLabelContrast)
    }

    @Test func textRulesAreTheLabels() {
        #expect(refusal("p=1&caption=") == "caption: \"\" is not non-empty text")
        #expect(refusal("p=1&caption=\(String(repeating: "x", count: 33))")?.contains("at most 32") == true)
        #expect(refusal("p=1&caption=a%E2%80%AEb")?.hasPrefix("caption: ") == true)
        #expect(refusal("p=1&captionColor=nope")?.hasPrefix("captionColor: ") == true)
    }
}

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
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
