import Foundation
import RingTestSupport
import Testing

@testable import RingCore

/// `p=72,45,90`: up to four concentric rings, the first outermost, with `min`, `max`, `color`
/// and `track` given once for every ring or once per ring.
@Suite struct ConcentricRingsTests {
    @Test func pTakesOneToFourValuesOutermostFirst() throws {
        let spec = try RingSpec(query: "p=72,45,90")
        #expect(spec.values == [72, 45, 90])
        let rings = try scene("p=72,45,90").rings
        #expect(rings.count == 3)
        let radii = rings.map { $0.track!.stroke.radius }
        #expect(radii == radii.sorted(by: >), "outermost first: \(radii)")
        let fractions = rings.map { $0.bar!.stroke.arc.sweep }
        #expect(fractions[2] > fractions[0] && fractions[0] > fractions[1])
        #expect(try RingSpec(query: "p=1,2,3,4").ringCount == 4)
    }

    /// Neighbouring rings are one stroke and `gap` apart: the gap is what shows between them.
    @Test(arguments: ["p=72,45,90", "p=1,2&gap=6", "p=1,2,3&width=8&trackWidth=14&gap=0", "p=1,2&outline=888&gap=3"])
    func ringsAreOneStrokeAndTheGapApart(query: String) throws {
        let spec = try RingSpec(query: query)
        let g = RingGeometry(spec: spec, labelText: nil)
        let outline = spec.outline == nil ? 0 : g.outlineWidth
        let stroke = max(g.barWidth, g.trackWidth + 2 * outline)
        for (outer, inner) in zip(g.rings, g.rings.dropFirst()) {
            #expect(abs(outer.radius - inner.radius - stroke - spec.resolvedGap) < 1e-9, "\(query)")
        }
    }

    @Test func theDefaultGapIsASixtiethOfTheSize() throws {
        #expect(try RingSpec(query: "p=1,2").resolvedGap == 2)
        #expect(try RingSpec(query: "p=1,2&size=300").resolvedGap == 5)
        // Spelling the default out, or a gap for one ring, names the same ring.
        #expect(try RingSpec(query: "p=1,2&gap=2").canonicalKey == (try RingSpec(query: "p=1,2")).canonicalKey)
        #expect(try RingSpec(query: "p=1&gap=7").canonicalKey == "p=1")
    }

    @Test func perRingListsApplyToTheirRing() throws {
        let spec = try RingSpec(query: "p=400,20,6&max=500,30,12&color=ff2d55,a2ff00,00e5ff&track=none,eee,ddd")
        for (index, expected) in [80, 200.0 / 3, 50].enumerated() {
            #expect(abs(spec.ring(index).percentage - expected) < 1e-9)
        }
        let rings = try scene(spec.canonicalKey).rings
        #expect(rings.map { $0.bar?.paint } == [0xFF2D55, 0xA2FF00, 0x00E5FF].map { .solid(RingColor(rgb: $0)) })
        #expect(rings[0].track == nil)
        #expect(rings[1].track?.color.color == RingColor(rgb: 0xEEEEEE))
        #expect(rings[2].track?.color.color == RingColor(rgb: 0xDDDDDD))
    }

    @Test func oneValueAppliesToEveryRing() throws {
        let spec = try RingSpec(query: "p=5,10,15&max=20&min=5&color=red&track=none")
        for (index, expected) in [0, 100.0 / 3, 200.0 / 3].enumerated() {
            #expect(abs(spec.ring(index).percentage - expected) < 1e-9)
        }
        let rings = try scene("p=5,10,15&max=20&min=5&color=red&track=none").rings
        #expect(rings.allSatisfy { $0.track == nil }, "track=none hides every track")
        #expect(rings.compactMap(\.bar).allSatisfy { $0.paint == .solid(RingColor(rgb: 0xFF0000)) })
        #expect(rings[0].bar == nil, "0 % leaves no dot")
    }

