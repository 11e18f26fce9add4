import Foundation
import RingTestSupport
import Testing

@testable import RingCore

/// Gradient and smallest-mark properties over random specs, read from the SVG itself.
@Suite struct GradientAndMarkPropertyTests {
    /// The sub-arcs' linear gradients, in order: (x1, y1, x2, y2, first colour, last colour).
    private func segments(_ inspector: SVGInspector, suffix: String) -> [[String: String]] {
        inspector.elements.filter { $0.name == "linearGradient" && ($0.attributes["id"] ?? "").contains("-g\(suffix)") }
            .map(\.attributes)
    }

    /// Colours run on without steps: each sub-arc ends in the colour the next begins with.
    @Test func gradientColoursAreContinuous() throws {
        var generator = SeededGenerator(seed: 41)
        for _ in 0..<150 {
            let stops = (0..<Int.random(in: 2...8, using: &generator)).map { _ in
                String(format: "%06x", Int.random(in: 0...0xFFFFFF, using: &generator))
            }
            let query = RandomQuery.make(&generator, solidBar: true) + "&gradient=" + stops.joined(separator: ",")
            let inspector = SVGInspector(RingRenderer.render(try RingSpec(query: query)))
            let stopColors = inspector.elements.filter { $0.name == "stop" }.compactMap { $0.attributes["stop-color"] }
            guard stopColors.count >= 4 else { continue }  // one sub-arc, or a dot
            for index in stride(from: 1, to: stopColors.count - 2, by: 2) {
                #expect(stopColors[index] == stopColors[index + 1], "\(query): step at sub-arc \(index / 2)")
            }
        }
    }

    /// Sub-arcs overlap by at least 1.5 px at the bar's inner edge (or cover the rest of the
    /// bar), and are painted opaque: the alpha comes once, from a group opacity or a mask.
    @Test func gradientSubArcsOverlapAndAreOpaque() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<150 {
            let alpha = Bool.random(using: &generator) ? "" : "80"
            let query = RandomQuery.make(&generator, solidBar: true) + "&gradient=ff0000\(alpha),0000ff"
            let spec = try RingSpec(query: query)
            let scene = RingScene(spec: spec)
            guard let bar = scene.rings[0].bar?.stroke, !bar.isDot else { continue }
            let inspector = SVGInspector(RingRenderer.render(spec))
            let arcs = inspector.elements.filter {
                ($0.attributes["stroke"] ?? "").contains("-gc") && $0.name == "path"
            }
            .compactMap { $0.attributes["d"].flatMap(SVGInspector.pathPoints) }
            let inner = max(bar.radius - bar.width / 2, 0.5)
            let center = (scene.centerX, scene.centerY)
            for (current, next) in zip(arcs, arcs.dropFirst()) {
                let end = SVGInspector.angle(of: current.points.last!, center: center)
                let start = SVGInspector.angle(of: next.points.first!, center: center)
                var overlap = (current.clockwise ? end - start : start - end).truncatingRemainder(dividingBy: 360)
                if overlap < -180 { overlap += 360 }
                let reachesTheEnd = RingRendererPropertyTests.angularDistance(end, bar.arc.end) < 0.5
                #expect(
                    overlap * .pi / 180 * inner >= 1.49 || reachesTheEnd, "\(query): \(overlap)° overlap at \(inner) px"
                )
            }
            let painted = inspector.elements.filter { $0.name == "path" || $0.name == "circle" }
            #expect(
                !painted.contains {
                    $0.attributes["stroke-opacity"] != nil && ($0.attributes["stroke"] ?? "").hasPrefix("url(")
                })
            if !alpha.isEmpty {
                let once = inspector.elements.contains {
                    $0.name == "g" && ($0.attributes["mask"] ?? "").hasSuffix("-ga)")
                }
                #expect(once, "\(query): translucent stops without a mask")
            }
        }
    }

    /// Every value above 0 shows a mark, in every shape: a path of some length, or a disc.
    @Test func everyValueAboveZeroShowsAMark() throws {
        var generator = SeededGenerator(seed: 43)
        for _ in 0..<300 {
            let value = String(format: "%.9f", Double.random(in: 0.000001...0.5, using: &generator))
            var query = RandomQuery.make(&generator, solidBar: true)
            query = query.split(separator: "&").filter { !$0.hasPrefix("p=") }.joined(separator: "&") + "&p=\(value)"
            let spec = try RingSpec(query: query)
            let inspector = SVGInspector(RingRenderer.render(spec))
            let dot = inspector.elements.contains { $0.name == "circle" && $0.attributes["fill"] == "#ff0000" }
            let path = inspector.elements.first { $0.name == "path" && $0.attributes["stroke"] == "#ff0000" }
            let length = path.flatMap { $0.attributes["d"].flatMap(SVGInspector.pathPoints) }.map { points -> Double in
                let (a, b) = (points.points.first!, points.points.last!)
                return hypot(a.0 - b.0, a.1 - b.1)
            }
            #expect(dot || (length ?? 0) >= 0.2, "\(query): no visible mark")
        }
    }
}
