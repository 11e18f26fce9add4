import HTTPServer
import RingService

#if canImport(Glibc)
    import Glibc
#endif

/// `ring serve`: parses flags (and `HOST`/`PORT` from the environment), starts the server,
/// drains on SIGTERM/SIGINT and exits 0.
enum ServeCommand {
    /// One flag: its name, its value's description, its default's text, and how it applies.
    private struct Flag: Sendable {
        var name: String
        var value: String
        var help: String
        var apply: @Sendable (String, inout ServerConfiguration, inout ServiceConfiguration, inout String) -> Bool
    }

    private static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return value
    }

    private static func integer(_ text: String, _ range: ClosedRange<Int>) -> Int? {
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    private static let defaults = (server: ServerConfiguration(), service: ServiceConfiguration())

    private static let flags: [Flag] = [
        Flag(
            name: "--host", value: "ADDRESS",
            help: "address to listen on; :: for IPv4 and IPv6 (env HOST; \(defaults.server.host))"
        ) {
            text, server, _, _ in
            server.host = text
            return !text.isEmpty
        },
        Flag(name: "--port", value: "N", help: "TCP port, 0 for any (env PORT; \(defaults.server.port))") {
            text, server, _, _ in
            guard let port = integer(text, 0...65535) else { return false }
            server.port = port
            return true
        },
        Flag(name: "--cache-mb", value: "N", help: "response cache size in MiB (\(defaults.service.cacheBytes >> 20))")
        {
            text, _, service, _ in
            guard let megabytes = integer(text, 1...65536) else { return false }
            service.cacheBytes = megabytes << 20
            return true
        },
        Flag(name: "--max-age", value: "SECONDS", help: "Cache-Control max-age of rings (\(defaults.service.maxAge))") {
            text, _, service, _ in
            guard let seconds = integer(text, 0...31_536_000) else { return false }
            service.maxAge = seconds
            return true
        },
        Flag(
            name: "--error-max-age", value: "SECONDS", help: "max-age of error images (\(defaults.service.errorMaxAge))"
        ) {
            text, _, service, _ in
            guard let seconds = integer(text, 0...60) else { return false }
            service.errorMaxAge = seconds
            return true
        },
        Flag(name: "--access-log", value: "off|stdout|PATH", help: "where the access log goes (stdout)") {
            text, _, _, log in
            log = text
            return !text.isEmpty
        },
        Flag(
            name: "--threads", value: "N", help: "event loops, one thread each (\(defaults.server.eventLoops) = cores)"
        ) {
            text, server, _, _ in
            guard let count = integer(text, 1...256) else { return false }
            server.eventLoops = count
            return true
        },
        Flag(
            name: "--max-connections", value: "N", help: "connections held at once (\(defaults.server.maxConnections))"
        ) {
            text, server, _, _ in
            guard let count = integer(text, 1...1_000_000) else { return false }
            server.maxConnections = count
            return true
        },
        Flag(
            name: "--header-timeout", value: "SECONDS",
            help: "deadline for a request head (\(defaults.server.headerTimeout))"
        ) {
            text, server, _, _ in
            guard let seconds = number(text), seconds > 0 else { return false }
            server.headerTimeout = seconds
            return true
        },
        Flag(name: "--idle-timeout", value: "SECONDS", help: "keep-alive idle timeout (\(defaults.server.idleTimeout))")
        {
            text, server, _, _ in
            guard let seconds = number(text), seconds > 0 else { return false }
            server.idleTimeout = seconds
            return true
        },
        Flag(
            name: "--write-timeout", value: "SECONDS",
            help: "deadline for a client to read a response (\(defaults.server.writeTimeout))"
        ) {
            text, server, _, _ in
            guard let seconds = number(text), seconds > 0 else { return false }
            server.writeTimeout = seconds
            return true
        },
        Flag(
            name: "--drain-timeout", value: "SECONDS",
            help: "on SIGTERM, time to finish in-flight responses (\(defaults.server.drainTimeout))"
        ) {
            text, server, _, _ in
            guard let seconds = number(text) else { return false }
            server.drainTimeout = seconds
            return true
        },
        Flag(
            name: "--max-request-line", value: "BYTES",
            help: "longest request line, else 414 (\(defaults.server.maxRequestLineBytes))"
        ) {
            text, server, _, _ in
            guard let bytes = integer(text, 64...1_048_576) else { return false }
            server.maxRequestLineBytes = bytes
            return true
        },
        Flag(
            name: "--max-header-bytes", value: "BYTES",
            help: "largest header block, else 431 (\(defaults.server.maxHeaderBytes))"
        ) {
            text, server, _, _ in
            guard let bytes = integer(text, 256...1_048_576) else { return false }
            server.maxHeaderBytes = bytes
            return true
        },
        Flag(
            name: "--max-headers", value: "N", help: "most header fields, else 431 (\(defaults.server.maxHeaderCount))"
        ) {
            text, server, _, _ in
            guard let count = integer(text, 1...10_000) else { return false }
            server.maxHeaderCount = count
            return true
        },
        Flag(
            name: "--max-body", value: "BYTES",
            help: "largest request body read and discarded, else 413 (\(defaults.server.maxBodyBytes))"
        ) {
            text, server, _, _ in
            guard let bytes = integer(text, 0...16_777_216) else { return false }
            server.maxBodyBytes = bytes
            return true
        },
        Flag(
            name: "--max-query", value: "BYTES",
            help: "longest query rendered, else an error image (\(defaults.service.maxQueryBytes))"
        ) {
            text, _, service, _ in
            guard let bytes = integer(text, 1...1_048_576) else { return false }
            service.maxQueryBytes = bytes
            return true
        },
    ]

    static var usage: String {
        var text =
            "USAGE: ring serve [OPTIONS]\n\nServes /ring.svg?QUERY, /healthz, /metrics and the playground at /.\n\nOPTIONS (default in parentheses):\n"
        for flag in flags {
            let left = "  \(flag.name) \(flag.value)"
            text += left.padding(toLength: max(left.count + 2, 36), withPad: " ", startingAt: 0) + flag.help + "\n"
        }
        text += "  --help                            show this help\n"
        return text
    }

    static func run(_ arguments: [String]) -> Int32 {
        var server = ServerConfiguration()
        var service = ServiceConfiguration()
        var accessLog = "stdout"
        let environment = ProcessInfoLite.environment
        if let host = environment["HOST"], !host.isEmpty { server.host = host }
        if let port = environment["PORT"] {
            guard let value = integer(port, 0...65535) else {
                Usage.fail("PORT: '\(port)' is not a port number", usage: usage)
            }
            server.port = value
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--help" || argument == "-h" {
                print(usage)
                return 0
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let flag = flags.first(where: { $0.name == name }) else {
                Usage.fail("unknown option '\(argument)'", usage: usage)
            }
            if value == nil {
                index += 1
                guard index < arguments.count else { Usage.fail("\(name) needs a value (\(flag.value))", usage: usage) }
                value = arguments[index]
            }
            guard flag.apply(value!, &server, &service, &accessLog) else {
                Usage.fail("\(name): '\(value!)' is not a valid \(flag.value)", usage: usage)
            }
            index += 1
        }
        return serve(server: server, service: service, accessLog: accessLog)
    }

    private static func serve(
        server configuration: ServerConfiguration, service: ServiceConfiguration, accessLog: String
    ) -> Int32 {
        var stderr = StandardError()
        let log: AccessLog
        do {
            log = try AccessLog(AccessLog.Destination(accessLog))
        } catch {
            print("ring: \(error)", to: &stderr)
            return 1
        }
        let statistics = ServerStatistics()
        var service = service
        service.cachePartitions = configuration.eventLoops  // one per loop: no lock contention
        let responder = RingService(configuration: service, accessLog: log, serverStatistics: statistics)
        let server = Server(configuration: configuration, responder: responder, statistics: statistics)
        do {
            let port = try server.start()
            server.shutdownOnSignals()
            print(
                "ring: serving on http://\(configuration.host):\(port) (\(configuration.eventLoops) event loops)",
                to: &stderr)
        } catch {
            print("ring: cannot serve: \(error)", to: &stderr)
            return 1
        }
        server.wait()
        log.flush()
        print("ring: stopped", to: &stderr)
        return 0
    }
}

/// The process environment without Foundation.
enum ProcessInfoLite {
    static var environment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