    /// A list's length is one or the ring count; anything else names the list.
    @Test(arguments: [
        ("p=1,2&min=0,1,2", "min", "3 values for 2 rings"), ("p=1,2,3&max=10,20", "max", "2 values for 3 rings"),
        ("p=1,2&color=red,green,blue", "color", "3 values for 2 rings"),
        ("p=1&track=red,blue", "track", "2 values for 1 ring"), ("p=1,2,3&min=0,0,0,0", "min", "4 values for 3 rings"),
    ])
    func aListOfAnotherLengthNamesTheParameter(query: String, parameter: String, words: String) throws {
        let message = try #require(refusal(query))
        #expect(message.hasPrefix("\(parameter): "), "\(message)")
        #expect(message.contains(words), "\(message)")
        #expect(message.contains("one value, or one per ring"), "\(message)")
    }

    /// Lists with empty items, too many items, huge numbers and separators in odd places are
    /// refused with the parameter's name, never read as something else.
    @Test(arguments: [
        ("p=1,2,3,4,5", "p", "1 to 4"), ("p=1,,2", "p", "empty"), ("p=,1", "p", "empty"), ("p=1,", "p", "empty"),
        ("p=,", "p", "empty"), ("p=1,2,3,4,5,6,7,8,9,10", "p", "1 to 4"), ("p=1:2", "p", "decimal"),
        ("p=1;2", "p", "decimal"), ("p=1%2C%2C2", "p", "empty"), ("p=1%2C2%2C3%2C4%2C5", "p", "1 to 4"),
        ("p=1,1e400", "p", "decimal"), ("p=1,99999999999999999999", "p", "percentage"), ("p=1,NaN", "p", "decimal"),
        ("p=1, 2", "p", "decimal"), ("p=1&min=,", "min", "empty"), ("p=1,2&max=100,", "max", "empty"),
        ("p=1,2&color=red,,blue", "color", "empty"), ("p=1,2&color=red:blue", "color", "colour"),
        ("p=1,2&track=none,", "track", "empty"), ("p=1,2&track=none:red", "track", "colour"),
        ("p=1,2&min=5,0&max=4,10", "max", "greater than min"), ("p=1,2&gap=-1", "gap", "≥ 0 and ≤ 30 (size/4)"),
        ("p=1,2&gap=31", "gap", "≥ 0 and ≤ 30 (size/4)"), ("p=1,2&gap=x", "gap", "decimal"),
        ("p=1,1000000000&max=100,0.001", "p", "percentage"),
    ])
    func oddListsAreRefusedByName(query: String, parameter: String, words: String) throws {
        let message = try #require(refusal(query), "\(query) was accepted")
        #expect(message.hasPrefix("\(parameter): "), "\(message)")
        #expect(message.contains(words), "\(message) lacks \(words)")
    }

