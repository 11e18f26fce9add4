import RingTestSupport
import Testing

@testable import RingCore

/// How the label and caption are laid out: numbers shown whole, only what is drawn taking
/// room, one size for neighbouring values, and a font stack that keeps digits in a text face.
@Suite struct LabelLayoutTests {
    /// Free text too long for the minimum size keeps its longest prefix that fits with `…`
    /// after it: what dropping one character at a time until it fits gives.
    @Test func shorteningKeepsTheLongestPrefixThatFits() {
        let texts = [
            "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "Hoàn thành công việc hôm nay", "進捗状況を表示中です",
            "a👍🏽b́c\u{200D}dé" + String(repeating: "iW ", count: 12), "x",
        ]
        for text in texts {
            for width in stride(from: 0.0, through: 200, by: 3.5) {
                var reference: String?
                var kept = Substring(text)
                while !kept.isEmpty {
                    kept = kept.dropLast()
                    if TextWidth.em(String(kept + "…")) * RingGeometry.minimumFontSize <= width {
                        reference = String(kept + "…")
                        break
                    }
                }
                let line = RingGeometry.TextLine(text: text)
                // Too wide for the minimum size at any width tried here but the largest.
                let (shown, size) = RingGeometry.fit(line, width: width, height: RingGeometry.minimumFontSize)
                if TextWidth.em(text) * RingGeometry.minimumFontSize > width {
                    #expect(shown == reference, "\(text) in \(width) px")
                    #expect(shown == nil || size == RingGeometry.minimumFontSize)
                }
            }
        }
    }

    /// A number is never cut: "-10000…" would read as a number ten times smaller. It is drawn
    /// whole, smaller, or not at all, and the title still carries it.
    @Test(arguments: ["p=-100000&size=48", "p=100&size=28", "p=72.456&decimals=3&size=40", "p=100&size=16"])
    func aNumberIsShownWholeOrNotAtAll(query: String) throws {
        let ring = try scene(query)
        let text = RingScene.percentageText(try RingSpec(query: query))
        #expect(ring.title == text)
        if let label = ring.label {
            #expect(label.text == text, "\(query) reads \(label.text)")
            #expect(label.fontSize >= RingGeometry.minimumFontSize)
        }
    }

    @Test func aLabelWithAPercentageIsShownWholeAndFreeTextIsShortened() throws {
        let numbered = try scene("p=72&size=40&label=%7Bp%7D+of+the+whole+budget")
        #expect(numbered.label == nil || numbered.label?.text.contains("…") == false)
        let free = try #require(try scene("p=72&size=40&label=all+of+the+whole+budget").label)
        #expect(free.text.hasSuffix("…"))
    }

    @Test func randomLabelsShowTheirNumberWhole() throws {
        var generator = SeededGenerator(seed: 0x1AB)
        for _ in 0..<600 {
            let query = RandomQuery.make(&generator)
            let spec = try RingSpec(query: query)
            guard let label = RingScene(spec: spec).label else { continue }
            #expect(label.text == RingScene.percentageText(spec), "\(query)")
        }
    }

    /// Below 81 px a caption is left out, and the label then has the size it has alone; at
    /// 28–32 px a caption used to remove the label too.
    @Test(arguments: [64, 48, 40, 32, 30, 28, 80])
    func aDroppedCaptionLeavesTheLabelItsWholeSize(size: Int) throws {
        let alone = try scene("p=72&size=\(size)")
        let withCaption = try scene("p=72&size=\(size)&caption=coverage")
        if withCaption.caption == nil {
            #expect(withCaption.label == alone.label, "size \(size)")
        }
        #expect((withCaption.label == nil) == (alone.label == nil), "size \(size)")
    }

    /// A drawn caption still shares the block with a smaller label.
    @Test func aDrawnCaptionSharesTheRoom() throws {
        let ring = try scene("p=72&size=120&caption=coverage")
        let alone = try #require(try scene("p=72&size=120").label)
        let label = try #require(ring.label)
        #expect(ring.caption != nil && label.fontSize < alone.fontSize)
    }

    /// 99 % and 100 % read at one size: the label is sized for the widest text its decimals
    /// produce within the range, not for each value.
    @Test func theLabelKeepsItsSizeAt100Percent() throws {
        let almost = try #require(try scene("p=99&size=120").label)
        let full = try #require(try scene("p=100&size=120").label)
        #expect(almost.fontSize == full.fontSize)
    }

    /// Sizing for the widest text costs no ring the label it had: a 32 px ring still reads.
    @Test func aSmallRingKeepsItsLabel() throws {
        let label = try #require(try scene("p=72&size=32").label)
        #expect(label.text == "72%" && label.fontSize >= RingGeometry.minimumFontSize)
    }

    /// Neighbouring values never change the label's size by more than 10 %, at any size,
    /// precision, shape or caption.
    @Test func neighbouringValuesKeepTheLabelsSize() throws {
        for size in [24, 40, 64, 120, 300] {
            for decimals in 0...3 {
                for extra in ["", "&half", "&caption=coverage", "&label=%7Bp%7D+done"] {
                    var previous: Double?
                    var value = -0.5
                    while value <= 100.5 {
                        let query = "p=\(RingLimits.plain(value))&size=\(size)&decimals=\(decimals)\(extra)"
                        let size = try scene(query).label?.fontSize ?? 0
                        if let previous, previous > 0 || size > 0 {
                            #expect(
                                min(previous, size) >= 0.9 * max(previous, size),
                                "\(query): \(previous) then \(size)")
                        }
                        previous = size
                        value += 0.173
                    }
                }
            }
        }
    }

    /// Colour emoji fonts map the digits too, and Pango took the digits from one named in the
    /// stack ("7 2 %"); emoji reach an emoji font by fallback instead.
    @Test func theFontStackNamesNoEmojiFamily() {
        let stack = SVGWriter.fontFamily.description.lowercased()
        #expect(!stack.contains("emoji"))
        #expect(stack.hasSuffix(",sans-serif"))
    }
}
