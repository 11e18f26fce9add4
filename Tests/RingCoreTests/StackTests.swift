import Testing

@testable import RingCore

/// `stack`: the values of `p` as parts of one ring, end to end.
@Suite struct StackTests {
    private func scene(_ query: String) throws -> RingScene { RingScene(spec: try RingSpec(query: query)) }

    /// The bar's visible length when full, in degrees: the circle, or the usable arc and the
    /// two half caps that stick out past its ends.
    private func fullLength(_ spec: RingSpec, _ g: RingGeometry) -> Double {
        let total = spec.half ? 180 : 360 * (1 - spec.slice)
        guard total < 360, spec.cap == .round else { return total }
        return total + g.barWidth * 180 / (.pi * g.rings[0].radius)
    }

    /// Every part between two others spans its value's share of the full bar, to the
    /// rounding of a double, on every shape and in either direction; each part starts where
    /// the one before it ends.
    @Test(arguments: [
        "p=120,12,5&stack&max=sum", "p=20,30,10&stack", "p=10,20,30,5&stack&slice=0.3&start=40",
        "p=25,25,25&stack&half&dir=ccw", "p=40,30,20,5,1,1,1,1&stack&max=sum&cap=butt&slice=0.1",
        "p=30,10,40&stack&dir=ccw&width=30", "p=5,5,5,5,5&stack&size=400&shadow&ticks=10&target=60",
    ])
    func partsSpanTheirShare(query: String) throws {
        let spec = try RingSpec(query: query)
        let g = RingGeometry(spec: spec, labelText: "1%")
        let parts = g.rings[0].parts.compactMap { $0 }
        let whole = spec.ring(0)
        #expect(parts.count == spec.values.count)
        let full = fullLength(spec, g)
        for index in parts.indices.dropFirst().dropLast() {
            let share = spec.values[index] / (whole.maximum - whole.minimum) * full
            #expect(abs(parts[index].sweep.magnitude - share) < 1e-9, "part \(index + 1) of \(query)")
        }
        for index in parts.indices.dropFirst() {
            #expect(abs(parts[index].start - parts[index - 1].end) < 1e-9)
            #expect(parts[index].sweep.sign == parts[0].sweep.sign)
        }
        // Together, exactly the bar a ring of their sum draws.
        let bar = try #require(g.rings[0].bar)
        #expect(parts[0].start == bar.start && abs(parts[parts.count - 1].end - bar.end) < 1e-9)
    }

    /// Round caps only where the stack ends; a closed stack has none.
    @Test func capsOnlyAtTheStacksEnds() throws {
        let open = try #require(try scene("p=20,30,10&stack").rings[0].bar)
        #expect(open.parts.map(\.stroke.capped) == [.start, [], .end])
        #expect(open.parts.allSatisfy { !$0.stroke.isDot })
        let closed = try #require(try scene("p=20,30,10&stack&max=sum").rings[0].bar)
        #expect(closed.stroke.isClosed)
        #expect(closed.parts.allSatisfy { !$0.stroke.isRound(.start) && !$0.stroke.isRound(.end) })
        #expect(abs(closed.parts.map { $0.stroke.arc.sweep }.reduce(0, +) - 360) < 1e-9)
        // Parts of 0 are not drawn, and the parts drawn first and last take the caps.
        let zeros = try #require(try scene("p=0,30,10,0&stack").rings[0].bar)
        #expect(zeros.parts.map(\.stroke.capped) == [.start, .end])
        #expect(zeros.parts.map(\.color) == [SchemeDefault.palette[1], SchemeDefault.palette[2]])
    }

    /// One part drawn is a plain bar in its colour; nothing at all is no bar.
    @Test func onePartIsAPlainBar() throws {
        let one = try #require(try scene("p=0,40,0&stack&color=red,green,blue").rings[0].bar)
        #expect(one.parts.isEmpty && one.paint == .solid(RingColor(rgb: 0x008000)))
        #expect(one.stroke == (try scene("p=40&color=green").rings[0].bar?.stroke))
        #expect(try scene("p=0,0&stack").rings[0].bar == nil)
        #expect(try scene("p=0,0&stack&max=sum").label?.text == "0%")
    }

