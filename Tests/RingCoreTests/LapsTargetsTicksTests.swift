import RingTestSupport
import Testing

@testable import RingCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `overflow=lap`, `target` and `ticks`: what each draws, where, and what each refuses.
@Suite struct LapsTargetsTicksTests {
    // MARK: Laps

    /// Below `max` a ring that may lap is a plain ring, element for element.
    @Test(arguments: [0.0, 0.5, 30, 72, 99.9])
    func belowMaxThereAreNoLaps(value: Double) throws {
        let lapping = try scene("p=\(value)&overflow=lap")
        #expect(lapping.rings[0].lap == nil)
        #expect(lapping == (try scene("p=\(value)")))
    }

    /// At every whole number of laps the top lap is closed, with laps beneath it from the
    /// second on, and its head (and shadow) at the start.
    @Test(arguments: 1...10)
    func everyWholeNumberOfLapsIsClosed(laps: Int) throws {
        let s = try scene("p=\(laps * 100)&overflow=lap")
        let bar = try #require(s.rings[0].bar)
        let lap = try #require(s.rings[0].lap)
        #expect(bar.stroke.isClosed)
        #expect((lap.beneath != nil) == (laps >= 2))
        #expect(lap.beneath?.stroke.isClosed ?? true)
        // The head's visible edge is at the start: its centre half a cap before it.
        let capDegrees = bar.stroke.width * 180 / (Double.pi * bar.stroke.radius)
        #expect(abs(Self.turn(lap.shadow.head + capDegrees / 2)) < 1e-9)
    }

    /// The head's visible edge sits at the value's angle, whatever the lap, clockwise or not.
    @Test(arguments: [(130.0, "cw"), (160, "cw"), (245, "ccw"), (999, "cw"), (1030, "ccw")])
    func theHeadSitsAtTheValuesAngle(value: Double, direction: String) throws {
        let s = try scene("p=\(value)&overflow=lap&dir=\(direction)&start=30")
        let bar = try #require(s.rings[0].bar)
        let lap = try #require(s.rings[0].lap)
        let sign: Double = direction == "cw" ? 1 : -1
        let capDegrees = bar.stroke.width * 180 / (Double.pi * bar.stroke.radius)
        // Ten laps at most: 1030 draws 1000.
        let expected = 30 + sign * (min(value, 1000).truncatingRemainder(dividingBy: 100) / 100 * 360)
        #expect(abs(Self.turn(lap.shadow.head + sign * capDegrees / 2 - expected)) < 1e-6, "\(value)")
        // The shadow runs ahead of the head, the way the ring goes.
        #expect(lap.shadow.stroke.arc.start == lap.shadow.head)
        #expect(lap.shadow.stroke.arc.sweep * sign > 0)
    }

    /// At most ten laps are drawn; the label still shows the value.
    @Test func atMostTenLapsAreDrawn() throws {
        let many = try scene("p=2345&overflow=lap")
        #expect(many.rings[0].lap == (try scene("p=1000&overflow=lap")).rings[0].lap)
        #expect(many.label?.text == "2345%")
        #expect(many.title == "2345%")
    }

    /// With concentric rings each laps on its own value.
    @Test func eachRingLapsOnItsOwnValue() throws {
        let s = try scene("p=250,80,100&overflow=lap&size=200")
        #expect(s.rings[0].lap?.beneath != nil)
        #expect(s.rings[1].lap == nil)
        #expect(s.rings[2].lap != nil && s.rings[2].lap?.beneath == nil)
    }

    /// A gradient runs along the whole value: the head has the last colour, the lap beneath
    /// ends in the colour the top lap starts with.
    @Test func aGradientRunsAlongEveryLap() throws {
        let s = try scene("p=250&overflow=lap&gradient=ff0000,0000ff&cap=butt")
        guard case .gradient(let top)? = s.rings[0].bar?.paint,
            case .gradient(let beneath)? = s.rings[0].lap?.beneath?.paint
        else {
            Issue.record("no gradient")
            return
        }
        #expect(beneath.color(along: 360) == top.color(along: 0))
        #expect(top.color(along: 180) == RingColor(rgb: 0x0000FF))
        #expect(beneath.color(along: 0) == top.color(at: 0.4))
    }

