import Testing

@testable import RingCore

/// `thresholds=BASE,V1:C1,…` colours the bar by value, and `labelColor=bar` follows the bar.
@Suite struct ThresholdsTests {
    private let steps = "ef4444,50:eab308,80:22c55e"

    private func bar(_ query: String) throws -> RingColor? {
        guard case .solid(let color)? = RingScene(spec: try RingSpec(query: query)).rings[0].bar?.paint else {
            return nil
        }
        return color
    }

    @Test func parsesABaseAndSteps() throws {
        let thresholds = try #require(try RingSpec(query: "p=1&thresholds=\(steps)").thresholds)
        #expect(thresholds.base == RingColor(rgb: 0xEF4444))
        #expect(thresholds.steps.map(\.value) == [50, 80])
        #expect(thresholds.steps.map(\.color) == [RingColor(rgb: 0xEAB308), RingColor(rgb: 0x22C55E)])
    }

    /// Below the first step the base; from each step's value up, that step's colour; a value equal
    /// to a step takes it.
    @Test(arguments: [
        (0.0, 0xEF4444), (49.99, 0xEF4444), (50, 0xEAB308), (79.9, 0xEAB308), (80, 0x22C55E), (150, 0x22C55E),
        (-5, 0xEF4444),
    ])
    func theBarTakesTheStepAtOrBelowTheValue(value: Double, rgb: UInt32) throws {
        let color = try bar("p=\(value)&thresholds=\(steps)&min=-10&max=200")
        #expect(value <= -10 || color == RingColor(rgb: rgb))
        #expect(
            Thresholds(
                base: .init(rgb: 0xEF4444),
                steps: [
                    .init(value: 50, color: .init(rgb: 0xEAB308)), .init(value: 80, color: .init(rgb: 0x22C55E)),
                ]
            ).color(for: value) == RingColor(rgb: rgb))
    }

    /// Values are in the units of p, before min and max scale it: 8 of 10 is 80 %, below 50.
    @Test func valuesAreInTheUnitsOfP() throws {
        #expect(try bar("p=8&max=10&thresholds=\(steps)") == RingColor(rgb: 0xEF4444))
        #expect(try bar("p=80&max=1000&thresholds=\(steps)") == RingColor(rgb: 0x22C55E))
    }

    @Test(arguments: [
        ("thresholds=red", "a base colour and 1 to 8 value:colour steps"),
        ("thresholds=red,1:a,2:b,3:c,4:d,5:e,6:f,7:aa,8:bb,9:cc", "a base colour and 1 to 8 value:colour steps"),
        ("thresholds=red,50", "a step value:colour such as 80:22c55e"),
        ("thresholds=red,50:blue:green", "a step value:colour such as 80:22c55e"),
        ("thresholds=red,,50:blue", "a step value:colour such as 80:22c55e"),
        ("thresholds=red,50:blue,", "a step value:colour such as 80:22c55e"),
        ("thresholds=red,80:blue,50:green", "values that increase: 50 after 80"),
        ("thresholds=red,50:blue,50:green", "values that increase: 50 after 50"),
        ("thresholds=red,x:blue", "a decimal number"),
        ("thresholds=red,1e3:blue", "a decimal number"),
        ("thresholds=red,10000000000000:blue", "1e12"),
        ("thresholds=zz,50:blue", "a colour"),
        ("thresholds=red,50:zz", "a colour"),
        ("thresholds=,50:blue", "a colour"),
        ("thresholds=red,:blue", "a decimal number"),
    ])
    func refusesMalformedSteps(query: String, expected: String) throws {
        let message = try #require(refusal("p=72&\(query)"), "\(query) was accepted")
        #expect(message.hasPrefix("thresholds: "), "\(message)")
        #expect(message.contains(expected), "\(message)")
    }

    @Test func cannotBeCombinedWithColorOrGradient() {
        #expect(refusal("p=72&thresholds=\(steps)&color=red") == "thresholds: cannot be combined with color")
        #expect(refusal("p=72&color=red&thresholds=\(steps)") == "thresholds: cannot be combined with color")
        #expect(refusal("p=72&thresholds=\(steps)&gradient=red,blue") == "thresholds: cannot be combined with gradient")
    }

    @Test func theKeyIsCanonicalAndParsesBack() throws {
        let spec = try RingSpec(query: "p=72&thresholds=%23EF4444,50.0:eab308,80:green")
        #expect(spec.canonicalKey.contains("&thresholds=ef4444ff,50:eab308ff,80:"))
        #expect(try RingSpec(query: spec.canonicalKey) == spec)
        let other = try RingSpec(query: "p=72&thresholds=ef4444,50:eab308,81:22c55e")
        #expect(other.digest != (try RingSpec(query: "p=72&thresholds=\(steps)")).digest)
    }

    @Test func labelColorBarFollowsTheBar() throws {
        func label(_ query: String) throws -> RingColor? {
            RingScene(spec: try RingSpec(query: query)).label?.color.color
        }
        #expect(try label("p=86&thresholds=\(steps)&labelColor=bar") == RingColor(rgb: 0x22C55E))
        #expect(try label("p=35&thresholds=\(steps)&labelColor=bar") == RingColor(rgb: 0xEF4444))
        #expect(try label("p=72&color=ff00ff&labelColor=bar") == RingColor(rgb: 0xFF00FF))
        #expect(try label("p=72&labelColor=bar") == SchemeDefault.bar.light)
        // A gradient's colour where the bar ends (about halfway here: a grey near the middle).
        let scene = RingScene(spec: try RingSpec(query: "p=50&gradient=000000,ffffff&labelColor=bar"))
        guard case .gradient(let gradient)? = scene.rings[0].bar?.paint, let arc = scene.rings[0].bar?.stroke.arc else {
            Issue.record("no gradient bar")
            return
        }
        let end = gradient.color(at: arc.sweep.magnitude / gradient.span)
        #expect(scene.label?.color.color == end)
        #expect((100...160).contains(end.red))
        #expect(RingScene(spec: try RingSpec(query: "p=72&labelColor=bar&theme=auto")).label?.color.dark == nil)
        #expect(try RingSpec(query: "p=72&labelColor=bar").canonicalKey.contains("&labelColor=bar"))
    }
}
