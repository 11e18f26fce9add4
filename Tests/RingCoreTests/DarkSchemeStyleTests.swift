import RingTestSupport
import Testing

@testable import RingCore

/// The `<style>` of every ring is CSS a browser accepts, and under `theme=auto` every default
/// colour that switches with the reader's scheme has its dark rule: the track, the label and
/// the caption, whichever are drawn.
@Suite struct DarkSchemeStyleTests {
    /// The stylesheet of an SVG, or nil when it has none.
    static func styleSheet(_ svg: [UInt8]) throws -> StyleSheet? {
        let text = String(decoding: svg, as: UTF8.self)
        guard let open = text.range(of: "<style>"), let close = text.range(of: "</style>") else { return nil }
        return try StyleSheet(parsing: String(text[open.upperBound..<close.lowerBound]))
    }

    /// Every class a rule selects is on some element of the document, and every class on an
    /// element has a rule: a rule that selects nothing, or a class with no rule, is a typo.
    static func checkStyle(_ query: String) throws {
        let svg = RingRenderer.render(try RingSpec(query: query))
        let inspector = SVGInspector(svg)
        #expect(inspector.isWellFormed, "\(query)")
        let used = Set(inspector.elements.compactMap { $0.attributes["class"] })
        guard let sheet = try styleSheet(svg) else {
            #expect(used.isEmpty, "\(query): classes \(used) but no stylesheet")
            return
        }
        let selected = Set(sheet.rules.map(\.className))
        #expect(selected == used, "\(query): rules select \(selected), elements use \(used)")
    }

    @Test(arguments: RingExamples.all.map(\.query))
    func everyCatalogueStyleSheetParses(query: String) throws {
        try Self.checkStyle(query)
    }

    @Test func randomSpecsWithTextHaveStyleSheetsThatParse() throws {
        var generator = SeededGenerator(seed: 0x5EED_C55)
        let texts = [
            "", "&caption=coverage", "&label=none&caption=of+budget", "&labelColor=cf222e&caption=ok",
            "&captionColor=0969da&caption=ok", "&label=%7Bp%7D+done", "&labelColor=bar&caption=x",
        ]
        for _ in 0..<400 {
            let query = RandomQuery.make(&generator) + texts.randomElement(using: &generator)!
            try Self.checkStyle(query)
        }
    }

    /// The dark colour each switching element gets: class suffix to colour.
    static func darkColours(_ query: String) throws -> [String: String] {
        let svg = RingRenderer.render(try RingSpec(query: query))
        let sheet = try #require(try styleSheet(svg), "\(query) has no stylesheet")
        var colours: [String: String] = [:]
        for rule in sheet.rules where rule.media == "(prefers-color-scheme:dark)" {
            let suffix = String(rule.className.split(separator: "-").last!)
            colours[suffix] = rule.declarations["fill"] ?? rule.declarations["stroke"]
        }
        return colours
    }

    @Test func aCaptionUnderAutoSwitchesWithTheLabelAndTheTrack() throws {
        #expect(try Self.darkColours("p=72&caption=coverage") == ["t": "#30363d", "l": "#e6edf3", "c": "#8b949e"])
        #expect(
            try Self.darkColours("p=72&half&caption=of+budget") == ["t": "#30363d", "l": "#e6edf3", "c": "#8b949e"])
    }

    /// The caption's dark rule never depended on the label's: without a label, or with a
    /// label of a fixed colour, the caption still switches.
    @Test func theCaptionSwitchesWithoutASwitchingLabel() throws {
        #expect(try Self.darkColours("p=72&label=none&caption=coverage") == ["t": "#30363d", "c": "#8b949e"])
        #expect(try Self.darkColours("p=72&labelColor=cf222e&caption=coverage") == ["t": "#30363d", "c": "#8b949e"])
    }
}
