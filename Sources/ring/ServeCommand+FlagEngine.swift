import HTTPServer
import RingService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The flag engine of `ring serve`: what a flag is, how the command line and the environment
/// become ``ServeCommand/Settings``, and the help. The flags themselves are in
/// ServeCommand+Flags.swift.
extension ServeCommand {
    /// One flag: its name, its value's description, its help (with the default), and how it
    /// applies a value; `apply` returns false when the value is not acceptable.
    struct Flag: Sendable {
        typealias Apply =
            @Sendable (String, inout ServerConfiguration, inout ServiceConfiguration, inout AccessLogSettings) -> Bool
        var name: String
        var value: String
        var help: String
        var apply: Apply

        /// A switch: no value, on when given.
        var isSwitch: Bool { value.isEmpty }

        /// A switch of the service's configuration.
        static func `switch`(
            _ name: String, _ help: String, _ path: any WritableKeyPath<ServiceConfiguration, Bool> & Sendable
        ) -> Flag {
            Flag(name: name, value: "", help: "\(help) (off)") { _, _, service, _ in
                service[keyPath: path] = true
                return true
            }
        }

        /// A whole number of the server's configuration, within `range`.
        static func server(
            _ name: String, _ value: String, _ help: String,
            _ path: any WritableKeyPath<ServerConfiguration, Int> & Sendable,
            in range: ClosedRange<Int>
        ) -> Flag {
            Flag(name: name, value: value, help: "\(help) (\(defaults.server[keyPath: path]))") { text, server, _, _ in
                guard let number = integer(text, range) else { return false }
                server[keyPath: path] = number
                return true
            }
        }

        /// Seconds in the server's configuration; zero allowed only where `allowZero`.
        static func seconds(
            _ name: String, _ help: String, _ path: any WritableKeyPath<ServerConfiguration, Double> & Sendable,
            allowZero: Bool = false
        ) -> Flag {
            Flag(name: name, value: "SECONDS", help: "\(help) (\(defaults.server[keyPath: path]))") {
                text, server, _, _ in
                guard let seconds = Double(text), seconds.isFinite, seconds > 0 || (allowZero && seconds == 0),
                    seconds <= 86_400
                else { return false }
                server[keyPath: path] = seconds
                return true
            }
        }

        /// A decimal number of the service's configuration, within `range`.
        static func decimal(
            _ name: String, _ value: String, _ help: String,
            _ path: any WritableKeyPath<ServiceConfiguration, Double> & Sendable, in range: ClosedRange<Double>
        ) -> Flag {
            Flag(name: name, value: value, help: "\(help) (\(defaults.service[keyPath: path]))") {
                text, _, service, _ in
                guard let number = Double(text), number.isFinite, range.contains(number) else { return false }
                service[keyPath: path] = number
                return true
            }
        }

        /// `--font`, for the help: `settings` reads its paths itself, before any flag of this
        /// table, since they are not part of either configuration.
        static let fontPaths = Flag(
            name: "--font", value: "PATH",
            help:
                "a fallback font for PNG text (TrueType .ttf or .ttc), tried in order after DejaVu Sans Bold; "
                + "repeatable (the standard locations)"
        ) { _, _, _, _ in false }

        /// A whole number of the service's configuration, within `range`, stored times `scale`.
        static func service(
            _ name: String, _ value: String, _ help: String,
            _ path: any WritableKeyPath<ServiceConfiguration, Int> & Sendable,
            in range: ClosedRange<Int>, scale: Int = 1
        ) -> Flag {
            Flag(name: name, value: value, help: "\(help) (\(defaults.service[keyPath: path] / scale))") {
                text, _, service, _ in
                guard let number = integer(text, range) else { return false }
                service[keyPath: path] = number * scale
                return true
            }
        }
    }

    static func integer(_ text: String, _ range: ClosedRange<Int>) -> Int? {
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    static let defaults = (server: ServerConfiguration(), service: ServiceConfiguration())

    static let flags = groups.flatMap(\.flags)

    static var usage: String {
        var text =
            "USAGE: ring serve [OPTIONS]\n\nServes /ring.svg?QUERY, /ring.png?QUERY, /healthz, /metrics and the playground at /.\nEach option's default is in parentheses.\n"
        for (heading, flags) in groups {
            text += "\n\(heading):\n"
            for flag in flags {
                let left = flag.isSwitch ? "  \(flag.name)" : "  \(flag.name) \(flag.value)"
                text += left.padding(toLength: max(left.count + 2, 36), withPad: " ", startingAt: 0) + flag.help + "\n"
            }
        }
        text += "\n  --help                            show this help\n"
        return text
    }

    /// Where the access log goes, and how its lines are written.
    struct AccessLogSettings {
        var destination = "stdout"
        var format = AccessLog.Format.text
    }

    /// What the flags and the environment ask for.
    struct Settings {
        var server = ServerConfiguration()
        var service = ServiceConfiguration()
        var accessLog = AccessLogSettings()
        var fontPaths: [String] = []
        /// The flags given on the command line: start-up never changes them to fit a memory
        /// limit.
        var given: Set<String> = []
    }

    /// `HOST` and `PORT`, then `arguments`, as `ring serve` reads them (`ring healthcheck` reads
    /// them the same way, to find the server); nil for `--help`. A usage error exits 2,
    /// pointing to `help`'s help.
    static func settings(_ arguments: [String], help: String) -> Settings? {
        var settings = Settings()
        let environment = ProcessInfoLite.environment
        if let host = environment["HOST"], !host.isEmpty { settings.server.host = host }
        if let port = environment["PORT"] {
            guard let value = integer(port, 0...65535) else {
                Usage.fail("PORT: '\(port)' is not a port number", help: help)
            }
            settings.server.port = value
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--help" || argument == "-h" { return nil }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            if name == "--font" {
                if value == nil {
                    index += 1
                    guard index < arguments.count else { Usage.fail("--font needs a value (PATH)", help: help) }
                    value = arguments[index]
                }
                guard let path = value, !path.isEmpty else { Usage.fail("--font needs a value (PATH)", help: help) }
                settings.fontPaths.append(path)
                index += 1
                continue
            }
            guard let flag = flags.first(where: { $0.name == name }) else {
                Usage.fail("unknown option '\(argument)'", help: help)
            }
            if flag.isSwitch {
                guard value == nil else { Usage.fail("\(name) takes no value", help: help) }
                value = ""
            } else if value == nil {
                index += 1
                guard index < arguments.count else { Usage.fail("\(name) needs a value (\(flag.value))", help: help) }
                value = arguments[index]
            }
            guard flag.apply(value!, &settings.server, &settings.service, &settings.accessLog) else {
                Usage.fail("\(name): '\(value!)' is not a valid \(flag.value)", help: help)
            }
            settings.given.insert(name)
            index += 1
        }
        let sources = settings.service.sources
        if sources.isEnabled && sources.queueWait + sources.timeout >= settings.server.writeTimeout {
            Usage.fail(
                "--source-queue-wait (\(sources.queueWait)) and --source-timeout (\(sources.timeout)) must add up to "
                    + "less than --write-timeout (\(settings.server.writeTimeout)): a request waiting for a fetch "
                    + "is answered within them", help: help)
        }
        return settings
    }
}
