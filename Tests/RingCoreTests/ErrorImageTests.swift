import Testing

@testable import RingCore

@Suite struct ErrorImageTests {
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
        #expect(inspector.elements(named: "text").first?.text == "ring: " + message)
        #expect(inspector.elements(named: "title").first?.text == "ring: " + message)
    }

    @Test func hostileAndLongMessagesStaySafe() {
        let hostile = "</text><script>x</script>\u{0}\u{202E}" + String(repeating: "&", count: 500)
        let svg = ErrorImage.render(message: hostile)
        let inspector = SVGInspector(svg)
        #expect(inspector.isWellFormed)
        #expect(inspector.elements.map(\.name) == ["svg", "title", "rect", "text"])
        let text = inspector.elements(named: "text").first?.text ?? ""
        #expect(text.unicodeScalars.count <= ErrorImage.messageLimit + 7)
        #expect(text.hasSuffix("…"))
        #expect(!text.unicodeScalars.contains("\u{202E}"))
    }
}
