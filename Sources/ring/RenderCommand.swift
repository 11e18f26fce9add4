import HTTPServer
import Primitives
import RingCore
import RingRaster
import RingService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring render QUERY`: the exact bytes the server would serve for `/ring.svg?QUERY` or
/// `/ring.png?QUERY`.
enum RenderCommand {
    static let usage = """
        USAGE: ring render QUERY|URL [--format svg|png] [-o FILE] [--error-image] [--font PATH]...
                           [--values JSON-FILE]

        Writes the ring for QUERY (the part of the URL after `?`; a leading `?` is allowed)
        or for a whole ring URL (https://rings.example.com/ring.png?p=72, or /ring.png?p=72),
        byte-identical to what `ring serve` answers, on stdout or to FILE. FILE must end in
        .svg or .png. The format is the URL's, else FILE's, else --format's, else svg, and
        when more than one names it they must agree. PNG is never written to a terminal.

        On a bad query prints the error on stderr, writes nothing (with --error-image, the
        error image the server would answer), and exits 1. A usage error exits 2.

        --values reads the values from a JSON file, as a live ring reads its document: with
        `field=` (and `maxField=`) paths into it, or, without them, a shields endpoint
        document's message, colour and label. The query has no `src`: the file is its document.

        A PNG's text is drawn with DejaVu Sans Bold, then each --font in order (TrueType .ttf
        or .ttc), else the standard fallback fonts `ring serve` uses; a character no font has
        is drawn as a box, with a warning on stderr.

        EXAMPLES: ring render 'p=72&slice=0.45' > ring.svg
                  ring render 'p=72&scale=2' -o ring.png
                  ring render 'https://rings.example.com/ring.png?p=72' -o ring.png
                  ring render 'field=total.lines.pct&slice=0.45' --values coverage-summary.json

        PARAMETERS (default in parentheses):
        \(parameters)
        """

    /// One line a parameter, from the contract's table.
    private static var parameters: String {
        let definitions = RingParameter.Definition.all
        let width = definitions.map(\.name.count).max()! + 2
        return definitions.map { definition in
            let name = definition.name.padding(toLength: width, withPad: " ", startingAt: 0)
            return "  \(name)\(definition.summary): \(definition.values) (\(definition.defaultText))"
        }.joined(separator: "\n")
    }

    private typealias Format = RingImage.Format

    static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usage)
            return 0
        }
        var queries: [String] = []
        var format: Format?
        var output: String?
        var errorImage = false
        var fontPaths: [String] = []
        var valuesPath: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--font":
                index += 1
                guard index < arguments.count, !arguments[index].isEmpty else {
                    Usage.fail("--font needs a PATH", help: "ring render")
                }
                fontPaths.append(arguments[index])
            case "--format", "-o":
                index += 1
                guard index < arguments.count, !arguments[index].isEmpty else {
                    Usage.fail("\(argument) needs a value", help: "ring render")
                }
                if argument == "-o" {
                    output = arguments[index]
                } else {
                    guard let value = Format(rawValue: arguments[index]) else {
                        Usage.fail("--format takes svg or png, not '\(arguments[index])'", help: "ring render")
                    }
                    format = value
                }
            case "--error-image":
                errorImage = true
            case "--values":
                index += 1
                guard index < arguments.count, !arguments[index].isEmpty else {
                    Usage.fail("--values needs a JSON-FILE", help: "ring render")
                }
                valuesPath = arguments[index]
            default:
                queries.append(argument)
            }
            index += 1
        }
        guard queries.count == 1 else {
            Usage.fail(queries.isEmpty ? "render needs a QUERY" : "render takes exactly one QUERY", help: "ring render")
        }
        var requested: [(source: String, format: Format)] = format.map { [("--format \($0.rawValue)", $0)] } ?? []
        if let output {
            guard let implied = Format.implied(byFile: output) else {
                Usage.fail("-o \(output): only .svg and .png files are written", help: "ring render")
            }
            requested.append(("-o \(output)", implied))
        }
        let target = RenderTarget(queries[0])
        if let path = target.path {
            guard let implied = Format.implied(byPath: path) else {
                Usage.fail("\(queries[0]) is not a /ring.svg or /ring.png URL", help: "ring render")
            }
            requested.append(("the URL's \(path)", implied))
        }
        if let conflict = requested.first(where: { $0.format != requested[0].format }) {
            Usage.fail("\(requested[0].source) does not match \(conflict.source)", help: "ring render")
        }
        let chosen = requested.first?.format ?? .svg
        if chosen == .png, output == nil, isatty(STDOUT_FILENO) == 1 {
            Usage.fail("refusing to write PNG to a terminal: redirect stdout or use -o FILE", help: "ring render")
        }
        guard let (fonts, warnings) = FontLoading.load(paths: fontPaths, limits: FontLimits()) else { return 1 }
        FontLoading.warn(warnings)
        let query = target.query
        var stderr = StandardError()
        var bytes: [UInt8]
        var status: Int32 = 0
        do {
            var spec: RingSpec
            if let valuesPath {
                switch Self.ring(String(query), values: valuesPath) {
                case .success(let ring): spec = ring
                case .failure(let problem):
                    print("ring: \(problem.message)", to: &stderr)
                    guard errorImage else { return 1 }
                    bytes = errorBytes(problem.message, chosen, query: String(query), fonts: fonts)
                    return write(bytes, to: output, status: 1)
                }
            } else {
                spec = try RingSpec(query: String(query))
            }
            // Time progress: the ring of this moment, as the server would draw it now.
            if spec.isTimed { spec = spec.resolving(at: WallClock.system.now()).ring }
            do throws(RingImage.Refusal) {
                let image = try RingImage(spec: spec, format: chosen, fonts: fonts)
                let missing = image.missingCharacters
                if !missing.isEmpty {
                    let names = missing.map { character in
                        character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
                            .joined(separator: " ")
                    }
                    print(
                        "ring: warning: no font has \(names.joined(separator: ", ")); drawn as a box (add a font with --font)",
                        to: &stderr)
                }
                bytes = image.render()
            } catch {
                print("ring: \(error)", to: &stderr)
                guard errorImage else { return 1 }
                bytes = errorBytes(error.message, chosen, query: String(query), fonts: fonts)
                status = 1
            }
        } catch {
            // Every error of the query, as /ring.json gives them; the image names the first.
            let all = RingSpec.errors(inQuery: String(query))
            for each in all.isEmpty ? [error] : all { print("ring: \(each)", to: &stderr) }
            guard errorImage else { return 1 }
            bytes = errorBytes(error.description, chosen, query: String(query), fonts: fonts)
            status = 1
        }
        return write(bytes, to: output, status: status)
    }

    /// Writes `bytes` to `output` (stdout when nil) and returns `status`, or 1 when it cannot.
    private static func write(_ bytes: [UInt8], to output: String?, status: Int32) -> Int32 {
        var stderr = StandardError()
        guard let output else {
            return FileDescriptor.writeAll(bytes, to: STDOUT_FILENO) ? status : 1
        }
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            print("ring: cannot write \(output): \(String(cString: strerror(errno)))", to: &stderr)
            return 1
        }
        defer { close(fd) }
        guard FileDescriptor.writeAll(bytes, to: fd) else {
            print("ring: cannot write \(output): \(String(cString: strerror(errno)))", to: &stderr)
            return 1
        }
        return status
    }

    /// The largest `--values` file read: a live document's default bound, 64 KiB, sixteen times.
    static let valuesLimit = 1 << 20

    /// The ring `query` draws with the values of the JSON file at `path`, read as a live ring
    /// reads its document (the file stands for `src`), or what is wrong, as its error image says.
    static func ring(_ query: String, values path: String) -> Result<RingSpec, LiveError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(LiveError("--values: cannot read \(path): \(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count >= 0 else { return .failure(LiveError("--values: cannot read \(path)")) }
            if count == 0 { break }
            bytes += chunk[..<count]
            guard bytes.count <= valuesLimit else {
                return .failure(LiveError("--values: \(path) is larger than \(valuesLimit) bytes"))
            }
        }
        let document: JSONDocument
        do throws(JSONDocument.Refusal) {
            document = try JSONDocument(bytes)
        } catch {
            return .failure(LiveError("--values: \(path) is not JSON: \(error.reason)"))
        }
        // The file is the document of a source no one fetches.
        let spec: RingSpec
        do throws(RingSpecError) {
            spec = try RingSpec(query: "src=https://values.file/&" + query)
        } catch {
            switch error {
            case .conflict(parameter: "p", with: "src"):
                return .failure(LiveError("p: cannot be combined with --values, whose file gives the values"))
            case .duplicate(parameter: "src"):
                return .failure(LiveError("src: cannot be combined with --values, whose file is the document"))
            default: return .failure(LiveError(error.description))
            }
        }
        return RingService.read(spec, from: document)
    }

    /// The error image the server answers for `message` in `format`, laid out for the box
    /// `query` asks for.
    private static func errorBytes(_ message: String, _ format: Format, query: String, fonts: LabelFonts) -> [UInt8] {
        RingImage.error(message: message, query: query, format: format, fonts: fonts).render()
    }
}

/// What `ring render` was given: a query, or a whole URL whose path names the format.
struct RenderTarget: Equatable {
    /// The URL's path (`/ring.png`) when a URL was given.
    var path: Substring?
    /// The query, without its `?`.
    var query: Substring

    init(_ argument: String) {
        var rest = Substring(argument)
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            rest = rest[rest.index(after: rest.firstIndex(of: ":")!)...].dropFirst(2)
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)...]
            path = rest.prefix { $0 != "?" }
        } else if rest.first == "/" {
            path = rest.prefix { $0 != "?" }
        }
        if let path { rest = rest.dropFirst(path.count) }
        query = rest.first == "?" ? rest.dropFirst() : rest
        if let fragment = query.firstIndex(of: "#"), path != nil { query = query[..<fragment] }
    }
}

extension RingImage.Format {
    /// The format a file name ends in, ignoring case.
    static func implied(byFile path: String) -> Self? {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".png") ? .png : lowered.hasSuffix(".svg") ? .svg : nil
    }

    /// The format a ring URL's path names: the server's two routes (`/ring.svg`, `/ring.png`),
    /// below any prefix a proxy adds.
    static func implied(byPath path: Substring) -> Self? {
        path.hasSuffix("/ring.svg") ? .svg : path.hasSuffix("/ring.png") ? .png : nil
    }
}
