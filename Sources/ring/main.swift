import RingCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring serve`, `ring render`, `ring examples`, `ring parameters` and `ring healthcheck`. Exit status: 0 success, 1 a bad query or a failure
/// to serve, 2 a usage error.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "serve":
    status = ServeCommand.run(Array(arguments.dropFirst()))
case "render":
    status = RenderCommand.run(Array(arguments.dropFirst()))
case "examples":
    status = ExamplesCommand.run(Array(arguments.dropFirst()))
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
    Usage.fail("missing subcommand", help: "ring")
case let other?:
    Usage.fail("unknown subcommand '\(other)'", help: "ring")
}
exit(status)
