import RingTestSupport
import Testing

@testable import RingCore

@Suite struct RingGeometryTests {
    private func geometry(_ query: String) throws -> RingGeometry {
        let spec = try RingSpec(query: query)
        return RingGeometry(spec: spec, labelText: "72%")
    }

    /// With round caps the visible bar, caps included, is what follows the value: on a full
    /// ring it starts at `start`, so the centre line starts half a cap later; on an open arc
    /// the bar's cap sits where the track's does.
    @Test func roundCapsAreCountedInTheVisibleExtent() throws {
        let g = try geometry("p=50&start=30")
        let cap = g.barWidth * 180 / (Double.pi * g.rings[0].radius)
        let bar = try #require(g.rings[0].bar)
        #expect(abs(bar.start - (30 + cap / 2)) < 1e-9)
        #expect(abs(bar.sweep + cap - 180) < 1e-9)
        let half = try geometry("p=50&half")
        let arc = try #require(half.rings[0].bar)
        #expect(arc.start == 270)
        #expect(abs(arc.sweep + cap - (180 + cap) / 2) < 1e-9)  // the visible end at 12 o'clock
    }

    @Test func fullRingStartsAtStart() throws {
        let g = try geometry("p=25&start=30&cap=butt")
        #expect(g.rings[0].bar == RingGeometry.Arc(start: 30, sweep: 90))
        #expect(g.track.sweep == 360)
    }

    @Test func counterClockwiseSweepsNegative() throws {
        let g = try geometry("p=25&start=30&dir=ccw&cap=butt")
        #expect(g.rings[0].bar == RingGeometry.Arc(start: 30, sweep: -90))
    }

    @Test func sliceCentresTheGapOppositeStart() throws {
        let g = try geometry("p=50&slice=0.25&cap=butt")
        // Usable arc 270°, gap centred at 180°: the bar starts at 180 + 45 = 225° and runs 135°.
        #expect(g.track == RingGeometry.Arc(start: 225, sweep: 270))
        #expect(g.rings[0].bar == RingGeometry.Arc(start: 225, sweep: 135))
        let ccw = try geometry("p=50&slice=0.25&dir=ccw&cap=butt")
        #expect(ccw.rings[0].bar == RingGeometry.Arc(start: 135, sweep: -135))
        #expect(ccw.track == RingGeometry.Arc(start: 135, sweep: -270))
        let rotated = try geometry("p=100&slice=0.5&start=90")
        #expect(rotated.rings[0].bar == RingGeometry.Arc(start: 360, sweep: 180))
    }

    @Test func halfGaugeRunsFromNineOverTwelveToThree() throws {
        let g = try geometry("p=50&half&cap=butt")
        #expect(g.track == RingGeometry.Arc(start: 270, sweep: 180))
        #expect(g.rings[0].bar == RingGeometry.Arc(start: 270, sweep: 90))
        #expect(g.height < g.width * 0.6)
        let ccw = try geometry("p=50&half&dir=ccw&cap=butt")
        #expect(ccw.rings[0].bar == RingGeometry.Arc(start: 90, sweep: -90))
    }

    /// A half gauge's height is a function of its size, widths and shape, never of its text:
    /// gauges side by side, bottom-aligned, line up. The largest label still fits above it.
    @Test(arguments: [120, 32, 300])
    func aHalfGaugesHeightDependsOnItsShapeAlone(size: Int) throws {
        let base = "p=64&half&size=\(size)"
        let heights = try [
            "", "&label=none", "&label=abc", "&decimals=2", "&label=qypg&caption=%C3%89%C3%80%C3%8E%C3%94",
            "&caption=Steps", "&label=Energy&caption=Today+%7Bp%7D",
        ].map { try geometry(base + $0).height }
        #expect(Set(heights).count == 1, "\(heights)")
        for query in [base + "&label=qypg", base + "&label=%E0%A4%A4%E0%A5%8D%E0%A4%AF&width=1"] {
            let g = try geometry(query)
            #expect(g.labelBaseline + 0.25 * g.fontSize <= g.height, "\(query)")
        }
    }

    @Test func zeroDrawsNoBarAndFullIsClosed() throws {
        #expect(try geometry("p=0").rings[0].bar == nil)
        #expect(try geometry("p=-10").rings[0].bar == nil)
        let full = try geometry("p=100")
        #expect(full.rings[0].barIsClosed)
        #expect(full.rings[0].bar?.sweep == 360)
        #expect(try !geometry("p=100&slice=0.1").rings[0].barIsClosed)
    }