    @Test func ringsThatDoNotFitSayWhyWithTheNumbers() throws {
        #expect(
            refusal("p=1,2,3,4&size=40&width=12&gap=3")
                == "p: 4 rings of width 12 with gap 3 do not fit in size 40 (1 does)")
        #expect(
            refusal("p=1,2,3,4&size=32&width=3&gap=3")
                == "p: 4 rings of width 3 with gap 3 do not fit in size 32 (3 do)")
        // Exactly what fits is accepted: at size 120, ten-pixel rings with a gap of 2.
        #expect(refusal("p=1,2,3,4&width=10&gap=2") == nil)
        // A single ring keeps every width up to size/3.
        #expect(refusal("p=1&size=16&width=5.3&outline=000&shadow") == nil)
    }

    @Test func segmentsThatDoNotFitTheInnermostRingAreRefused() throws {
        // 60 gaps of 4 px fit the outer ring's 339 px but not the innermost one's 163 px.
        #expect(refusal("p=1&segments=60&cap=butt&segmentGap=4") == nil)
        let message = try #require(refusal("p=1,2,3&segments=60&cap=butt&segmentGap=4"))
        #expect(message.hasPrefix("segments: ") && message.contains("of the innermost ring"), "\(message)")
    }

    /// Every ring follows the geometry rules: no dot at 0, closed at 1, just under 1 open, and
    /// everything inside the box.
    @Test func everyRingFollowsTheGeometryRules() throws {
        var generator = SeededGenerator(seed: 15)  // reproducible, like every property test here
        let interesting: [Double] = [0, 100, 99.99, 0.01, 50, 150, -5]
        for _ in 0..<400 {
            let count = Int.random(in: 1...4, using: &generator)
            let values = (0..<count).map { _ in
                Bool.random(using: &generator)
                    ? interesting.randomElement(using: &generator)! : Double.random(in: 0...100, using: &generator)
            }
            let shape = ["", "&slice=0.3", "&half", "&cap=butt", "&segments=4", "&outline=999", "&shadow"]
                .randomElement(using: &generator)!
            let text = values.map { String(format: "%.2f", $0) }.joined(separator: ",")
            let query = "p=\(text)&size=\(Int.random(in: 80...300, using: &generator))\(shape)"
            guard let spec = try? RingSpec(query: query) else { continue }
            let s = RingScene(spec: spec)
            #expect(s.rings.count == count)
            for (index, ring) in s.rings.enumerated() {
                let fraction = spec.ring(index).fraction
                let bar = ring.bar
                #expect((bar == nil) == (fraction <= 0), "\(query): ring \(index) at 0 has no bar, else one")
                let full =
                    fraction >= 1 && !query.contains("slice") && !query.contains("half")
                    && !query.contains("segments")
                #expect(bar.map { $0.stroke.isClosed } ?? false == full, "\(query): ring \(index) closed only at 1")
                let track = try #require(ring.track)
                let extent = track.stroke.radius + max(track.stroke.width, bar?.stroke.width ?? 0) / 2
                #expect(track.stroke.radius > 0)
                #expect(s.centerX + extent <= s.width + 1e-9 && s.centerX - extent >= -1e-9, "\(query)")
                #expect(s.centerY - extent >= -1e-9, "\(query)")
            }
        }
    }

    @Test func theLabelShowsTheFirstRingAndPlaceholdersNameEach() throws {
        #expect(try scene("p=72,45,90").label?.text == "72%")
        let long = try #require(try scene("p=72,45,90&size=1000&label={p}+{p1}+{p2}+{p3}").label)
        #expect(long.lines.map(\.text) == ["72% 72%", "45% 90%"])
        #expect(try scene("p=1,2,3,4&size=400&width=20&label={p4}&caption={p3}+of+{p2}").caption?.text == "3% of 2%")
        #expect(try scene("p=1,2,3,4&size=400&label={p4}").label?.text == "4%")
        #expect(try scene("p=72&label={p1}").label?.text == "72%")
        #expect(
            refusal("p=1,2&label={p3}") == "label: {p3} names a ring that is not there: with 2 rings, use {p1} to {p2}")
        #expect(refusal("p=1&caption={p2}")?.hasPrefix("caption: {p2} names a ring") == true)
        #expect(refusal("p=1,2&label={p0}")?.hasPrefix("label: {p0}") == true)
        // Text that merely looks like a placeholder stays text.
        #expect(try scene("p=1&label={p}%7Bp").label?.text == "1%{p")
    }

    @Test func theTitleReadsEveryValue() throws {
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: "p=72,45,90")), as: UTF8.self)
        #expect(svg.contains("aria-label=\"72%, 45%, 90%\""))
        #expect(svg.contains("<title>72%, 45%, 90%</title>"))
        #expect(try scene("p=72,45&title=Goals").title == "Goals")
    }

    @Test func thresholdsColourEachRingByItsOwnValue() throws {
        let rings = try scene("p=35,65,90&thresholds=ef4444,50:eab308,80:22c55e&labelColor=bar")
        #expect(rings.rings.map { $0.bar?.paint } == [0xEF4444, 0xEAB308, 0x22C55E].map { .solid(RingColor(rgb: $0)) })
        #expect(rings.label?.color.color == RingColor(rgb: 0xEF4444), "the label follows the first ring")
        // Values are each ring's own units: 8 of 10 is below 50 though 80 %.
        let scaled = try scene("p=8,80&max=10,100&thresholds=ef4444,50:eab308")
        #expect(scaled.rings.map { $0.bar?.paint } == [0xEF4444, 0xEAB308].map { .solid(RingColor(rgb: $0)) })
    }

    @Test func segmentsSplitEveryRing() throws {
        let rings = try scene("p=50,100&segments=5").rings
        #expect(rings.map { $0.track?.segments.count } == [5, 5])
        #expect(rings[0].bar?.segments.count == 3, "two and a half")
        #expect(rings[1].bar?.segments.count == 5)
        // Segment gaps are pixels along each ring's own centre line.
        for ring in rings {
            let segments = try #require(ring.track?.segments)
            let gap = (segments[1].arc.start - segments[0].arc.end) * .pi / 180 * segments[0].radius
            #expect(abs(gap - (3 + 12)) < 1e-9, "3 px plus the round caps")
        }
    }

    /// Each ring's gradient runs along its own arc, with its own ids, so no id repeats.
    @Test func gradientsAnimationAndShadowServeEveryRing() throws {
        let query = "p=80,55,30&gradient=22c55e,eab308,ef4444&shadow&anim=1"
        let s = try scene(query)
        #expect(s.rings.allSatisfy { if case .gradient = $0.bar?.paint { true } else { false } })
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: query)), as: UTF8.self)
        let ids = svg.matches(of: /id="([^"]+)"/).map { String($0.output.1) }
        #expect(Set(ids).count == ids.count, "repeated ids: \(ids)")
        for id in ids { #expect(svg.contains("url(#\(id))"), "\(id) is used") }
        #expect(svg.matches(of: /@keyframes/).count == 3, "one per ring, each its own length")
        #expect(svg.matches(of: /filter="url/).count == 1, "one shadow for every bar")
    }

    /// Each ring writes its own gradient pieces, so an SVG is bounded per ring: the largest
    /// gradient, alpha, shadow, animation, outline and escaped text on four rings stays within
    /// four times 64 KiB (the query fuzzer's bound), as does the fuzzer's first finding (less
    /// the unknown names it had, which are errors now).
    @Test func gradientSVGsAreBoundedPerRing() throws {
        let label = String(repeating: "%26", count: RingLimits.labelScalars)
        let title = String(repeating: "%3C", count: RingLimits.titleScalars)
        let worst =
            "p=100,100,100,100&gradient=11111180,222222,333333f0,444444,555555,666666,777777,888888&size=1024"
            + "&width=1&gap=0&shadow&anim=10&outline=fff&label=\(label)&title=\(title)"
        let found = "p=36,45,90&&gradient=22c55e,eab308,e5e,eab308,e444"
        for query in [worst, found] {
            let spec = try RingSpec(query: query)
            let bytes = RingRenderer.render(spec).count
            #expect(bytes < 64 * 1024 * spec.ringCount, "\(bytes) bytes for \(spec.ringCount) rings: \(query)")
            #expect(bytes > 16 * 1024 * spec.ringCount, "the gradient pieces are all there")
        }
    }

    @Test func listsEnterTheCanonicalKeyOnlyWhenTheyDiffer() throws {
        func key(_ query: String) throws -> String { try RingSpec(query: query).canonicalKey }
        #expect(
            try key("p=72,45&min=0,0&max=100,100&color=red,red&track=none,none") == "p=72,45&color=ff0000ff&track=none")
        #expect(try key("p=72.0,45&max=50,100&color=%23F00,blue") == "p=72,45&max=50,100&color=ff0000ff,0000ffff")
        #expect(try key("p=72,45&track=none,eee") == "p=72,45&track=none,eeeeeeff")
        // Order, count and values all tell rings apart.
        let keys = try ["p=72,45", "p=45,72", "p=72", "p=72,72", "p=72,45,0", "p=72,45&gap=3"].map(key)
        #expect(Set(keys).count == keys.count)
        let digests = try ["p=72,45", "p=45,72", "p=72", "p=72,72"].map { try RingSpec(query: $0).digest }
        #expect(Set(digests).count == digests.count)
        for query in ["p=1,2,3&min=0,1,2&max=9,8,7&color=red,lime,blue&track=none,eee,none&gap=4"] {
            let spec = try RingSpec(query: query)
            #expect(try RingSpec(query: spec.canonicalKey) == spec)
        }
    }

    /// A spec built in code is held to the same rules as a parsed one.
    @Test func validateChecksListsBuiltInCode() {
        var spec = RingSpec(values: [1, 2])
        spec.tracks = [.standard, .none]
        #expect(throws: RingSpecError.self) { try spec.validate() }
        spec = RingSpec(values: [])
        #expect(throws: RingSpecError.self) { try spec.validate() }
        spec = RingSpec(values: [1, 2, 3, 4, 5])
        #expect(throws: RingSpecError.self) { try spec.validate() }
        spec = RingSpec(values: [1, 2])
        spec.colors = [RingColor(rgb: 0), RingColor(rgb: 1), RingColor(rgb: 2)]
        #expect(throws: RingSpecError.self) { try spec.validate() }
    }
}
