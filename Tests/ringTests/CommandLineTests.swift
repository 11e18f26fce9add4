import Foundation
import HTTPServer
import HTTPTestSupport
import RingCore
import RingRaster
import RingService
import Testing

@testable import ring

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `ring` executable, run as a user would run it.
@Suite struct CommandLineTests {
    struct Outcome {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    /// The `ring` built next to the test bundle (SwiftPM builds it first: the test target depends on it).
    static var executable: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("ring")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return testBinary.deletingLastPathComponent().appendingPathComponent("ring")
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: Array(stdout), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `--values FILE`: the file is the document of a live ring (field paths, or a shields
    /// endpoint), and the ring is the one written with p.
    @Test func renderReadsValuesFromAFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ring-values-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let summary = directory.appendingPathComponent("summary.json").path
        let endpoint = directory.appendingPathComponent("endpoint.json").path
        try Data(#"{"total": {"lines": {"pct": 72.4}}, "tests": {"passed": 120, "total": 125}}"#.utf8)
            .write(to: URL(fileURLWithPath: summary))
        try Data(#"{"schemaVersion": 1, "label": "coverage", "message": "81%", "color": "green"}"#.utf8)
            .write(to: URL(fileURLWithPath: endpoint))
        let coverage = try Self.run(["render", "field=total.lines.pct&slice=0.45", "--values", summary])
        #expect(coverage.status == 0)
        #expect(coverage.stdout == RingRenderer.render(try RingSpec(query: "p=72.4&slice=0.45")))
        let tests = try Self.run(["render", "field=tests.passed&maxField=tests.total", "--values", summary])
        #expect(tests.stdout == RingRenderer.render(try RingSpec(query: "p=120&max=125")))
        let shields = try Self.run(["render", "size=200", "--values", endpoint])
        #expect(
            shields.stdout == RingRenderer.render(try RingSpec(query: "p=81&size=200&color=97ca00&caption=coverage")))
        // What the file cannot give, and a value given twice, are errors that say so.
        let missing = try Self.run(["render", "field=nope", "--values", summary])
        #expect(missing.status == 1 && missing.stderr.contains("field: nope is not in the document"))
        let twice = try Self.run(["render", "p=5", "--values", summary])
        #expect(twice.status == 1 && twice.stderr.contains("p: cannot be combined with --values"))
        let absent = try Self.run(["render", "field=a", "--values", directory.appendingPathComponent("no.json").path])
        #expect(absent.status == 1 && absent.stderr.contains("--values: cannot read"))
    }

    /// Time progress draws the ring of the moment `ring render` runs: a span long over is full.
    @Test func renderDrawsTimeProgressAtItsMoment() throws {
        let over = try Self.run(["render", "from=2000-01-01&to=2001-01-01&label={left}"])
        #expect(over.status == 0)
        #expect(over.stdout == RingRenderer.render(try RingSpec(query: "p=100&label=0+seconds")))
        let ahead = try Self.run(["render", "from=2999-01-01&to=3000-01-01"])
        #expect(ahead.stdout == RingRenderer.render(try RingSpec(query: "p=0")))
    }

    @Test func examplesListEachCatalogue() throws {
        for (option, catalogue) in [
            (nil, RingExamples.all), ("--errors", RingExamples.errors), ("--languages", RingExamples.languages),
        ] {
            let outcome = try Self.run(["examples"] + (option.map { [$0] } ?? []))
            #expect(outcome.status == 0)
            let lines = String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines == catalogue.map { "\($0.name)\t\($0.query)" }, "\(option ?? "no option")")
        }
        let unknown = try Self.run(["examples", "--language"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'--language'"))
        #expect(unknown.stdout.isEmpty)
    }

    @Test func renderPrintsTheServedBytes() throws {
        let outcome = try Self.run(["render", "p=72&slice=0.45"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == RingRenderer.render(try RingSpec(query: "p=72&slice=0.45")))
        #expect(outcome.stderr.isEmpty)
        #expect(try Self.run(["render", "?p=72&slice=0.45"]).stdout == outcome.stdout)
    }

    @Test func renderWritesThePNGTheServerServes() throws {
        let spec = try RingSpec(query: "p=72&scale=2")
        let png = RingRasterizer.png(RingScene(spec: spec), scale: 2)
        let outcome = try Self.run(["render", "p=72&scale=2", "--format", "png"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == png)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ring-render-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pngPath = directory.appendingPathComponent("ring.PNG").path
        let svgPath = directory.appendingPathComponent("ring.svg").path
        #expect(try Self.run(["render", "p=72&scale=2", "-o", pngPath]).status == 0)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: pngPath))) == png)
        #expect(try Self.run(["render", "-o", svgPath, "p=72&scale=2"]).status == 0)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: svgPath))) == RingRenderer.render(spec))
        let mismatch = try Self.run(["render", "p=72", "--format", "svg", "-o", pngPath])
        #expect(mismatch.status == 2 && mismatch.stderr.contains("does not match"))
        #expect(try Self.run(["render", "p=72", "--format", "gif"]).status == 2)
        let tooLarge = try Self.run(["render", "p=72&size=1024&scale=4", "--format", "png"])
        #expect(tooLarge.status == 1 && tooLarge.stdout.isEmpty && tooLarge.stderr.contains("scale: a 4096x4096 px"))
    }

    /// PNG is binary: with stdout a terminal, `render --format png` refuses and writes nothing.
    /// util-linux's `script` (in every Debian and Ubuntu base image) gives it a terminal.
    @Test func renderRefusesToWritePNGToATerminal() throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "\(script) is needed for a terminal")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["-qec", "'\(Self.executable.path)' render p=72 --format png", "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let terminal = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(terminal.contains("refusing to write PNG to a terminal"))
        #expect(!terminal.contains("PNG\r\n"), "PNG bytes reached the terminal")
    }

    @Test func renderReportsABadQuery() throws {
        let outcome = try Self.run(["render", "p=1&size=100000"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == "ring: size: \"100000\" is out of range 16…1024\n")
    }

    /// With --error-image, a bad query writes the image the server would answer, laid out for
    /// the query's box, and still exits 1.
    @Test func renderWritesTheErrorImageWhenAsked() throws {
        let message = "width: \"500\" is out of range > 0 and ≤ 21.333 (size/3)"
        let svg = try Self.run(["render", "p=1&width=500&size=64&scale=2", "--error-image"])
        #expect(svg.status == 1)
        #expect(svg.stdout == ErrorImage.render(message: message, box: ErrorScene.Box(size: 64)))
        let png = try Self.run(["render", "p=1&width=500&size=64&scale=2", "--error-image", "--format", "png"])
        #expect(png.status == 1)
        #expect(png.stdout == ErrorImage.png(message: message, box: ErrorScene.Box(size: 64, scale: 2)))
    }

    @Test(arguments: [
        ["--help"], ["--version"], ["render", "--help"], ["serve", "--help"], ["healthcheck", "--help"],
        ["parameters", "--help"], ["examples", "--help"], ["-h"], ["render", "-h"],
    ])
    func helpAndVersionSucceed(arguments: [String]) throws {
        let outcome = try Self.run(arguments)
        #expect(outcome.status == 0)
        #expect(!outcome.stdout.isEmpty)
    }

    /// `ring render --help` is written from the parameter table: every parameter, its values
    /// and its default.
    @Test func renderHelpListsEveryParameter() throws {
        let help = String(decoding: try Self.run(["render", "--help"]).stdout, as: UTF8.self)
        for definition in RingParameter.Definition.all {
            let line = help.split(separator: "\n").first { $0.hasPrefix("  \(definition.name) ") }
            #expect(line?.contains(definition.values) == true, "\(definition.name) missing")
            #expect(line?.contains("(\(definition.defaultText))") == true, "\(definition.name) default missing")
        }
    }

    /// The tables of docs/parameters.md are what `ring parameters` prints from the table;
    /// `scripts/generators/render-docs.sh` rewrites them.
    @Test func docsParameterTablesMatchTheTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/parameters.md")
        let page = try String(contentsOf: docs, encoding: .utf8)
        let generated = String(decoding: try Self.run(["parameters"]).stdout, as: UTF8.self)
        var blocks: [String] = []
        var current: [Substring]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- parameters:") { current = [] }
            current?.append(line)
            if line == "<!-- /parameters -->", let block = current {
                blocks.append(block.joined(separator: "\n") + "\n")
                current = nil
            }
        }
        #expect(blocks.joined() == generated, "docs/parameters.md is stale: run scripts/generators/render-docs.sh")
        for definition in RingParameter.Definition.all {
            #expect(generated.contains("| `\(definition.name)` |"), "\(definition.name) missing from the docs")
        }
    }

    /// `ring serve --help` groups its flags under headings, and names exactly the flags
    /// docs/operations.md's table documents, each with its default.
    @Test func serveHelpGroupsEveryDocumentedFlag() throws {
        let help = String(decoding: try Self.run(["serve", "--help"]).stdout, as: UTF8.self)
        let headings = help.split(separator: "\n").filter { $0.first?.isUppercase == true && $0.hasSuffix(":") }
        #expect(
            headings == [
                "LISTENING:", "LIMITS:", "CACHE:", "RENDERING:", "PNG AND FONTS:", "LIVE VALUES:", "LOGGING:",
                "MEMORY:",
                "SHUTDOWN:",
            ])
        let flagName = #/^  (--[a-z0-9-]+)/#
        let inHelp = help.split(separator: "\n").compactMap { $0.firstMatch(of: flagName).map { String($0.1) } }
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/operations.md")
        let table = #/^\| `(--[a-z0-9-]+)[ `]/#
        let documented = try String(contentsOf: docs, encoding: .utf8).split(separator: "\n").compactMap {
            $0.firstMatch(of: table).map { String($0.1) }
        }
        #expect(Set(inHelp) == Set(documented + ["--help"]), "help and docs/operations.md differ")
        #expect(inHelp.count == Set(inHelp).count)
        #expect(help.contains("(env PORT; 8080)") && help.contains("(10000)"))
    }

    /// `--font`: a named font that does not read stops the command, saying why; a character no
    /// font has is named on stderr, for a PNG only (an SVG is drawn with the reader's fonts).
    @Test func namedFontsMustReadAndMissingCharactersAreReported() throws {
        let absent = try Self.run(["render", "p=72", "--format", "png", "--font", "/nonexistent/x.ttf"])
        #expect(absent.status == 1 && absent.stdout.isEmpty)
        #expect(absent.stderr == "ring: font /nonexistent/x.ttf cannot be opened: No such file or directory\n")
        let notAFont = try Self.run(["serve", "--port", "0", "--font", Self.executable.path])
        #expect(notAFont.status == 1)
        #expect(notAFont.stderr == "ring: font \(Self.executable.path) is not a TrueType font or collection\n")
        // A FIFO would block the open until a writer came: refused at once, named.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("ring-font-\(UUID()).ttf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let pipe = try Self.run(["serve", "--port", "0", "--font", fifo])
        #expect(pipe.status == 1 && pipe.stderr == "ring: font \(fifo) is not a regular file\n", "\(pipe.stderr)")
        let emoji = try Self.run(["render", "p=72&label=%F0%9F%91%A9+ok", "--format", "png"])
        #expect(emoji.status == 0 && !emoji.stdout.isEmpty)
        #expect(emoji.stderr.contains("ring: warning: no font has U+1F469; drawn as a box"))
        #expect(try Self.run(["render", "p=72&label=%F0%9F%91%A9+ok"]).stderr.isEmpty)
        #expect(try Self.run(["render", "p=72&label=Ti%E1%BA%BFn", "--format", "png"]).stderr.isEmpty)
    }

    @Test(arguments: [
        [], ["bogus"], ["render"], ["render", "a", "b"], ["render", "p=1", "--font"], ["serve", "--font"],
        ["serve", "--bogus"], ["serve", "--port", "x"],
        ["serve", "--port"], ["serve", "--cache-mb=0"], ["serve", "--header-timeout", "-1"],
        ["healthcheck", "--port", "0"], ["healthcheck", "--bogus"], ["parameters", "x"], ["examples", "x"],
        ["render", "p=1", "-o", "ring.jpg"], ["render", "https://rings.example.com/ring.gif?p=1"],
        ["render", "/ring.png?p=1", "--format", "svg"], ["render", "/ring.svg?p=1", "-o", "ring.png"],
        ["serve", "--source-allow", "exa_mple.com"], ["serve", "--source-allow", "a.com,"],
        ["serve", "--source-allow-http=1"], ["serve", "--source-ttl", "10"], ["serve", "--source-timeout", "0"],
        ["serve", "--source-rate", "0"], ["serve", "--cache-admission", "third"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let outcome = try Self.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        // One line that says what is wrong, and one that says where the help is.
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(outcome.stderr)")
        #expect(lines[0].hasPrefix("ring: "))
        let command = arguments.first.map { ["render", "serve", "healthcheck", "parameters", "examples"].contains($0) }
        let help = command == true ? "see `ring \(arguments[0]) --help`" : "see `ring --help`"
        #expect(lines.count > 1 && lines[1] == help, "\(outcome.stderr)")
    }

    /// `ring render` takes a whole ring URL, as copied from a README, and the format from its
    /// path; `-o` names only files it writes, and nothing is created when it refuses.
    @Test func renderTakesARingURL() throws {
        let spec = try RingSpec(query: "p=72&slice=0.45")
        let svg = RingRenderer.render(spec)
        for url in [
            "https://rings.example.com/ring.svg?p=72&slice=0.45", "http://localhost:8080/ring.svg?p=72&slice=0.45#top",
            "/ring.svg?p=72&slice=0.45", "https://rings.example.com/rings/ring.svg?p=72&slice=0.45",
        ] {
            let outcome = try Self.run(["render", url])
            #expect(outcome.status == 0 && outcome.stdout == svg, "\(url): \(outcome.stderr)")
        }
        let png = try Self.run(["render", "https://rings.example.com/ring.png?p=72&slice=0.45"])
        #expect(png.status == 0)
        #expect(png.stdout == RingRasterizer.png(RingScene(spec: spec), scale: 1))
        #expect(try Self.run(["render", "/ring.png?p=72&slice=0.45", "--format", "png"]).stdout == png.stdout)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ring-url-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpeg = directory.appendingPathComponent("ring.jpg").path
        let refused = try Self.run(["render", "p=72", "-o", jpeg])
        #expect(refused.status == 2 && refused.stderr.contains("only .svg and .png files are written"))
        #expect(!FileManager.default.fileExists(atPath: jpeg))
        let conflict = try Self.run(["render", "/ring.png?p=72", "-o", directory.appendingPathComponent("a.svg").path])
        #expect(conflict.status == 2 && conflict.stderr.contains("does not match"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func renderTargetSplitsURLsAndQueries() {
        #expect(RenderTarget("p=72").path == nil && RenderTarget("p=72").query == "p=72")
        #expect(RenderTarget("?p=72&x=#").path == nil && RenderTarget("?p=72&x=#").query == "p=72&x=#")
        let url = RenderTarget("HTTPS://h.example:8443/a/ring.png?p=1#frag")
        #expect(url.path == "/a/ring.png" && url.query == "p=1")
        #expect(
            RenderTarget("https://h.example?p=1").path == "" && RenderTarget("https://h.example?p=1").query == "p=1")
        #expect(RenderTarget("/ring.svg").path == "/ring.svg" && RenderTarget("/ring.svg").query == "")
    }
}
