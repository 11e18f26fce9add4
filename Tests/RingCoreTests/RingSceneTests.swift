import Foundation
import RingTestSupport
import Testing

@testable import RingCore

/// The format-neutral scene: what is drawn, where and in which colours, checked without any
/// SVG syntax.
@Suite struct RingSceneTests {
    private func scene(_ query: String) throws -> RingScene {
        RingScene(spec: try RingSpec(query: query))
    }

    @Test func defaultRingFollowsTheReadersScheme() throws {
        let s = try scene("p=72")
        #expect(s.width == 120 && s.height == 120 && s.centerX == 60 && s.centerY == 60)
        #expect(s.title == "72%")
        #expect(
            s.rings[0].track?.color
                == RingScene.SchemeColor(color: SchemeDefault.track.light, dark: SchemeDefault.track.dark))
        #expect(
            s.label?.color == RingScene.SchemeColor(color: SchemeDefault.label.light, dark: SchemeDefault.label.dark))
        #expect(s.label?.text == "72%")
        #expect(s.rings[0].bar?.paint == .solid(SchemeDefault.bar.light))
        #expect(try scene("p=72&cap=butt").rings[0].bar?.stroke.arc == RingScene.Arc(start: 0, sweep: 72 * 3.6))
        #expect(s.rings[0].bar?.stroke.width == 12)
        #expect(s.rings[0].bar?.stroke.radius == 54)
        #expect(s.rings[0].track?.stroke.isClosed == true)
        #expect(
            s.background == nil && s.fill == nil && s.rings[0].outline == nil && s.shadow == nil && s.animation == nil)
    }

    @Test func anExplicitSchemeOrColourDoesNotSwitch() throws {
        let dark = try scene("p=72&theme=dark")
        #expect(dark.rings[0].track?.color == RingScene.SchemeColor(color: SchemeDefault.track.dark, dark: nil))
        #expect(dark.label?.color == RingScene.SchemeColor(color: SchemeDefault.label.dark, dark: nil))
        let given = try scene("p=72&track=ff0000&labelColor=00ff00")
        #expect(given.rings[0].track?.color == RingScene.SchemeColor(color: RingColor(rgb: 0xFF0000), dark: nil))
        #expect(given.label?.color == RingScene.SchemeColor(color: RingColor(rgb: 0x00FF00), dark: nil))
        #expect(try scene("p=72&track=none").rings[0].track == nil)
        #expect(try scene("p=72&label=none").label == nil)
    }

    /// Nothing of the bar is drawn at 0, so neither is its shadow or animation.
    @Test func zeroHasNoBarShadowOrAnimation() throws {
        let s = try scene("p=0&shadow=1&anim=2")
        #expect(s.rings[0].bar == nil && s.shadow == nil && s.animation == nil)
        let shown = try scene("p=1&shadow=1&anim=2")
        #expect(shown.shadow == RingScene.Shadow(blur: 1.5, offset: 1, opacity: 0.35))
        #expect(shown.animation == 2)
    }

    @Test func fillAndOutlineSitOnTheTrack() throws {
        let s = try scene("p=50&fill=eee&outline=123&trackWidth=20&slice=0.25")
        let track = try #require(s.rings[0].track?.stroke)
        #expect(s.fill == RingScene.Disc(radius: track.radius - 10, color: RingColor(rgb: 0xEEEEEE)))
        let outline = try #require(s.rings[0].outline)
        #expect(outline.offset == 10 + outline.width / 2)
        #expect(outline.radius == track.radius && outline.cap == .round)
        #expect(outline.arc == track.arc && !outline.isClosed)
    }

    /// On an open track the outline is one closed contour round the whole track shape: out
    /// along the outer edge, round the end cap, back along the inner edge, round the start cap.
    @Test func theOutlineEnclosesTheTracksCaps() throws {
        for query in ["p=97&slice=0.5&outline=000000&trackWidth=30", "p=60&half&outline=000&dir=ccw"] {
            let svg = SVGInspector(RingRenderer.render(try RingSpec(query: query)))
            let outline = try #require(svg.elements.first { $0.name == "path" && $0.attributes["stroke"] == "#000000" })
            let d = try #require(outline.attributes["d"])
            let s = try scene(query)
            let offset = try #require(s.rings[0].outline?.offset)
            #expect(d.hasSuffix("Z"), "\(query): \(d)")
            // Two quarter arcs of the offset's radius at each end.
            let capArcs =
                d.components(separatedBy: "A\(RingLimits.plain(offset)) \(RingLimits.plain(offset)) ").count - 1
            #expect(capArcs == 4, "\(query): \(d)")
        }
        let butt = SVGInspector(RingRenderer.render(try RingSpec(query: "p=60&slice=0.3&outline=000&cap=butt")))
        let d = try #require(butt.elements.first { $0.attributes["stroke"] == "#000000" }?.attributes["d"])
        #expect(d.hasSuffix("Z") && d.filter { $0 == "L" }.count == 2, "straight across butt ends: \(d)")
    }

    /// The gradient's stops spread along the usable arc, not the bar.
    @Test func gradientStopsSpanTheUsableArc() throws {
        let s = try scene("p=50&gradient=ff0000,0000ff&slice=0.5")
        guard case .gradient(let gradient) = s.rings[0].bar?.paint else {
            Issue.record("no gradient")
            return
        }
        #expect(gradient.span == 180)
        #expect(gradient.color(at: 0) == RingColor(rgb: 0xFF0000))
        #expect(gradient.color(at: 1) == RingColor(rgb: 0x0000FF))
        #expect(gradient.color(at: 0.5).red == gradient.color(at: 0.5).blue)
    }

    @Test func aFullBarIsClosedWithoutCaps() throws {
        #expect(try scene("p=100").rings[0].bar?.stroke.isClosed == true)
        #expect(try scene("p=99.9").rings[0].bar?.stroke.isClosed == false)
        #expect(try scene("p=100&slice=0.2").rings[0].bar?.stroke.isClosed == false)
    }

    @Test func halfGaugeIsCroppedAndKeepsItsLabelAboveTheCentre() throws {
        let s = try scene("p=50&half")
        #expect(s.height < s.width * 0.6)
        let label = try #require(s.label)
        #expect(label.baseline < s.centerY)
        #expect(label.fontSize > 0)
    }

    @Test func theTitleIsTheAccessibleName() throws {
        #expect(try scene("p=72&title=Build+coverage").title == "Build coverage")
        #expect(try scene("p=7&max=8&label=%7Bp%7D+of+8").label?.lines.map(\.text) == ["88%", "of 8"])
    }

    /// The visible extent of the bar, caps included, in degrees.
    private func visibleExtent(_ s: RingScene) -> Double {
        guard let stroke = s.rings[0].bar?.stroke else { return 0 }
        if stroke.isClosed { return 360 }
        let cap = stroke.cap == .round ? stroke.width * 180 / (Double.pi * stroke.radius) : 0
        return stroke.arc.sweep.magnitude + cap
    }

    /// For every width and cap, a larger value draws more bar, all the way to 100 %, and any
    /// value below 100 % leaves a gap (on a full ring, between the caps).
    @Test func aLargerValueAlwaysDrawsMoreBar() throws {
        var generator = SeededGenerator(seed: 21)
        for _ in 0..<300 {
            let size = Int.random(in: 16...400, using: &generator)
            let width = Double(Int.random(in: 1...(size * 10 / 3), using: &generator)) / 10
            let cap = Bool.random(using: &generator) ? "round" : "butt"
            let shape = ["", "&slice=0.3", "&half", "&slice=0.8"].randomElement(using: &generator)!
            let base = "size=\(size)&width=\(width)&cap=\(cap)\(shape)"
            var values = (0..<12).map { _ in Double.random(in: 0.001...99.999, using: &generator) }
            values += [0.001, 0.01, 0.1, 1, 50, 99, 99.9, 99.99, 99.999]
            values.sort()
            var previous = 0.0
            for value in values {
                let s = try scene("p=\(value)&\(base)")
                let extent = visibleExtent(s)
                #expect(extent > previous, "\(base): p=\(value) draws \(extent)°, not more than \(previous)°")
                previous = extent
                if shape.isEmpty {
                    #expect(s.rings[0].bar?.stroke.isClosed == false)
                    #expect(extent < 360, "\(base): p=\(value) closes the ring")
                }
            }
            #expect(visibleExtent(try scene("p=100&\(base)")) > previous)
        }
    }

    /// The label never claims completion or emptiness the ring does not show, nor a value it
    /// does not have: a value that rounds to 0 at its precision reads as a bound, `<1%`, that it
    /// truly lies under, and one that rounds to 100 reads the largest value under 100.
    @Test func theLabelNeverRoundsToAFullOrEmptyRing() throws {
        var generator = SeededGenerator(seed: 22)
        for _ in 0..<2000 {
            let value = [
                Double.random(in: 0.000001...0.01, using: &generator),
                Double.random(in: 99.99...99.999999, using: &generator),
                Double.random(in: 0.000001...99.999999, using: &generator),
            ].randomElement(using: &generator)!
            let decimals = Int.random(in: 0...3, using: &generator)
            let spec = try RingSpec(query: "p=\(String(format: "%.9f", value))&decimals=\(decimals)")
            let text = RingScene.percentageText(spec)
            let bound = text.first == "<" ? text.first : nil
            let shown = try #require(Double(text.dropFirst(bound == nil ? 0 : 1).dropLast()))
            #expect(shown < 100 && shown > 0, "p=\(value) decimals=\(decimals) reads \(text)")
            let step = [1.0, 0.1, 0.01, 0.001][decimals]
            switch bound {
            case "<": #expect(value < shown && shown == step, "p=\(value) reads \(text)")
            default:
                // The nearest value at its precision, or just under full the largest under 100.
                let nearest = abs(shown - value) <= step / 2 + 1e-9
                #expect(nearest || (shown == 100 - step && value > shown), "p=\(value) reads \(text)")
            }
        }
        #expect(RingScene.percentageText(try RingSpec(query: "p=99.6")) == "99%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=99.96&decimals=1")) == "99.9%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=0.4")) == "<1%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=0.001")) == "<1%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=0.0004&decimals=3")) == "<0.001%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=0.6")) == "1%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=100")) == "100%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=0")) == "0%")
        #expect(RingScene.percentageText(try RingSpec(query: "p=99.4")) == "99%")
    }

    /// No label is drawn below the legible minimum: too long a text is shortened with `…`,
    /// and a ring too small for even that has no label.
    @Test func labelsAreNeverSmallerThanTheMinimum() throws {
        var generator = SeededGenerator(seed: 23)
        for _ in 0..<500 {
            let query =
                RandomQuery.make(&generator) + "&label="
                + String(repeating: "W", count: Int.random(in: 1...64, using: &generator))
            let s = try scene(query)
            if let label = s.label {
                #expect(label.fontSize >= RingGeometry.minimumFontSize, "\(query): \(label.fontSize) px")
            }
        }
        let long = try scene("p=72&label=" + String(repeating: "x", count: 64))
        #expect(long.label?.fontSize == RingGeometry.minimumFontSize)
        #expect(long.label?.text.hasSuffix("…") == true)
        #expect(try scene("p=72&size=16").label == nil)
        #expect(try scene("p=72&size=16").title == "72%")
    }

    /// The parser's seen-set holds one flag a parameter.
    @Test func theParameterSetHoldsEveryParameter() {
        #expect(RingParameter.allCases.count <= ParameterSet.capacity)
        var set = ParameterSet()
        for position in 0..<ParameterSet.capacity {
            #expect(!set.contains(position))
            let first = set.insert(position)
            let second = set.insert(position)
            #expect(first && !second && set.contains(position))
        }
    }
}
