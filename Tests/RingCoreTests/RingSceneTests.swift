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
        #expect(s.track?.color == RingScene.SchemeColor(color: DefaultColors.lightTrack, dark: DefaultColors.darkTrack))
        #expect(s.label?.color == RingScene.SchemeColor(color: DefaultColors.lightLabel, dark: DefaultColors.darkLabel))
        #expect(s.label?.text == "72%")
        #expect(s.bar?.paint == .solid(DefaultColors.bar))
        #expect(s.bar?.stroke.arc == RingScene.Arc(start: 0, sweep: 72 * 3.6))
        #expect(s.bar?.stroke.width == 12)
        #expect(s.bar?.stroke.radius == 54)
        #expect(s.track?.stroke.isClosed == true)
        #expect(s.background == nil && s.fill == nil && s.outline == nil && s.shadow == nil && s.animation == nil)
    }

    @Test func anExplicitSchemeOrColourDoesNotSwitch() throws {
        let dark = try scene("p=72&theme=dark")
        #expect(dark.track?.color == RingScene.SchemeColor(color: DefaultColors.darkTrack, dark: nil))
        #expect(dark.label?.color == RingScene.SchemeColor(color: DefaultColors.darkLabel, dark: nil))
        let given = try scene("p=72&track=ff0000&labelColor=00ff00")
        #expect(given.track?.color == RingScene.SchemeColor(color: RingColor(rgb: 0xFF0000), dark: nil))
        #expect(given.label?.color == RingScene.SchemeColor(color: RingColor(rgb: 0x00FF00), dark: nil))
        #expect(try scene("p=72&track=none").track == nil)
        #expect(try scene("p=72&label=none").label == nil)
    }

    /// Nothing of the bar is drawn at 0, so neither is its shadow or animation.
    @Test func zeroHasNoBarShadowOrAnimation() throws {
        let s = try scene("p=0&shadow=1&anim=2")
        #expect(s.bar == nil && s.shadow == nil && s.animation == nil)
        let shown = try scene("p=1&shadow=1&anim=2")
        #expect(shown.shadow == RingScene.Shadow(blur: 1.5, offset: 1, opacity: 0.35))
        #expect(shown.animation == 2)
    }

    @Test func fillAndOutlineSitOnTheTrack() throws {
        let s = try scene("p=50&fill=eee&outline=123&trackWidth=20&slice=0.25")
        let track = try #require(s.track?.stroke)
        #expect(s.fill == RingScene.Disc(radius: track.radius - 10, color: RingColor(rgb: 0xEEEEEE)))
        let outline = try #require(s.outline)
        let offset = 10 + outline.width / 2
        #expect(outline.radii == [track.radius + offset, track.radius - offset])
        #expect(outline.arc == track.arc && !outline.isClosed)
    }

    /// The gradient's stops spread along the usable arc, not the bar.
    @Test func gradientStopsSpanTheUsableArc() throws {
        let s = try scene("p=50&gradient=ff0000,0000ff&slice=0.5")
        guard case .gradient(let gradient) = s.bar?.paint else {
            Issue.record("no gradient")
            return
        }
        #expect(gradient.span == 180)
        #expect(gradient.color(at: 0) == RingColor(rgb: 0xFF0000))
        #expect(gradient.color(at: 1) == RingColor(rgb: 0x0000FF))
        #expect(gradient.color(at: 0.5).red == gradient.color(at: 0.5).blue)
    }

    @Test func aFullBarIsClosedWithoutCaps() throws {
        #expect(try scene("p=100").bar?.stroke.isClosed == true)
        #expect(try scene("p=99.9").bar?.stroke.isClosed == false)
        #expect(try scene("p=100&slice=0.2").bar?.stroke.isClosed == false)
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
        #expect(try scene("p=7&max=8&label=%7Bp%7D+of+8").label?.text == "88% of 8")
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