    /// `max=sum` fills the ring; without it the parts are shares of `max` (100 unless given),
    /// and parts past it are cut at the full ring.
    @Test func maxIsTheWholeRing() throws {
        let sum = try RingSpec(query: "p=120,12,5&stack&max=sum")
        #expect(sum.ring(0).maximum == 137 && sum.ring(0).fraction == 1)
        #expect(try RingSpec(query: "p=50,20&stack").ring(0).maximum == 100)
        let over = RingGeometry(spec: try RingSpec(query: "p=80,30,10&stack"), labelText: "80%").rings[0]
        #expect(over.barIsClosed && over.parts[2] == nil)
        #expect(abs((over.parts[1]?.sweep ?? 0) - 72) < 1e-9)
    }

    /// The label's `{p}` is the first part's percentage, `{p2}` the second's; the title gives
    /// every part's value and percentage, named by `parts`.
    @Test func textNamesTheParts() throws {
        let ring = try scene("p=120,12,5&stack&max=sum&label={p3}+skipped&caption={p2}+failed")
        #expect(ring.label?.lines.map(\.text).joined(separator: " ") == "4% skipped")
        #expect(try scene("p=120,12,5&stack&max=sum").label?.text == "88%")
        #expect(try scene("p=120,12,5&stack&max=sum&caption={p2}+failed").caption?.text == "9% failed")
        #expect(ring.title == "120 (88%), 12 (9%), 5 (4%)")
        let named = try scene("p=120,12,5&stack&max=sum&parts=passed,failed,skipped&locale=fr")
        #expect(named.title == "passed 120 (88\u{A0}%), failed 12 (9\u{A0}%), skipped 5 (4\u{A0}%)")
        #expect(try scene("p=50,20&stack&target=80").title == "50 (50%), 20 (20%), target 80%")
        #expect(throws: RingSpecError.self) { try RingSpec(query: "p=1,2&stack&label={p3}") }
    }

