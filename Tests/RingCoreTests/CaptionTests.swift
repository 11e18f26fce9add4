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

    /// The two lines are laid out from the font's real ascent and descent, accents on
    /// capitals included: the label's descent, a gap of at least a pixel, then the caption's
    /// ascent (the baselines were 0.448 of the label's size apart, and "qypg" over "ÉÀÎÔ"
    /// overlapped by about 3 px). The caption is half the label's size.
    @Test(arguments: [
        "p=72&size=200&label=Daily&caption=Steps+%7Bp%7D", "p=64&half&label=Energy&caption=Today+%7Bp%7D&size=200",
        "p=72&size=200&label=%C4%90ang+g%E1%BB%ADi&caption=%E1%BB%94n+%C4%91%E1%BB%8Bnh+%7Bp%7D",
        "p=72&size=200&label=qypg&caption=%C3%89%C3%80%C3%8E%C3%94", "p=72&label=Daily&caption=Steps+%7Bp%7D",
    ])
    func theLinesNeverTouch(query: String) throws {
        let ring = try scene(query)
        let label = try #require(ring.label)
        let caption = try #require(ring.caption)
        // DejaVu Sans Bold: descent 0.236 em; ascent 0.928 em, 1.123 for Vietnamese capitals.
        let ascent = caption.text.unicodeScalars.contains { (0x1E00...0x1EFF).contains($0.value) } ? 1.123 : 0.928
        let inkGap = (caption.baseline - ascent * caption.fontSize) - (label.baseline + 0.236 * label.fontSize)
        #expect(inkGap >= 1, "\(query): \(inkGap) px between the lines' ink")
        #expect(abs(caption.fontSize - label.fontSize / 2) < 0.01 || caption.fontSize < label.fontSize / 2)
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
        #expect(
            auto.color == RingScene.SchemeColor(color: SchemeDefault.caption.light, dark: SchemeDefault.caption.dark))
        #expect(try scene("p=72&caption=x&theme=dark").caption?.color.color == SchemeDefault.caption.dark)
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
