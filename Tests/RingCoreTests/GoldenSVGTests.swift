import Foundation
import Testing

@testable import RingCore

/// Every catalogue ring against its recorded SVG in `docs/images/`: the golden files are also
/// the pictures the docs show, so a doc image can never drift from what the code renders.
///
/// Re-record after an intended change with `RING_RECORD_SNAPSHOTS=1 swift test` (or
/// `scripts/generators/render-docs.sh`, which writes the same bytes through `ring render`), look at the
/// images, and bump `RingRenderer.version` when bytes change for an existing spec.
@Suite struct GoldenSVGTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/images")
    static let recording = ProcessInfo.processInfo.environment["RING_RECORD_SNAPSHOTS"] == "1"

    @Test(arguments: (RingExamples.all + RingExamples.languages).map(\.name))
    func matchesRecordedSVG(name: String) throws {
        let query = try #require((RingExamples.all + RingExamples.languages).first { $0.name == name }?.query)
        let svg = RingRenderer.render(try RingSpec(query: query))
        let file = Self.directory.appendingPathComponent("\(name).svg")
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(svg).write(to: file)
            return
        }
        guard let recorded = FileManager.default.contents(atPath: file.path) else {
            Issue.record("no reference \(file.lastPathComponent); record with RING_RECORD_SNAPSHOTS=1")
            return
        }
        if Array(recorded) != svg {
            Issue.record("\(name) differs from its snapshot:\n\(Self.diff(Array(recorded), svg))")
        }
    }

    /// The error images the docs show, laid out for the box each query asks for.
    @Test(arguments: RingExamples.errors.map(\.name))
    func errorImageMatchesRecordedSVG(name: String) throws {
        let query = try #require(RingExamples.errors.first { $0.name == name }?.query)
        var message = ""
        do {
            _ = try RingSpec(query: query)
            Issue.record("\(query) is a valid ring, not an error example")
        } catch {
            message = error.description
        }
        var box = ErrorScene.Box(query: query)
        box.scale = 1
        let svg = ErrorImage.render(message: message, box: box)
        let file = Self.directory.appendingPathComponent("\(name).svg")
        if Self.recording {
            try Data(svg).write(to: file)
            return
        }
        #expect(FileManager.default.contents(atPath: file.path).map(Array.init) == svg, "\(name)")
    }

    @Test func everySnapshotBelongsToTheCatalogue() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            $0.hasSuffix(".svg")
        }
        let names = Set((RingExamples.all + RingExamples.errors + RingExamples.languages).map { "\($0.name).svg" })
        #expect(Set(files) == names)
    }

    @Test func catalogueCoversEveryParameter() {
        let used = Set(
            RingExamples.all.flatMap { $0.query.split(separator: "&").map { String($0.split(separator: "=")[0]) } })
        // A live ring's parameters draw through a document's values (`LiveSourceTests`), time
        // progress's through the moment's (`TimeProgressTests`).
        for parameter in RingParameter.allCases where ![.src, .field, .maxField, .from, .to].contains(parameter) {
            #expect(used.contains(parameter.rawValue), "no example uses \(parameter.rawValue)")
        }
    }

    /// The first differing tag, with the recorded and the new version side by side.
    static func diff(_ old: [UInt8], _ new: [UInt8]) -> String {
        func tags(_ bytes: [UInt8]) -> [String] {
            String(decoding: bytes, as: UTF8.self).split(separator: "><").map(String.init)
        }
        let (a, b) = (tags(old), tags(new))
        for index in 0..<max(a.count, b.count) where index >= a.count || index >= b.count || a[index] != b[index] {
            let was = index < a.count ? a[index] : "(nothing)"
            let now = index < b.count ? b[index] : "(nothing)"
            return "  tag \(index + 1):\n  - \(was)\n  + \(now)"
        }
        return "  (same tags, different bytes)"
    }
}
