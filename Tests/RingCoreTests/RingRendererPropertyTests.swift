import Foundation
import RingTestSupport
import Testing

@testable import RingCore

/// Properties that must hold for every spec, checked over seeded random specs.
@Suite struct RingRendererPropertyTests {
    @Test func everyRandomSpecRendersWellFormedDeterministicXML() throws {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<400 {
            let query = RandomQuery.make(&generator)
            let spec = try RingSpec(query: query)
            let svg = RingRenderer.render(spec)
            let inspector = SVGInspector(svg)
            #expect(inspector.isWellFormed, "\(query): \(String(describing: inspector.parseError))")
            #expect(RingRenderer.render(spec) == svg, "not deterministic: \(query)")
            let root = try #require(inspector.elements.first)
            #expect(root.name == "svg")
            #expect(root.attributes["role"] == "img")
            #expect(root.attributes["aria-label"] != nil)
            #expect(inspector.elements(named: "title").count == 1)
            #expect(inspector.elements.allSatisfy { Self.allowedElements.contains($0.name) }, "\(query)")
        }
    }

    /// Every stroke, cap and shadow reservation lies inside the image.
    @Test func drawingStaysInsideTheBox() throws {
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<400 {
            let query = RandomQuery.make(&generator)
            let spec = try RingSpec(query: query)
            let svg = RingRenderer.render(spec)
            let inspector = SVGInspector(svg)
            let root = try #require(inspector.elements.first)
            let width = try #require(Double(root.attributes["width"] ?? ""))
            let height = try #require(Double(root.attributes["height"] ?? ""))
            let center = (width / 2, width / 2)
            func inside(_ x: Double, _ y: Double, margin: Double) -> Bool {
                x - margin >= -0.01 && y - margin >= -0.01 && x + margin <= width + 0.01 && y + margin <= height + 0.01
            }
            for element in inspector.elements
            where element.attributes["stroke"] != nil && element.attributes["stroke"] != "#fff" {
                let strokeWidth = Double(element.attributes["stroke-width"] ?? "") ?? 1
                if element.name == "circle" {
                    let r = try #require(Double(element.attributes["r"] ?? ""))
                    for angle in stride(from: 0.0, to: 360, by: 5) {
                        let x = center.0 + r * sin(angle * .pi / 180)
                        let y = center.1 - r * cos(angle * .pi / 180)
                        #expect(inside(x, y, margin: strokeWidth / 2), "\(query): circle r=\(r)")
                    }
                } else if element.name == "path", let d = element.attributes["d"], SVGInspector.pathPoints(d) == nil {
                    // A contour (the outline of an open track): every point it passes through.
                    for (x, y) in SVGInspector.vertices(d) {
                        #expect(inside(x, y, margin: strokeWidth / 2), "\(query): contour \(d)")
                    }
                } else if element.name == "path", let d = element.attributes["d"], let path = SVGInspector.pathPoints(d)
                {
                    // Sample the arc between consecutive points on its circle.
                    for (from, to) in zip(path.points, path.points.dropFirst()) {
                        let a = SVGInspector.angle(of: from, center: center)
                        var b = SVGInspector.angle(of: to, center: center)
                        if path.clockwise, b < a { b += 360 }
                        if !path.clockwise, b > a { b -= 360 }
                        for step in 0...16 {
                            let angle = (a + (b - a) * Double(step) / 16) * .pi / 180
                            let x = center.0 + path.radius * sin(angle)
                            let y = center.1 - path.radius * cos(angle)
                            #expect(inside(x, y, margin: strokeWidth / 2), "\(query): path \(d)")
                        }
                    }
                }
            }
        }
    }