    /// The head's visible edge is at the value's angle wherever the value is, just past a
    /// whole lap too: `p=100.5` and `p=101` draw different heads, `p=101`'s edge at 3.6°.
    @Test(arguments: [100.5, 101, 102, 105, 110, 150, 201, 299])
    func theHeadSitsAtTheValuesAngle(value: Double) throws {
        let s = try scene("p=\(value)&overflow=lap&size=240")
        let edge = Self.visibleEnd(try #require(s.rings[0].bar).stroke)
        let expected = (value.truncatingRemainder(dividingBy: 100)) * 3.6
        #expect(abs(Self.turn(edge - expected)) < 1e-9, "p=\(value): head's edge at \(edge)°")
    }

    /// With laps, a target past max is drawn where the head will be when the value reaches
    /// it: 150 % half way round, 200 % at the start; below max as on any ring.
    @Test(arguments: [(150.0, 180.0), (125, 90), (200, 0), (330, 108), (80, 288)])
    func aLapTargetSitsWhereTheHeadWillBe(target: Double, angle: Double) throws {
        let s = try scene("p=130&overflow=lap&target=\(target)")
        let mark = try #require(s.targets).marks[0].angle
        #expect(abs(Self.turn(mark - angle)) < 1e-9, "target=\(target): \(mark)°")
        guard target > 100, target.truncatingRemainder(dividingBy: 100) != 0 else { return }
        let reached = try scene("p=\(target)&overflow=lap")
        #expect(abs(Self.turn(mark - Self.visibleEnd(try #require(reached.rings[0].bar).stroke))) < 1e-9)
        // Without laps a target past max sits at the end, as before.
        #expect(abs(Self.turn(try #require(try scene("p=130&target=\(target)").targets).marks[0].angle)) < 1e-9)
    }

    /// The head's shadow is soft and long, as Apple's rings fade: 30 % at the head's edge,
    /// fading over a bar and a half's width; 45 % over half a width read as a hard crescent.
    @Test(arguments: ["p=230&overflow=lap&width=30&size=240", "p=130&overflow=lap", "p=125&overflow=lap&cap=butt"])
    func theHeadShadowFadesSoftlyAndLong(query: String) throws {
        let s = try scene(query)
        let shadow = try #require(s.rings[0].lap).shadow
        let width = try #require(s.rings[0].bar).stroke.width
        #expect(shadow.opacity == 0.3)
        #expect(abs(shadow.fade.upperBound - shadow.fade.lowerBound - max(width * 1.5, 3)) < 1e-9)
    }

    /// Laps need a full ring; the error names both parameters.
    @Test(arguments: ["slice=0.25", "half", "segments=5"])
    func lapsNeedAFullRing(other: String) {
        let name = String(other.split(separator: "=")[0])
        #expect(failure("p=130&overflow=lap&\(other)") == .conflict(parameter: "overflow", with: name))
        #expect(failure("p=130&overflow=clamp&\(other)") == nil)
    }

    // MARK: Targets

    /// The marker sits at the target's angle across the track, as thick as the issue says, in
    /// the scheme's text colour; outside min…max at the nearer end.
    @Test(arguments: [(80.0, 288.0), (0, 0), (-50, 0), (100, 360), (250, 360)])
    func theTargetSitsAtItsAngle(target: Double, angle: Double) throws {
        let s = try scene("p=64&target=\(target)")
        let targets = try #require(s.targets)
        #expect(targets.marks.count == 1)
        #expect(abs(Self.turn(targets.marks[0].angle - angle)) < 1e-9)
        #expect(targets.width == 2)
        #expect(targets.color == RingScene.SchemeColor(color: RingColor(rgb: 0x24292F), dark: RingColor(rgb: 0xE6EDF3)))
        let radius = s.rings[0].bar!.stroke.radius
        #expect(targets.marks[0].inner == radius - 6 && targets.marks[0].outer == radius + 6)
        #expect((try scene("p=64&target=80&size=300")).targets?.width == 5)
    }

    /// On every shape: a slice, a half gauge, segments and concentric rings (each on its own
    /// track), where `none` skips a ring; on open arcs where a bar at the target's value ends.
    @Test func targetsWorkOnEveryShape() throws {
        for query in ["p=50&slice=0.25&target=50", "p=50&half&target=50", "p=25&half&dir=ccw&target=25"] {
            let s = try scene(query)
            let target = try #require(s.targets).marks[0].angle
            #expect(abs(Self.turn(target - Self.visibleEnd(try #require(s.rings[0].bar).stroke))) < 1e-9, "\(query)")
        }
        // Half way along the arc, a bar's caps are symmetric: the mark is the arc's middle.
        #expect(abs(Self.turn(try #require(try scene("p=10&half&target=50").targets).marks[0].angle)) < 1e-9)
        #expect(try scene("p=10&segments=4&target=50").targets?.marks.count == 1)
        let rings = try scene("p=10,20,30&target=50,none,75&size=200")
        let marks = try #require(rings.targets).marks
        #expect(marks.map(\.angle) == [180, 270])
        #expect(marks[0].outer == rings.rings[0].bar!.stroke.radius + rings.rings[0].track!.stroke.width / 2)
        #expect(marks[1].outer == rings.rings[2].bar!.stroke.radius + rings.rings[2].track!.stroke.width / 2)
    }

    /// The rule a reader takes from the picture: a bar at a mark's value ends at that mark, its
    /// round cap included, on every shape, direction and cap, near 0 and between. A full ring's
    /// marks from 10 % on are where they always were: the value's share of the circle.
    @Test(arguments: [
        "", "&half", "&slice=0.3", "&half&dir=ccw", "&slice=0.3&start=90&dir=ccw", "&cap=butt&half",
        "&width=40&half", "&cap=butt", "&width=40", "&segments=6",
    ])
    func aBarAtAMarksValueEndsAtTheMark(shape: String) throws {
        for value in [1.0, 2, 5, 10, 25, 50, 75, 90] {
            let s = try scene("p=\(value)&target=\(value)&size=240\(shape)")
            let bar = try #require(s.rings[0].bar?.segments.last ?? s.rings[0].bar?.stroke)
            let end = shape.contains("segments") ? bar.arc.end : Self.visibleEnd(bar)
            let target = try #require(s.targets).marks[0].angle
            #expect(abs(Self.turn(target - end)) < 1e-9, "p=\(value)\(shape): mark \(target)°, bar \(end)°")
            if shape.isEmpty || shape == "&cap=butt", value >= 10 {
                #expect(abs(Self.turn(target - value * 3.6)) < 1e-9)
            }
        }
        // Ticks follow the same rule: p at a tick's value ends at the tick.
        if !shape.contains("segments") {
            let ticked = try scene("p=75&ticks=4&size=240\(shape)")
            let end = Self.visibleEnd(try #require(ticked.rings[0].bar).stroke)
            #expect(ticked.ticks?.marks.contains { abs(Self.turn($0.angle - end)) < 1e-9 } == true, "ticks\(shape)")
        }
    }

    /// Where a bar's stroke visibly ends: its arc's end, plus half a round cap.
    static func visibleEnd(_ stroke: RingScene.Stroke) -> Double {
        let cap = stroke.cap == .round ? stroke.width / 2 / stroke.radius * 180 / .pi : 0
        return stroke.arc.end + (stroke.arc.sweep < 0 ? -cap : cap)
    }

    /// The accessible name adds each ring's target; a title of the URL's own is left alone.
    @Test func theTitleNamesTheTarget() throws {
        #expect(try scene("p=64&target=80").title == "64%, target 80%")
        #expect(try scene("p=64,30&target=80,none").title == "64%, target 80%, 30%")
        #expect(try scene("p=64.5&target=80.25&decimals=1").title == "64.5%, target 80.3%")
        #expect(try scene("p=64&target=80&title=Sprint").title == "Sprint")
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: "p=64&target=80")), as: UTF8.self)
        #expect(svg.contains("aria-label=\"64%, target 80%\"") && svg.contains("<title>64%, target 80%</title>"))
    }

    /// `none` everywhere is no target: the default, out of the canonical key.
    @Test func targetNoneIsTheDefault() throws {
        #expect(try RingSpec(query: "p=1&target=none") == (try RingSpec(query: "p=1")))
        #expect(try RingSpec(query: "p=1,2&target=none,none").canonicalKey == "p=1,2")
        #expect(try RingSpec(query: "p=1,2&target=5,none").canonicalKey == "p=1,2&target=5,none")
        #expect(try RingSpec(query: "p=1&targetColor=red").canonicalKey == "p=1")  // nothing to colour
    }

    @Test func aTargetWhosePercentageCannotBeShownIsRefused() {
        #expect(refusal("p=0&max=0.001&target=100000")?.hasPrefix("target: \"100000\" is out of range") == true)
        #expect(failure("p=1&target=abc")?.description.hasPrefix("target:") == true)
    }

    // MARK: Ticks

    /// N marks on a full ring (0 and 360° coincide), N + 1 on an arc: a full ring's at equal
    /// steps of the circle; an open arc's ends on the track's ends and the others where a bar
    /// at their value ends (spread over the arc and its caps), across every ring's track.
    @Test func ticksDivideTheUsableArc() throws {
        let full = try #require(try scene("p=50&ticks=8").ticks)
        #expect(full.marks.map(\.angle) == (0..<8).map { Double($0) * 45 })
        #expect(full.width == 1)
        let slice = try #require(try scene("p=50&slice=0.5&ticks=4").ticks).marks.map(\.angle)
        let cap = 12 / 54 * 180 / Double.pi  // the default bar's width, in degrees at its radius
        let expected = [270, 315 - cap / 4, 360, 405 + cap / 4, 450]
        #expect(zip(slice, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(slice)")
        let half = try #require(try scene("p=50&half&dir=ccw&ticks=2").ticks)
        #expect(half.marks.map(\.angle) == [90, 0, -90])
        let rings = try scene("p=50,20&ticks=4&size=240")
        let marks = try #require(rings.ticks).marks
        #expect(marks.count == 8)
        #expect(marks[0..<4].map(\.angle) == marks[4..<8].map(\.angle))  // a full ring's, on every ring
        #expect(rings.ticks?.width == 2)
    }

    /// An upright or level mark's edges fall on pixel edges, so every tick is as crisp as a
    /// diagonal one: centred on a whole-pixel line, a 1 px tick covered two pixels at half
    /// strength. A diagonal mark is not moved, and no mark by half a pixel or more.
    @Test(arguments: ["p=0&ticks=8", "p=0&ticks=4&size=150", "p=30&half&ticks=2&target=50", "p=10&ticks=12&size=300"])
    func uprightAndLevelMarksAreCrisp(query: String) throws {
        let s = try scene(query)
        for marks in [s.ticks, s.targets].compactMap({ $0 }) {
            for mark in marks.marks {
                let quarter = (mark.angle / 90).rounded()
                guard abs(mark.angle / 90 - quarter) < 1e-9 else {
                    #expect(mark.shift == 0)
                    continue
                }
                let point = mark.point(at: mark.outer, centerX: s.centerX, centerY: s.centerY)
                let across = Int(quarter).isMultiple(of: 2) ? point.x : point.y
                let edge = across - marks.width / 2
                #expect(abs(edge - edge.rounded()) < 1e-9, "\(query): mark at \(mark.angle)° has its edge at \(edge)")
                #expect(abs(mark.shift) < 0.5 + 1e-9)
            }
        }
    }

    /// Marks grow with a thick track: on `width=40` a tick is 40/12 px and a target twice that;
    /// at the defaults 1 and 2 px.
    @Test func marksGrowWithTheTrack() throws {
        let thick = try scene("p=50&ticks=4&target=80&width=40&size=240")
        #expect(thick.ticks?.width == 40.0 / 12 && thick.targets?.width == 40.0 / 6)
        let plain = try scene("p=50&ticks=4&target=80")
        #expect(plain.ticks?.width == 1 && plain.targets?.width == 2)
    }

    /// Among ticks a target reaches a quarter of the track into the ring, so it does not read as
    /// one more tick; concentric rings' targets stop within half the gap; without ticks it spans
    /// the track alone.
    @Test func aTargetAmongTicksReachesIntoTheRing() throws {
        let s = try scene("p=64&target=80&ticks=10&size=400")
        let tick = try #require(s.ticks).marks[0]
        let target = try #require(s.targets).marks[0]
        let track = try #require(s.rings[0].track).stroke.width
        #expect(abs(target.inner - (tick.inner - track / 4)) < 1e-9 && target.outer == tick.outer)
        #expect(try #require(try scene("p=64&target=80&size=400").targets).marks[0].inner == tick.inner)
        let rings = try scene("p=64,50&target=80,70&ticks=4&size=240")
        let outer = try #require(rings.targets).marks[0]
        let ticks = try #require(rings.ticks).marks
        let gap = try RingSpec(query: "p=64,50&size=240").resolvedGap
        #expect(abs(outer.inner - (ticks[0].inner - gap / 2)) < 1e-9)
    }

    /// A default tick keeps 2:1 and a default target 3:1 against what is under it, in either
    /// scheme: on a light bar in the dark scheme (1.24 and 1.62:1 on #eab308, 1.48 and 1.93 on
    /// a threshold's green) through a halo of the contrasting scheme colour drawn under them.
    /// On the default bar, which they read on, no halo is drawn.
    @Test(arguments: [
        "p=60&color=eab308&target=40&ticks=4&theme=dark", "p=60&color=eab308&target=40&ticks=4&theme=auto",
        "p=90&thresholds=ef4444,50:eab308,80:22c55e&target=70&ticks=4&theme=dark", "p=64&target=80&ticks=10",
        "p=64&target=80&ticks=10&theme=dark", "p=64&target=80&ticks=10&theme=auto",
    ])
    func marksKeepTheirContrastOnTheBar(query: String) throws {
        let s = try scene(query)
        let bars = s.rings.compactMap(\.bar).flatMap { bar -> [RingColor] in
            switch bar.paint {
            case .solid(let color): [color]
            case .gradient(let gradient): gradient.stops
            }
        }
        for (marks, least) in [(try #require(s.ticks), 2.0), (try #require(s.targets), 3.0)] {
            for mark in [marks.color.color, marks.color.dark].compactMap({ $0 }) {
                let onBar = bars.map { mark.contrast(with: $0) }.min() ?? 99
                if onBar >= least { continue }
                let halo = try #require(marks.halo, "\(query): \(mark) reads \(onBar):1 on the bar, without a halo")
                let under = mark == marks.color.color ? halo.color : (halo.dark ?? halo.color)
                #expect(mark.contrast(with: under) >= least, "\(query): \(mark) on its halo \(under)")
            }
        }
        if query.hasPrefix("p=64") { #expect(s.ticks?.halo == nil && s.targets?.halo == nil) }
    }

    @Test func ticksWithSegmentsAreRefused() {
        #expect(failure("p=50&ticks=5&segments=5") == .conflict(parameter: "ticks", with: "segments"))
    }

    /// Too many marks for the size is an error that gives the numbers.
    @Test func ticksTooDenseForTheSizeAreRefusedWithTheNumbers() throws {
        #expect(failure("p=50&ticks=100") == nil)
        // The error states the counts this ring allows, and the largest of them is drawn.
        let message = try #require(refusal("p=50&ticks=100&size=32"))
        #expect(
            message
                == "ticks: \"100\" is out of range 2…40 for this ring (marks 1 px wide on the 80.4 px inner edge "
                + "need at least 1 px between them)")
        #expect(failure("p=50&ticks=40&size=32") == nil)
        #expect(refusal("p=50&ticks=41&size=32") == message.replacingOccurrences(of: "\"100\"", with: "\"41\""))
        // A count far past 100 states the same range, not the table's 2…100.
        #expect(
            refusal("p=50&ticks=1000000&size=32") == message.replacingOccurrences(of: "\"100\"", with: "\"1000000\""))
        #expect(refusal("p=50&ticks=1000000")?.hasSuffix("is out of range 2…100") == true)
        #expect(refusal("p=50&ticks=1&size=32")?.hasPrefix("ticks: \"1\" is out of range 2…40 for this ring") == true)
        #expect(refusal("p=50,40&ticks=60&size=64")?.contains("inner edge of the innermost ring") == true)
        #expect(failure("p=50&ticks=1")?.description.hasPrefix("ticks: \"1\" is out of range 2…100") == true)
        #expect(failure("p=50&ticks=101")?.description.hasPrefix("ticks: \"101\" is out of range 2…100") == true)
    }

    /// The default colours: the target's reads at 3:1 on the track and the bar in each scheme;
    /// the tick's is muted (less than the label on the track) yet at least 2:1 on both.
    @Test func defaultMarkColoursShowOnTrackAndBar() {
        for (track, label, tick) in [
            (SchemeDefault.track.light, SchemeDefault.label.light, SchemeDefault.tick.light),
            (SchemeDefault.track.dark, SchemeDefault.label.dark, SchemeDefault.tick.dark),
        ] {
            #expect(label.contrast(with: track) >= 3 && label.contrast(with: SchemeDefault.bar.light) >= 3)
            #expect(tick.contrast(with: track) >= 2 && tick.contrast(with: SchemeDefault.bar.light) >= 2)
            #expect(tick.contrast(with: track) < label.contrast(with: track))
        }
    }

    // MARK: Properties

    /// No mark, head or shadow outside the box, whatever else the query asks.
    @Test func noMarkLeavesTheBox() throws {
        var generator = SeededGenerator(seed: 26)
        var drawn = 0
        for _ in 0..<600 {
            let extra =
                "&target=\(Int.random(in: -50...150, using: &generator))"
                + "&ticks=\(Int.random(in: 2...40, using: &generator))&overflow=lap"
            let query = RandomQuery.make(&generator) + extra
            guard let spec = try? RingSpec(query: query) else { continue }  // too dense, or not a full ring
            let s = RingScene(spec: spec)
            drawn += 1
            for mark in (s.ticks?.marks ?? []) + (s.targets?.marks ?? []) {
                for radius in [mark.inner, mark.outer] {
                    let point = s.point(at: mark.angle, radius: radius)
                    let slack = max(s.ticks?.width ?? 0, s.targets?.width ?? 0) / 2
                    #expect(point.x >= -slack && point.x <= s.width + slack, "\(query)")
                    #expect(point.y >= -slack && point.y <= s.height + slack, "\(query)")
                }
            }
            for ring in s.rings {
                guard let shadow = ring.lap?.shadow else { continue }
                #expect(shadow.stroke.radius + shadow.stroke.width / 2 <= s.width / 2 + 1e-9, "\(query)")
            }
        }
        #expect(drawn > 200)
    }

    /// `angle` in -180…180.
    static func turn(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 360)
        if a > 180 { a -= 360 }
        if a < -180 { a += 360 }
        return a
    }
}
