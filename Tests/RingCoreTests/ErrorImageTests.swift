import RingTestSupport
import Testing

@testable import RingCore

@Suite struct ErrorImageTests {
    /// The text of an error SVG, its lines joined by spaces.
    static func shownText(_ svg: [UInt8]) -> String {
        SVGInspector(svg).elements(named: "text").map(\.text).joined(separator: " ")
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
        #expect(text.unicodeScalars.count <= ErrorImage.messageLimit + 12)
        #expect(text.hasSuffix("…"))
        #expect(!text.unicodeScalars.contains("\u{202E}"))
    }

    /// The box is the query's `size` and `scale` when each parses, else the defaults.
    @Test func theBoxComesFromTheQuery() {
        #expect(ErrorScene.Box(query: "p=x&size=64&scale=2") == ErrorScene.Box(size: 64, scale: 2))
        #expect(ErrorScene.Box(query: "p=1&width=500") == ErrorScene.Box(size: 120, scale: 1))
        #expect(ErrorScene.Box(query: "size=100000&scale=9") == ErrorScene.Box(size: 120, scale: 1))
        #expect(ErrorScene.Box(query: "size=64&size=200") == ErrorScene.Box(size: 120, scale: 1))
        #expect(ErrorScene.Box(query: "size=%36%34") == ErrorScene.Box(size: 120, scale: 1))
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
