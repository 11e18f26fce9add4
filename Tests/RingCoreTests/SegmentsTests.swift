import Testing

@testable import RingCore

/// `segments=N` splits the usable arc into N equal segments with `segmentGap` between them;
/// the bar fills across them continuously.
@Suite struct SegmentsTests {
    /// The gap between what is drawn, in px along the centre line.
    private func visibleGap(_ a: RingScene.Stroke, _ b: RingScene.Stroke) -> Double {
        let degrees = (b.arc.start - a.arc.end).magnitude
        return degrees * .pi / 180 * a.radius - (a.cap == .round ? a.width : 0)
    }

    @Test(arguments: [
        "p=50&segments=5", "p=50&segments=7&cap=butt", "p=50&segments=4&slice=0.3&segmentGap=6",
        "p=50&segments=6&half&dir=ccw", "p=50&segments=100&size=1024&width=4",
    ])
    func equalSegmentsWithTheGivenGap(query: String) throws {
        let spec = try RingSpec(query: query)
        let ring = RingScene(spec: spec)
        let segments = try #require(ring.rings[0].track?.segments)
        #expect(segments.count == spec.segments)
        let lengths = segments.map { $0.arc.sweep.magnitude }
        #expect(lengths.allSatisfy { abs($0 - lengths[0]) < 1e-9 && $0 > 0 })
        for (a, b) in zip(segments, segments.dropFirst()) {
            #expect(abs(visibleGap(a, b) - spec.resolvedSegmentGap) < 1e-6, "\(query)")
        }
    }

    @Test func aFullRingHasAGapEverywhereAndOneAtTheStart() throws {
        let ring = try scene("p=50&segments=5")
        let segments = try #require(ring.rings[0].track?.segments)
        let first = try #require(segments.first)
        let last = try #require(segments.last)
        let wrap = RingScene.Stroke(
            arc: .init(start: first.arc.start + 360, sweep: first.arc.sweep), radius: first.radius,
            width: first.width, cap: first.cap, isClosed: false)
        #expect(abs(visibleGap(last, wrap) - 3) < 1e-6)
        // Symmetric about the start (12 o'clock): as much gap before the first as after the last.
        #expect(first.arc.start > 0 && abs(first.arc.start - (360 - last.arc.end)) < 1e-6)
        // An open arc starts and ends where the plain track does.
        let open = try scene("p=50&segments=4&slice=0.3")
        let plain = try #require(open.rings[0].track?.stroke.arc)
        #expect(abs((open.rings[0].track?.segments.first?.arc.start ?? 0) - plain.start) < 1e-9)
        #expect(abs((open.rings[0].track?.segments.last?.arc.end ?? 0) - plain.end) < 1e-9)
    }

    @Test(arguments: [(50.0, 3, 0.5), (0.1, 1, 0.005), (20, 1, 1.0), (100, 5, 1.0), (99, 5, 0.95), (150, 5, 1.0)])
    func theBarFillsAcrossSegments(value: Double, pieces: Int, lastShare: Double) throws {
        let ring = try scene("p=\(value)&segments=5")
        let track = try #require(ring.rings[0].track?.segments)
        let bar = try #require(ring.rings[0].bar?.segments)
        #expect(bar.count == pieces)
        for (piece, segment) in zip(bar.dropLast(), track) { #expect(piece.arc == segment.arc) }
        let last = try #require(bar.last)
        #expect(abs(last.arc.sweep / track[pieces - 1].arc.sweep - lastShare) < 1e-9)
        #expect(last.arc.start == track[pieces - 1].arc.start)
    }

    @Test func zeroDrawsNoBar() throws {
        #expect(try scene("p=0&segments=5").rings[0].bar == nil)
        #expect(try scene("p=-3&segments=5").rings[0].bar == nil)
    }

    @Test func segmentsThatDoNotFitAreAnErrorWithTheNumbers() {
        #expect(
            refusal("p=72&segments=100")
                == "segments: \"100\" is not a count that fits: 100 segments with gaps of 3 px and round caps "
                + "need more than the 339.3 px arc")
        #expect(refusal("p=72&segments=100&cap=butt&width=2&size=1024") == nil)
    }

    /// 100 butt segments on a 40 px ring were 0.13 px long each: a faint wash, not segments.
    @Test func segmentsTooShortToSeeAreAnErrorWithTheNumbers() {
        #expect(
            refusal("p=72&size=40&segments=100&cap=butt")
                == "segments: \"100\" is not a count that shows: 100 segments with gaps of 1 px would each be "
                + "0.131 px long on the 113.1 px arc, and a segment needs at least 1 px")
        #expect(refusal("p=72,40&size=120&segments=100&cap=butt&width=8&segmentGap=2")?.contains("innermost") == true)
    }

    /// Whatever is accepted draws every segment at least ``RingLimits/segmentLength`` long, caps
    /// included, on every ring.
    @Test func everyAcceptedSegmentIsAtLeastAPixelLong() throws {
        var accepted = 0
        for size in stride(from: 16, through: 400, by: 24) {
            for count in [2, 5, 12, 30, 60, 100] {
                for cap in ["round", "butt"] {
                    for width in [0.5, 2, 6] {
                        let query = "p=100,50&size=\(size)&segments=\(count)&cap=\(cap)&width=\(width)&segmentGap=0.5"
                        guard let spec = try? RingSpec(query: query) else { continue }
                        accepted += 1
                        for ring in RingScene(spec: spec).rings {
                            for segment in ring.track?.segments ?? [] {
                                let length =
                                    segment.arc.sweep.magnitude * .pi / 180 * segment.radius
                                    + (segment.cap == .round ? segment.width : 0)
                                #expect(length >= RingLimits.segmentLength - 1e-9, "\(query)")
                            }
                        }
                    }
                }
            }
        }
        #expect(accepted > 100)
    }

    @Test func limitsAndConflicts() {
        #expect(refusal("p=1&segments=1")?.hasPrefix("segments: \"1\" is out of range 2…100") == true)
        #expect(refusal("p=1&segments=101")?.hasPrefix("segments: ") == true)
        #expect(refusal("p=1&segments=5&segmentGap=0")?.hasPrefix("segmentGap: ") == true)
        #expect(refusal("p=1&segments=5&segmentGap=31")?.contains("size/4") == true)
        #expect(refusal("p=1&segments=5&gradient=red,blue") == "segments: cannot be combined with gradient")
        #expect(refusal("p=1&gradient=red,blue&segments=5") == "segments: cannot be combined with gradient")
    }

    @Test func theGapIsInTheKeyOnlyWithSegments() throws {
        #expect(try RingSpec(query: "p=1&segmentGap=5").canonicalKey == (try RingSpec(query: "p=1")).canonicalKey)
        #expect(try RingSpec(query: "p=1&segments=5&segmentGap=3").canonicalKey == "p=1&segments=5")
        let key = try RingSpec(query: "p=1&segments=5&segmentGap=4").canonicalKey
        #expect(key == "p=1&segments=5&segmentGap=4")
        #expect(try RingSpec(query: key) == (try RingSpec(query: "p=1&segments=5&segmentGap=4")))
    }

    @Test func theSVGDrawsEverySegmentWithItsCaps() throws {
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: "p=50&segments=5")), as: UTF8.self)
        let paths = svg.components(separatedBy: "<path d=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(paths.count == 2)
        #expect(paths.map { $0.filter { $0 == "M" }.count } == [5, 3])
        #expect(svg.components(separatedBy: "stroke-linecap=\"round\"").count == 3)
    }
}
