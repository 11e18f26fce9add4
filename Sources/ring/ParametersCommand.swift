import RingCore

/// `ring parameters`: the parameter reference as Markdown tables, one per docs section, each
/// between `<!-- parameters:GROUP -->` and `<!-- /parameters -->`. `scripts/generators/render-docs.sh`
/// writes them into docs/parameters.md, and a test fails when the docs differ, so the page
/// always says what the contract's table says.
enum ParametersCommand {
    static let usage = """
        USAGE: ring parameters

        Prints the parameter reference as Markdown tables, one per section of docs/parameters.md,
        and the aliases suggested for names that are not parameters, from the table the parser
        validates with (scripts/generators/render-docs.sh writes them into the docs).
        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usage)
            return 0
        }
        guard arguments.isEmpty else { Usage.fail("parameters takes no arguments", help: "ring parameters") }
        print(markdown, terminator: "")
        return 0
    }

    static var markdown: String {
        var text = ""
        for group in RingParameter.Group.allCases {
            text += "<!-- parameters:\(group.rawValue) -->\n| name | meaning | values | default |\n|---|---|---|---|\n"
            for definition in RingParameter.Definition.all where definition.group == group {
                let cells = [
                    "`\(definition.name)`", definition.summary, definition.values, definition.defaultText,
                ].map { $0.replacing("|", with: "\\|") }
                text += "| " + cells.joined(separator: " | ") + " |\n"
            }
            text += "<!-- /parameters -->\n"
        }
        text += "<!-- parameters:aliases -->\n| written | answered with |\n|---|---|\n"
        for definition in RingParameter.Definition.all where !definition.aliases.isEmpty {
            let names = definition.aliases.map { "`\($0)`" }.joined(separator: ", ")
            text += "| \(names) | did you mean `\(definition.name)`? |\n"
        }
        text += "<!-- /parameters -->\n"
        return text
    }
}
