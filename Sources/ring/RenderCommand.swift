import HTTPServer
import RingCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring render QUERY`: the exact bytes the server would serve for `/ring.svg?QUERY`.
enum RenderCommand {
    static let usage = """
        USAGE: ring render QUERY

        Prints the SVG for QUERY (the part of the URL after `?`, a leading `?` is allowed) on
        stdout, byte-identical to what `ring serve` answers. On a bad query prints the error on
        stderr, nothing on stdout, and exits 1.

        EXAMPLE: ring render 'p=72&slice=0.45' > ring.svg

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

    static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usage)
            return 0
        }
        guard arguments.count == 1 else {
            Usage.fail(arguments.isEmpty ? "render needs a QUERY" : "render takes exactly one QUERY", usage: usage)
        }
        var query = Substring(arguments[0])
        if query.first == "?" { query = query.dropFirst() }
        do {
            let spec = try RingSpec(query: String(query))
            let svg = RingRenderer.render(spec)
            FileDescriptor.writeAll(svg, to: STDOUT_FILENO)
            return 0
        } catch {
            var stderr = StandardError()
            print("ring: \(error)", to: &stderr)
            return 1
        }
    }
}
