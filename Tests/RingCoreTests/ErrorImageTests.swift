import RingTestSupport
import Testing

@testable import RingCore

@Suite struct ErrorImageTests {
    /// The text of an error SVG, its lines joined by spaces.
    static func shownText(_ svg: [UInt8]) -> String {
        SVGInspector(svg).elements(named: "text").map(\.text).joined(separator: " ")
    }

    /// On a box too small for the whole message, the image leads with the parameter's name:
    /// at 32 px "ring:" took the first line and cut the rest. The title keeps the whole text.
    @Test func aSmallBoxLeadsWithTheParametersName() {
        let message = "ticks: \"100\" is not a count that shows: 100 marks 1 px wide would touch"
        let small = ErrorScene(message: message, box: ErrorScene.Box(size: 32))
        #expect(small.lines.first?.text.hasPrefix("ticks:") == true, "\(small.lines.map(\.text))")
        #expect(small.title.hasPrefix("ring: ticks:"))
        let large = ErrorScene(message: message, box: ErrorScene.Box(size: 400))
        #expect(large.lines.first?.text.hasPrefix("ring: ticks:") == true)
    }

    @Test func showsTheMessageEscaped() throws {
        var message = ""
        do {
            _ = try RingSpec(query: "p=1&size=100000")
        } catch {
            message = error.description
        }
        #expect(message == "size: \"100000\" is out of range 16…1024")
        let svg = ErrorImage.render(message: message)
        let inspector = SVGInspector(svg)
        #expect(inspector.isWellFormed)
        #expect(Self.shownText(svg) == "ring: " + message)
        #expect(inspector.elements(named: "title").first?.text == "ring: " + message)
    }

    @Test func hostileAndLongMessagesStaySafe() {
        let hostile = "</text><script>x</script>\u{0}\u{202E}" + String(repeating: "&", count: 500)
        let svg = ErrorImage.render(message: hostile, box: ErrorScene.Box(size: 400))
        let inspector = SVGInspector(svg)
        #expect(inspector.isWellFormed)
        #expect(Set(inspector.elements.map(\.name)) == ["svg", "title", "rect", "text"])
        let text = Self.shownText(svg)
        // The message's limit, `ring: ` and `…`, and the space shownText puts between lines.
        let lines = inspector.elements(named: "text").count
        #expect(text.unicodeScalars.count <= ErrorImage.messageLimit + 12 + lines)
        #expect(text.hasSuffix("…"))
        #expect(!text.unicodeScalars.contains("\u{202E}"))
    }

    /// The box is the query's `size`, `scale` and `half` when each parses, else the defaults.
    @Test func theBoxComesFromTheQuery() {
        #expect(ErrorScene.Box(query: "p=64&half&target=abc") == ErrorScene.Box(half: true))
        #expect(ErrorScene.Box(query: "half=yes&size=200") == ErrorScene.Box(size: 200, half: true))
        #expect(ErrorScene.Box(query: "half=0&half=1") == ErrorScene.Box())
        #expect(ErrorScene.Box(query: "half=maybe") == ErrorScene.Box())
        #expect(ErrorScene.Box(query: "p=x&size=64&scale=2") == ErrorScene.Box(size: 64, scale: 2))
        #expect(ErrorScene.Box(query: "p=1&width=500") == ErrorScene.Box(size: 120, scale: 1))
        #expect(ErrorScene.Box(query: "size=100000&scale=9") == ErrorScene.Box(size: 120, scale: 1))
        #expect(ErrorScene.Box(query: "size=64&size=200") == ErrorScene.Box(size: 120, scale: 1))
        #expect(ErrorScene.Box(query: "size=%36%34") == ErrorScene.Box(size: 120, scale: 1))
    }