    /// The bar's end points sit where the contract says, within 0.5°.
    @Test func barAnglesMatchTheFraction() throws {
        var generator = SeededGenerator(seed: 3)
        var checked = 0
        for _ in 0..<600 {
            let query = RandomQuery.make(&generator, solidBar: true)
            let spec = try RingSpec(query: query)
            let svg = RingRenderer.render(spec)
            let inspector = SVGInspector(svg)
            let bars = inspector.elements.filter { $0.name == "path" && $0.attributes["stroke"] == "#ff0000" }
            let fraction = min(max(spec.ring(0).percentage / 100, 0), 1)
            guard fraction > 0 else {
                #expect(bars.isEmpty, "\(query): a 0 % ring draws no bar")
                continue
            }
            let strokeWidth = spec.resolvedWidth
            if bars.isEmpty {
                // The smallest round-capped mark is a disc of the bar's width.
                let dot = inspector.elements.first { $0.name == "circle" && $0.attributes["fill"] == "#ff0000" }
                #expect(
                    dot?.attributes["r"].flatMap(Double.init) == (strokeWidth / 2 * 100).rounded() / 100, "\(query)")
                #expect(spec.cap == .round, "\(query): only round caps make a dot")
                continue
            }
            let bar = try #require(bars.first, "\(query)")
            let path = try #require(SVGInspector.pathPoints(bar.attributes["d"]!))
            let center = (Double(spec.size) / 2, Double(spec.size) / 2)
            // The contract of docs/parameters.md, written out independently of RingGeometry:
            // the visible extent, caps included, is the value's share of the full extent,
            // squeezed near 0 (to the smallest mark) and near 1 (to keep a gap).
            let total = spec.half ? 180 : 360 * (1 - spec.slice)
            let gapEdge: Double
            if spec.half {
                gapEdge = spec.direction == .cw ? 270 : 90
            } else if spec.slice > 0 {
                gapEdge = spec.start + 180 + (spec.direction == .cw ? 1 : -1) * 180 * spec.slice
            } else {
                gapEdge = spec.start
            }
            let sign: Double = spec.direction == .cw ? 1 : -1
            let degreesPerPixel = 180 / (Double.pi * path.radius)
            let cap = spec.cap == .round ? strokeWidth * degreesPerPixel : 0
            let gap = max(1.5, strokeWidth * 0.15) * degreesPerPixel
            let fullCircle = total >= 360
            let full = fullCircle ? 360 : total + cap
            let smallest = spec.cap == .round ? cap : gap
            let visible: Double
            if fraction >= 1 {
                visible = full
            } else if 2 * smallest / full >= 1 - 2 * gap / full {
                visible = smallest + (full - gap - smallest) * fraction
            } else if fraction < 2 * smallest / full {
                visible = smallest + smallest * fraction / (2 * smallest / full)
            } else if fraction > 1 - 2 * gap / full {
                visible = full - 2 * gap + gap * (fraction - (1 - 2 * gap / full)) / (2 * gap / full)
            } else {
                visible = fraction * full
            }
            let closed = fraction >= 1 && fullCircle
            let expectedStart = gapEdge + (fullCircle && !closed ? sign * cap / 2 : 0)
            let sweep = closed ? sign * 360 : sign * (visible - cap)
            let start = SVGInspector.angle(of: path.points.first!, center: center)
            let end = SVGInspector.angle(of: path.points.last!, center: center)
            #expect(
                Self.angularDistance(start, expectedStart) < 0.5, "\(query): starts at \(start), not \(expectedStart)")
            #expect(
                Self.angularDistance(end, expectedStart + sweep) < 0.5,
                "\(query): ends at \(end), not \(expectedStart + sweep)")
            checked += 1
            #expect(path.clockwise == (spec.direction == .cw), "\(query)")
        }
        #expect(checked > 400)
    }

    /// Markup, quotes and entities in text parameters stay text.
    @Test(arguments: [
        "<script>alert(1)</script>", "\"><svg onload=alert(1)>", "]]><x/>", "&amp;&lt;&#x3C;", "' onmouseover='x",
        "<![CDATA[x]]>", "<!-- c -->", "javascript:alert(1)", "<?xml?>", "a&b<c>d\"e'f", "{p}<b>{p}</b>",
        "\u{202E}gnp.exe", "x\u{0000}y", String(repeating: "<", count: 64),
    ])
    func hostileTextNeverLeavesItsTextNode(text: String) throws {
        let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let query = "p=72&label=\(encoded)&title=\(encoded)"
        guard let spec = try? RingSpec(query: query) else {
            // Refused text is fine, as long as the refusal names the parameter.
            #expect(throws: RingSpecError.self) { try RingSpec(query: query) }
            return
        }
        let svg = RingRenderer.render(spec)
        let inspector = SVGInspector(svg)
        #expect(inspector.isWellFormed)
        let plain = SVGInspector(RingRenderer.render(try RingSpec(query: "p=72&label=x&title=x")))
        let lines = inspector.elements(named: "text").map(\.text)
        #expect(
            inspector.elements.map(\.name) == plain.elements.map(\.name)
                + Array(repeating: "text", count: lines.count - 1))
        // The label is the text, on one line or two (a space dropped at the break), or at the
        // minimum size its beginning and `…`.
        let drawn = lines.joined()
        let expected = text.replacing("{p}", with: "72%")
        #expect(
            drawn.filter { $0 != " " } == expected.filter { $0 != " " }
                || (lines.count == 1 && drawn.hasSuffix("…") && expected.hasPrefix(drawn.dropLast())), "\(drawn)")
        #expect(inspector.elements(named: "title").first?.text == text)
        #expect(inspector.elements.first?.attributes["aria-label"] == text)
        for element in inspector.elements {
            #expect(element.attributes.keys.allSatisfy { !$0.lowercased().hasPrefix("on") })
        }
    }

    static let allowedElements: Set<String> = [
        "svg", "title", "style", "defs", "filter", "feGaussianBlur", "mask", "linearGradient", "stop", "rect", "circle",
        "path", "g", "text",
    ]

    static func angularDistance(_ a: Double, _ b: Double) -> Double {
        let difference = (a - b).truncatingRemainder(dividingBy: 360)
        let positive = difference < 0 ? difference + 360 : difference
        return min(positive, 360 - positive)
    }
}
