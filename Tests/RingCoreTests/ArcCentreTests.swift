import RingTestSupport
import Testing

@testable import RingCore

/// A renderer places an SVG arc from its end points and radius alone: when those are rounded
/// separately, the centre it finds moves, by up to √(2rε) on a half circle. So every arc the
/// writer emits must imply the ring's own centre, within 0.02 px, after rounding.
@Suite struct ArcCentreTests {
    struct ArcCommand {
        var from: (x: Double, y: Double)
        var radius: Double
        var large: Bool
        var sweep: Bool
        var to: (x: Double, y: Double)

        /// The centre a renderer derives (SVG 1.1 F.6.5, with rx = ry and no rotation); a
        /// radius too small for the chord is scaled up, which puts the centre on the chord.
        var impliedCentre: (x: Double, y: Double) {
            let hx = (from.x - to.x) / 2
            let hy = (from.y - to.y) / 2
            let half = hx * hx + hy * hy
            let square = (radius * radius - half) / half
            var coefficient = square > 0 ? square.squareRoot() : 0
            if large == sweep { coefficient = -coefficient }
            return (coefficient * hy + (from.x + to.x) / 2, -coefficient * hx + (from.y + to.y) / 2)
        }
    }

    /// The arc commands of path data made of `M`, `L`, `A` and `Z`.
    static func arcs(in d: String) -> [ArcCommand] {
        var tokens: [String] = []
        var token = ""
        for character in d {
            if "MLAZ".contains(character) || character == " " || (character == "-" && !token.isEmpty) {
                if !token.isEmpty { tokens.append(token) }
                token = character == " " ? "" : String(character)
                if "MLAZ".contains(character) {
                    tokens.append(token)
                    token = ""
                }
            } else {
                token.append(character)
            }
        }
        if !token.isEmpty { tokens.append(token) }
        var result: [ArcCommand] = []
        var point = (x: 0.0, y: 0.0)
        var index = 0
        func number(_ offset: Int) -> Double { Double(tokens[index + offset])! }
        while index < tokens.count {
            switch tokens[index] {
            case "M", "L":
                point = (number(1), number(2))
                index += 3
            case "A":
                let to = (x: number(6), y: number(7))
                result.append(
                    ArcCommand(from: point, radius: number(1), large: number(4) == 1, sweep: number(5) == 1, to: to))
                point = to
                index += 8
            default:
                index += 1
            }
        }
        return result
    }

    /// The farthest any arc on the ring's circles puts its centre from the ring's: every arc
    /// but an outline's round caps (whose radius is the outline's offset from the track).
    static func worstCentreError(_ query: String) throws -> Double {
        let spec = try RingSpec(query: query)
        let ring = RingScene(spec: spec)
        // Round caps drawn as arcs (an outline's, a stack's ends) turn about their own centres.
        let capRadii = [ring.rings[0].outline?.offset, ring.rings[0].bar?.parts.first.map { $0.stroke.width / 2 }]
            .compactMap { $0 }
        let inspector = SVGInspector(RingRenderer.render(spec))
        var worst = 0.0
        for path in inspector.elements(named: "path") {
            for arc in arcs(in: path.attributes["d"] ?? "") {
                if capRadii.contains(where: { abs(arc.radius - $0) < 0.01 }) { continue }
                let centre = arc.impliedCentre
                let error =
                    ((centre.x - ring.centerX) * (centre.x - ring.centerX)
                    + (centre.y - ring.centerY) * (centre.y - ring.centerY)).squareRoot()
                worst = max(worst, error)
            }
        }
        return worst
    }

    static let limit = 0.02

    /// The cases the issue measured: a half gauge's track 3.2 px under its bar, a bar 2.2 px
    /// off its track, and widths ending in .25 or .75.
    @Test(arguments: [
        "p=67&size=1024&half&width=1.07", "p=50&size=1000&width=1.25&cap=butt", "p=50&size=120&half&width=4.25",
        "p=50&size=1024&half&width=10.75", "p=100&size=1024&half&width=3.75", "p=50&size=997&slice=0.5&width=2.25",
        "p=99.9&size=1024&width=0.75&segments=7", "p=30,60,90&size=1024&half&width=7.25&gap=3.5",
        "p=80&size=1024&gradient=red,blue&width=9.75", "p=70&size=1024&outline=888&half&width=11.25",
        "p=1&size=1024&width=0.25", "p=0.1&size=1024&width=50&cap=butt", "p=63&size=1024&segments=100&cap=butt",
        "p=63,20&size=1024&segments=60&width=3",
    ])
    func measuredCasesImplyTheRingsCentre(query: String) throws {
        #expect(try Self.worstCentreError(query) <= Self.limit, "\(query)")
    }

    @Test(arguments: RingExamples.all.map(\.query))
    func catalogueArcsImplyTheRingsCentre(query: String) throws {
        #expect(try Self.worstCentreError(query) <= Self.limit, "\(query)")
    }

    @Test func randomArcsImplyTheRingsCentre() throws {
        var generator = SeededGenerator(seed: 0xA2C)
        for _ in 0..<400 {
            // Large rings too, where rounding moves a half circle's centre the most.
            let scale = Int.random(in: 1...3, using: &generator)
            let query = RandomQuery.make(&generator).split(separator: "&").map { part in
                guard part.hasPrefix("size="), let size = Int(part.dropFirst(5)) else { return String(part) }
                return "size=\(min(size * scale, 1024))"
            }.joined(separator: "&")
            #expect(try Self.worstCentreError(query) <= Self.limit, "\(query)")
        }
    }
}