    @Test func justUnderFullKeepsAVisibleGap() throws {
        for query in ["p=99.9", "p=99.9&cap=butt", "p=99&width=40", "p=99.99&size=16"] {
            let g = try geometry(query)
            let bar = try #require(g.rings[0].bar)
            #expect(!g.rings[0].barIsClosed)
            let gapPixels = (360 - bar.sweep) * .pi / 180 * g.rings[0].radius
            let capPixels = query.contains("butt") ? 0 : g.barWidth
            #expect(gapPixels - capPixels >= 1.49, "\(query): gap \(gapPixels)px")
        }
    }

    @Test func strokesStayInsideTheImage() throws {
        for query in [
            "p=50", "p=50&width=40", "p=50&width=40&shadow&outline=000", "p=50&size=16&width=5.33&shadow&outline=000",
        ] {
            let g = try geometry(query)
            let outer =
                g.rings[0].radius
                + max(g.barWidth / 2, g.trackWidth / 2 + (query.contains("outline") ? g.outlineWidth : 0))
            let shadow = query.contains("shadow") ? 3 * g.shadowBlur + g.shadowOffset : 0
            #expect(outer + shadow <= g.width / 2 + 1e-9, "\(query)")
            #expect(g.rings[0].radius - g.barWidth / 2 > 0, "\(query)")
        }
    }

    @Test func labelFitsTheInnerCircle() throws {
        let spec = try RingSpec(query: "p=1&width=40")
        let texts = [
            "100%", "1000000000%", "WWWWWWWWWWWWWWWWWWWW", "進捗は七十二パーセント", "완료 72%", "진행률은 칠십이 퍼센트입니다",
            "ＦＵＬＬＷＩＤＴＨ", "Tiê\u{301}n đô\u{323}\u{302} 72%",
        ]
        for text in texts {
            let g = RingGeometry(spec: spec, labelText: text)
            let inner = g.rings[0].radius - g.barWidth / 2
            let lines = [g.labelText, g.labelSecondLine].compactMap { $0 }
            for line in lines { #expect(TextWidth.em(line) * g.fontSize <= 2 * inner, "\(text)") }
            // Whole, on one line or two (a space dropped at a break), or cut with `…`.
            let drawn = lines.joined()
            let whole = text.filter { $0 != " " }
            #expect(
                drawn.filter { $0 != " " } == whole
                    || (lines.count == 1 && drawn.hasSuffix("…") && text.hasPrefix(drawn.dropLast())),
                "\(drawn)")
        }
    }

    /// Printable ASCII is measured a byte at a time: the same Double, to the last bit, as the
    /// walk over characters gives (forced here by a zero-width space, which adds nothing).
    @Test func printableASCIIIsMeasuredAsCharactersAre() {
        var generator = SeededGenerator(seed: 31)
        for length in 0..<40 {
            let text = String(
                (0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 32...126, using: &generator))) })
            #expect(TextWidth.em(text).bitPattern == TextWidth.em(text + "\u{200B}").bitPattern, "\(text)")
        }
        #expect(TextWidth.em("72%") > 0 && TextWidth.em("a\tb") == TextWidth.em("a\tb\u{200B}"))
    }

    /// Widths count characters as the reader sees them: marks, joiners and variation
    /// selectors add nothing, an emoji sequence is one emoji, and CJK is one em a character.
    @Test func textWidthCountsWhatTheReaderSees() {
        #expect(TextWidth.em("x\u{301}\u{323}") == TextWidth.em("x"))
        #expect(TextWidth.em("a\u{200B}\u{2060}\u{FEFF}b") == TextWidth.em("ab"))
        #expect(TextWidth.em("❤\u{FE0F}") == TextWidth.em("❤"))
        #expect(TextWidth.em("👩\u{200D}💻") == TextWidth.em("💻"))
        #expect(TextWidth.em("完成") == 2)
        #expect(TextWidth.em("진행률") == 3)
        #expect(TextWidth.em("ひらがな") == 4)
        #expect(TextWidth.em("ＦＵＬＬ") == 4)
        #expect(TextWidth.em("\u{1100}\u{1161}") == 1)  // a syllable of conjoining jamo
        #expect(TextWidth.em("ｱｲ") < 2)  // half-width katakana are narrow
    }
}