    /// A half gauge's error image takes the box its ring would have had: as tall as the
    /// ring, for every size.
    @Test(arguments: [16, 64, 120, 333, 1024]) func aHalfGaugesErrorTakesItsRingsBox(size: Int) throws {
        let ring = RingScene(spec: try RingSpec(query: "p=64&half&size=\(size)"))
        let scene = ErrorScene(
            message: "target: \"abc\" is not a decimal number", box: ErrorScene.Box(size: size, half: true))
        #expect(scene.width == ring.width && scene.height == ring.height)
        for line in scene.lines { #expect(line.baseline <= scene.height && line.baseline - 0.72 * scene.fontSize >= 0) }
    }

    /// Words break at spaces, then after `.` `/` `:` `,` `=` `&`, and the text shrinks to the
    /// legible minimum before a word is broken anywhere else.
    @Test func wordsBreakAtSpacesThenAtPunctuation() {
        for (message, size) in [
            ("captionColour: is not a parameter; did you mean captionColor?", 120),
            ("backgroundColour: is not a parameter; did you mean bg?", 120),
            ("src: example.com/coverage.json answered 404", 120), ("field: totals.lines.pct is not a number", 120),
        ] {
            let scene = ErrorScene(message: message, box: ErrorScene.Box(size: size))
            let words = Set(("ring: " + message).split(separator: " ").map(String.init))
            let pieces = scene.lines.flatMap { $0.text.split(separator: " ").map(String.init) }
            for piece in pieces where !words.contains(piece) {
                // A piece that is not a whole word ends at a break character, or is the rest
                // of a word that did.
                let word = words.first { $0.contains(piece) } ?? ""
                #expect(
                    piece.last.map(ErrorScene.breakAfter.contains) == true || word.hasSuffix(piece),
                    "\(message): broken inside a word at \(piece)")
            }
        }
        let url = ErrorScene(message: "src: example.com/coverage.json", box: ErrorScene.Box(size: 64))
        #expect(!url.lines.contains { $0.text.hasSuffix("exampl") || $0.text.hasSuffix("covera") })
    }

    /// The text grows with the box, to 1/12 of its side, and keeps 14 px in a small one.
    @Test func theTextGrowsWithTheBox() {
        #expect(ErrorScene(message: "p: is required", box: ErrorScene.Box(size: 1024)).fontSize == 85)
        #expect(ErrorScene(message: "p: is required", box: ErrorScene.Box(size: 480)).fontSize == 40)
        #expect(ErrorScene(message: "p: is required").fontSize == 14)
    }

    static let messages = [
        "size: \"100000\" is out of range 16…1024",
        "p: is required",
        "width: \"500\" is out of range > 0 and ≤ 40 (size/3)",
        String(repeating: "W", count: 120),
        (0..<30).map { "word\($0)" }.joined(separator: " "),
    ]

    /// Every line lies inside the box, at least 6 px tall, or the box shows the mark; and the
    /// whole message is shown wherever it fits at all.
    @Test(arguments: [16, 20, 28, 40, 64, 120, 200, 1024])
    func linesFitTheirBox(size: Int) {
        for message in Self.messages {
            let scene = ErrorScene(message: message, box: ErrorScene.Box(size: size))
            #expect(scene.width == Double(size) && scene.height == Double(size))
            #expect(scene.showsMark == scene.lines.isEmpty)
            for line in scene.lines {
                #expect(scene.fontSize >= RingGeometry.minimumFontSize)
                let half = TextWidth.em(line.text) * scene.fontSize / 2
                #expect(line.x - half >= 0 && line.x + half <= scene.width, "\(size): \(line.text)")
                #expect(line.baseline - 0.72 * scene.fontSize >= 0, "\(size)")
                #expect(line.baseline + 0.25 * scene.fontSize <= scene.height, "\(size)")
            }
            if size >= 120 {
                let shown = scene.lines.map(\.text).joined(separator: " ")
                #expect(shown.filter { $0 != " " } == ErrorImage.text(for: message).filter { $0 != " " }, "\(size)")
            }
        }
    }

    /// The documented 120 px e-mail snippet: a message of the usual length reads at a size
    /// near a ring's caption, not the 5 px a scaled-down strip gave.
    @Test func theUsualBoxHoldsTheMessageLegibly() {
        let scene = ErrorScene(message: "size: \"100000\" is out of range 16…1024")
        #expect(scene.fontSize >= 10)
        #expect(!scene.showsMark)
    }

    @Test func aTinyBoxShowsTheMark() {
        let scene = ErrorScene(message: "p: is required", box: ErrorScene.Box(size: 16))
        #expect(scene.showsMark && scene.lines.isEmpty)
        let svg = SVGInspector(ErrorImage.render(message: "p: is required", box: ErrorScene.Box(size: 16)))
        #expect(svg.isWellFormed && svg.elements(named: "circle").count == 2)
        #expect(svg.elements(named: "title").first?.text == "ring: p: is required")
    }
}
