import Foundation
import Testing

@testable import RingService

/// The playground's markup lives in files (Sources/RingService/Playground/Markup); the page
/// served is built from what scripts/generators/make-playground.py embedded of them.
@Suite struct PlaygroundMarkupTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/RingService/Playground/Markup")

    /// A file's text without its final newline, as the generator embeds it.
    static func file(_ name: String) throws -> String {
        var text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    @Test func theEmbeddedTextIsTheFiles() throws {
        #expect(try PlaygroundMarkup.pageFile == Self.file("page.html"), "run scripts/generators/make-playground.py")
        #expect(
            try PlaygroundMarkup.styleFile == Self.file("playground.css"), "run scripts/generators/make-playground.py")
        #expect(
            try PlaygroundMarkup.scriptFile == Self.file("playground.js"), "run scripts/generators/make-playground.py")
    }

    /// Every place-holder is filled: the style, the reference table, the script and, in it,
    /// the parameter table's controls.
    @Test func thePageFillsEveryPlaceHolder() {
        let page = PlaygroundMarkup.html(style: PlaygroundMarkup.style, script: PlaygroundMarkup.script)
        #expect(!page.contains("{{"))
        #expect(page.contains("<style>\(PlaygroundMarkup.styleFile)</style>"))
        #expect(page.contains(PlaygroundMarkup.reference))
        #expect(page.contains(PlaygroundFields.javaScript))
        #expect(PlaygroundMarkup.script.hasPrefix("\"use strict\";\n\(PlaygroundFields.javaScript)\n"))
    }
}
