import RingTestSupport
import Testing

@testable import RingCore

/// A long label goes onto two lines, broken where the scripts allow, before it shrinks.
@Suite struct LabelWrapTests {
    private func label(_ query: String) throws -> RingScene.Label {
        try #require(RingScene(spec: try RingSpec(query: query)).label)
    }

    /// The size one line would have in a full ring: as wide as 0.78 of the inner diameter
    /// and at most 0.62 of the inner radius tall.
    private func oneLineSize(_ query: String, _ text: String) throws -> Double {
        let g = RingGeometry(spec: try RingSpec(query: query), labelText: "72%")
        let inner = g.rings[0].radius - g.strokeHalf
        return RingGeometry.fit(.init(text: text), width: 2 * inner * 0.78, height: inner * 0.62).1
    }

    @Test func longLabelsWrapBeforeTheyShrink() throws {
        // Vietnamese and Japanese text that one line draws at 7.5 and 8.2 px in a 120 px ring.
        let vietnamese = try label("p=72&label=Hoàn+thành+{p}")
        #expect(vietnamese.lines.map(\.text) == ["Hoàn thành", "72%"])
        #expect(try vietnamese.fontSize >= 1.5 * oneLineSize("p=72", "Hoàn thành 100%"))
        let japanese = try label("p=72&label=進捗状況を表示中{p}")
        #expect(japanese.lines.count == 2 && japanese.lines.map(\.text).joined() == "進捗状況を表示中72%")
        #expect(try japanese.fontSize >= 1.5 * oneLineSize("p=72", "進捗状況を表示中100%"))
        // A half gauge wraps upwards: the last line sits where one line would.
        let half = try label("p=72&half&label=Hoàn+thành+{p}")
        let oneLine = RingGeometry(spec: try RingSpec(query: "p=72&half"), labelText: "72%")
        #expect(half.lines.count == 2 && half.secondBaseline == oneLine.labelBaseline)
        #expect(half.baseline < half.secondBaseline)
    }

    /// Both lines' boxes, from ascent to descent, lie within 0.88 of the inner radius.
    @Test(arguments: [
        "p=72&label=Hoàn+thành+{p}", "p=72&label=進捗状況を表示中{p}", "p=72&half&label=Đang+gửi+dữ+liệu+{p}",
        "p=72&slice=0.3&label=진행+상황+{p}&size=240", "p=72,40&label=Daily+goal+{p}", "p=72&width=30&label=Ổn+định+{p}",
    ])
    func wrappedLinesStayInsideTheHole(query: String) throws {
        let spec = try RingSpec(query: query)
        let scene = RingScene(spec: spec)
        let label = try #require(scene.label)
        #expect(label.lines.count == 2, "\(query)")
        let g = RingGeometry(spec: spec, labelText: "72%")
        let inner = g.rings[g.rings.count - 1].radius - g.strokeHalf
        for line in label.lines {
            let half = TextWidth.em(line.text) * line.fontSize / 2
            for y in [
                line.baseline - RingGeometry.ascent(of: line.text) * line.fontSize,
                line.baseline + RingGeometry.descent * line.fontSize,
            ] {
                let reach = (half * half + (y - scene.centerY) * (y - scene.centerY)).squareRoot()
                #expect(reach <= 0.88 * inner + 1e-9, "\(query): \(line.text) reaches \(reach) of \(inner)")
            }
        }
        // The lines do not touch: the first's descent above the second's ascent.
        let (first, second) = (label.lines[0], label.lines[1])
        #expect(
            first.baseline + RingGeometry.descent * first.fontSize
                < second.baseline - RingGeometry.ascent(of: second.text) * second.fontSize)
    }

    /// Labels that one line draws at half their room or more stay on one line, as before.
    @Test(arguments: ["p=72", "p=72&label=Daily", "p=72&decimals=2", "p=72&label=Build", "p=72&half", "p=7&label=完了"])
    func shortLabelsKeepOneLine(query: String) throws {
        #expect(try label(query).secondLine == nil, "\(query)")
    }

    @Test func breaksFollowTheScripts() {
        func lines(_ text: String) -> [String] {
            let breaks = TextBreaks(text)
            return breaks.offsets.indices.map { index in
                let (first, second) = breaks.split(at: index)
                return first + "|" + second
            }
        }
        // Spaces are dropped, a run of them at once; none at either end.
        #expect(lines("Hoàn  thành 72%") == ["Hoàn|thành 72%", "Hoàn  thành|72%"])
        #expect(lines(" a ") == [])
        // Between CJK characters, never before closing punctuation or `%`, nor after opening.
        #expect(lines("完了。72%") == ["完|了。72%", "完了。|72%"])
        #expect(lines("「進捗」") == ["「進|捗」"])
        // Korean breaks at its spaces only.
        #expect(lines("진행 상황") == ["진행|상황"])
    }
}
