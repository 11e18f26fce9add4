import RingCore

/// `ring examples`: the catalogue the docs and golden tests use, one "name<TAB>query" line
/// each, so scripts/generators/render-docs.sh and the tests draw from one list.
enum ExamplesCommand {
    static let usage = """
        USAGE: ring examples [--errors | --languages]

        Prints one example a line, its name and its query separated by a tab: the catalogue
        of docs/images, or with --errors the invalid queries whose error images the docs show,
        or with --languages the labels and captions in the seeds' five languages.
        """

    static func run(_ arguments: [String]) -> Int32 {
        let examples: [(name: String, query: String)]
        switch arguments {
        case ["--help"], ["-h"]:
            print(usage)
            return 0
        case []: examples = RingExamples.all
        case ["--errors"]: examples = RingExamples.errors
        case ["--languages"]: examples = RingExamples.languages
        default: Usage.fail("examples: unknown option '\(arguments.joined(separator: " "))'", help: "ring examples")
        }
        for example in examples { print("\(example.name)\t\(example.query)") }
        return 0
    }
}
