import RingCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring serve` and `ring render QUERY`. Exit status: 0 success, 1 a bad query or a failure
/// to serve, 2 a usage error.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "serve":
    status = ServeCommand.run(Array(arguments.dropFirst()))
case "render":
    status = RenderCommand.run(Array(arguments.dropFirst()))
case "examples":
    // The catalogue the docs and golden tests use: one "name<TAB>query" line each; with
    // --errors, the invalid queries whose error images the docs show; with --languages, the
    // seeds' five languages.
    let option = arguments.dropFirst().first
    let examples: [(name: String, query: String)]? =
        switch option {
        case nil: RingExamples.all
        case "--errors": RingExamples.errors
        case "--languages": RingExamples.languages
        default: nil
        }
    if let examples {
        for example in examples { print("\(example.name)\t\(example.query)") }
        status = 0
    } else {
        var stderr = StandardError()
        print("ring examples: unknown option '\(option ?? "")'; see `ring --help`", to: &stderr)
        status = 2
    }
case "parameters":
    status = ParametersCommand.run(Array(arguments.dropFirst()))
case "healthcheck":
    status = HealthcheckCommand.run(Array(arguments.dropFirst()))
case "--help", "-h", "help":
    print(Usage.main)
    status = 0
case "--version":
    print("ring \(Usage.version)")
    status = 0
case nil:
    Usage.fail("missing subcommand", usage: Usage.main)
case let other?:
    Usage.fail("unknown subcommand '\(other)'", usage: Usage.main)
}
exit(status)