    /// Colours: one per part, or one for all; the palette's by default, distinct for 8 parts.
    @Test func eachPartHasItsColour() throws {
        let given = try #require(try scene("p=10,20,30&stack&color=red,green,blue").rings[0].bar)
        #expect(
            given.parts.map(\.color) == [RingColor(rgb: 0xFF0000), RingColor(rgb: 0x008000), RingColor(rgb: 0x0000FF)])
        let eight = try #require(try scene("p=1,1,1,1,1,1,1,1&stack&max=sum").rings[0].bar)
        #expect(Set(eight.parts.map(\.color)).count == 8)
        #expect(
            throws: RingSpecError.unfit(
                parameter: "color", rule: "2 values for 3 parts: give one value, or one per part")
        ) {
            try RingSpec(query: "p=10,20,30&stack&color=red,green")
        }
    }

    /// `labelColor=bar` follows the first part drawn, as the bar's own colour does: a first
    /// part of 0 is not drawn, so the label takes the next part's colour.
    @Test func labelColorBarFollowsTheFirstPartDrawn() throws {
        let zeroFirst = try scene("p=0,40,20&stack&labelColor=bar")
        let bar = try #require(zeroFirst.rings[0].bar)
        #expect(zeroFirst.label?.color.color == bar.parts.first?.color)
        #expect(bar.parts.first?.color == RingScene.paletteColor(1))
        #expect(bar.paint == .solid(RingScene.paletteColor(1)))
        let given = try scene("p=0,40,20&stack&color=red,green,blue&labelColor=bar")
        #expect(given.label?.color.color == RingColor(rgb: 0x008000))
        #expect(try scene("p=30,40&stack&labelColor=bar").label?.color.color == RingScene.paletteColor(0))
        #expect(try scene("p=0,0&stack&labelColor=bar").label?.color.color == RingScene.paletteColor(0))
    }

    /// Each error names its parameter, and the conflicting pair names both.
    @Test func errorsNameTheirParameters() throws {
        let conflicts: [(String, RingSpecError)] = [
            ("p=1,2&stack&segments=5", .conflict(parameter: "stack", with: "segments")),
            ("p=1,2&stack&overflow=lap", .conflict(parameter: "stack", with: "overflow")),
            ("p=1,2&stack&thresholds=ef4444,50:22c55e", .conflict(parameter: "stack", with: "thresholds")),
            ("p=1,2&stack&gradient=ef4444,22c55e", .conflict(parameter: "stack", with: "gradient")),
            ("p=1,2&stack&min=1", .conflict(parameter: "stack", with: "min")),
            ("stack&from=2026-01-01&to=2027-01-01", .conflict(parameter: "stack", with: "from")),
        ]
        for (query, error) in conflicts { #expect(throws: error, "\(query)") { try RingSpec(query: query) } }
        for (query, parameter) in [
            ("p=1,2,3,4,5,6,7,8,9&stack", "p"), ("p=1&stack", "p"), ("p=1,2,3,4,5", "p"), ("p=5,-1&stack", "p"),
            ("p=5&max=sum", "max"), ("p=5,1&parts=a,b", "parts"), ("p=5,1&stack&parts=a", "parts"),
            ("src=https://example.com/x.json&stack", "stack"),
        ] {
            #expect(throws: RingSpecError.self, "\(query)") { try RingSpec(query: query) }
            do { _ = try RingSpec(query: query) } catch { #expect(error.parameter == parameter, "\(query): \(error)") }
        }
        // Eight parts are fine; the overflow that stacks (`clamp`) too.
        _ = try RingSpec(query: "p=1,2,3,4,5,6,7,8&stack&overflow=clamp")
    }

    /// The canonical key keeps `stack`, `max=sum` and the names; a stack and concentric rings
    /// of the same values are different rings.
    @Test func theKeyTellsAStackFromRings() throws {
        let stack = try RingSpec(query: "parts=a,b&max=sum&stack=1&p=3,1")
        #expect(stack.canonicalKey == "p=3,1&max=sum&stack=1&parts=a,b")
        #expect(try RingSpec(query: "p=3,1").digest != (try RingSpec(query: "p=3,1&stack").digest))
        #expect(try RingSpec(query: "p=3,1&stack=0").canonicalKey == "p=3,1")
    }

    /// A live stack reads a field per part, and checks each as `p` would be checked.
    @Test func aLiveStackReadsAFieldPerPart() throws {
        let live = try RingSpec(query: "src=https://example.com/t.json&field=passed,failed,skipped&stack&max=sum")
        let ring = try live.resolving(values: ["120", "12", "5"])
        #expect(ring.values == [120, 12, 5] && ring.stack && ring.ring(0).maximum == 137)
        #expect(throws: RingSpecError.self) { try live.resolving(values: ["120", "-1", "5"]) }
        do { _ = try live.resolving(values: ["120", "-1", "5"]) } catch {
            #expect(error.parameter == "field" && error.description.contains("failed is -1"), "\(error)")
        }
    }

    /// SVG: each part is a filled band in its colour; the shadow and the animation mask take
    /// the whole stack's stroke.
    @Test func svgFillsEachPart() throws {
        let svg = String(
            decoding: RingRenderer.render(try RingSpec(query: "p=20,30,10&stack&color=red,green,blue&anim=1&shadow")),
            as: UTF8.self)
        for color in ["#ff0000", "#008000", "#0000ff"] { #expect(svg.contains("Z\" fill=\"\(color)\"")) }
        #expect(svg.contains("<mask") && svg.contains("filter=\"url(#"))
    }
}
