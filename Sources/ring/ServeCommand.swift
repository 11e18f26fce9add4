import HTTPServer
import RingService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring serve`: parses flags (and `HOST`/`PORT` from the environment), starts the server,
/// drains on SIGTERM/SIGINT and exits 0.
enum ServeCommand {
    /// One flag: its name, its value's description, its help (with the default), and how it
    /// applies a value; `apply` returns false when the value is not acceptable.
    private struct Flag: Sendable {
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

    private static func integer(_ text: String, _ range: ClosedRange<Int>) -> Int? {
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    private static let defaults = (server: ServerConfiguration(), service: ServiceConfiguration())

    /// Every flag, under the headings `--help` prints, each group in the order people need it.
    private static let groups: [(heading: String, flags: [Flag])] = [
        (
            "LISTENING",
            [
                Flag(
                    name: "--host", value: "ADDRESS",
                    help: "address to listen on; :: for IPv4 and IPv6 (env HOST; 0.0.0.0)"
                ) {
                    text, server, _, _ in
                    server.host = text
                    return !text.isEmpty
                },
                Flag(name: "--port", value: "N", help: "TCP port, 0 for any (env PORT; 8080)") { text, server, _, _ in
                    guard let port = integer(text, 0...65535) else { return false }
                    server.port = port
                    return true
                },
                .server(
                    "--threads", "N", "event loops, one thread each; 0: the CPUs this process may use", \.eventLoops,
                    in: 0...256),
                Flag(
                    name: "--io", value: IOBackend.allCases.map(\.rawValue).joined(separator: "|"),
                    help: "how the loops wait for sockets (\(IOBackend.platformDefault.rawValue))"
                ) { text, server, _, _ in
                    guard let backend = IOBackend(rawValue: text) else { return false }
                    server.io = backend
                    return true
                },
                .server(
                    "--requests-per-turn", "N", "pipelined requests a connection answers before others get a turn",
                    \.maxRequestsPerTurn, in: 1...1024),
                .server(
                    "--write-delay-us", "MICROSECONDS", "how long an answer may wait for its batch's others, 0 never",
                    \.writeDelayMicroseconds, in: 0...100_000),
                .server(
                    "--yield-after", "EVENTS", "yield the core after a batch this large, 0 never", \.yieldAfterEvents,
                    in: 0...65536),
                .server(
                    "--read-buffer", "BYTES", "bytes read from a socket at a time", \.readBufferBytes,
                    in: 1024...16_777_216),
                .seconds("--accept-backoff", "pause in accepting when out of descriptors", \.acceptBackoff),
            ]
        ),
        (
            "LIMITS",
            [
                .server("--max-connections", "N", "connections held at once", \.maxConnections, in: 1...1_000_000),
                Flag(
                    name: "--max-connections-per-client", value: "N",
                    help: "connections one client address may hold at once, 0 no limit (a quarter of --max-connections)"
                ) { text, server, _, _ in
                    guard let limit = Int(text), (0...1_000_000).contains(limit) else { return false }
                    server.maxConnectionsPerClient = limit
                    return true
                },
                Flag(
                    name: "--trusted-proxy", value: "CIDR",
                    help:
                        "a proxy in front (10.0.0.0/8, 2001:db8::1): the log's client is read from Forwarded or "
                        + "X-Forwarded-For, and its connections are not limited per client; repeatable"
                ) { text, server, service, _ in
                    guard let range = ClientAddressRange(text) else { return false }
                    service.trustedProxies.append(range)
                    server.unlimitedClients.append(range)
                    return true
                },
                .seconds("--header-timeout", "deadline for a whole request head", \.headerTimeout),
                .seconds("--idle-timeout", "keep-alive idle timeout", \.idleTimeout),
                .seconds("--write-timeout", "deadline for a client to read a response", \.writeTimeout),
                .seconds("--deadline-check", "how often the deadlines above are checked", \.deadlineCheckInterval),
                .server(
                    "--max-request-line", "BYTES", "longest request line, else 414", \.maxRequestLineBytes,
                    in: 64...1_048_576),
                .server(
                    "--max-header-bytes", "BYTES", "largest header block, else 431", \.maxHeaderBytes,
                    in: 256...1_048_576),
                .server("--max-headers", "N", "most header fields, else 431", \.maxHeaderCount, in: 1...10_000),
                .server(
                    "--max-body", "BYTES", "largest request body read and discarded, else 413", \.maxBodyBytes,
                    in: 0...16_777_216),
                .service(
                    "--max-query", "BYTES", "longest query rendered, else an error image", \.maxQueryBytes,
                    in: 1...1_048_576),
            ]
        ),
        (
            "CACHE",
            [
                .service("--cache-mb", "N", "response cache size in MiB", \.cacheBytes, in: 1...65536, scale: 1 << 20),
                .service("--max-age", "SECONDS", "Cache-Control max-age of rings", \.maxAge, in: 0...31_536_000),
                .service(
                    "--stale-while-revalidate", "SECONDS", "how long caches may serve a ring while refetching it",
                    \.staleWhileRevalidate, in: 0...31_536_000),
                .service(
                    "--stale-if-error", "SECONDS", "how long caches may serve a ring while this service fails",
                    \.staleIfError, in: 0...31_536_000),
                .service(
                    "--error-max-age", "SECONDS", "max-age of error images, 404 and 405, at most 60", \.errorMaxAge,
                    in: 0...60),
                Flag(
                    name: "--cache-admission",
                    value: ResponseCache.Admission.allCases.map(\.rawValue).joined(separator: "|"),
                    help: "store a new SVG when first or second asked for (\(defaults.service.cacheAdmission.rawValue))"
                ) { text, _, service, _ in
                    guard let admission = ResponseCache.Admission(rawValue: text) else { return false }
                    service.cacheAdmission = admission
                    return true
                },
                .service("--cache-shards", "N", "locks the response cache is split into", \.cacheShards, in: 1...1024),
            ]
        ),
        (
            "RENDERING",
            [
                .service(
                    "--render-threads", "N", "render threads; 0: the CPUs this process may use", \.renderThreads,
                    in: 0...256),
                .service(
                    "--render-queue", "N", "renders that may wait for a thread, else 503", \.renderQueue, in: 1...65536),
                .service(
                    "--max-render-ms", "MILLISECONDS", "rings estimated to take longer get an error image",
                    \.maxRenderMilliseconds, in: 1...600_000),
                .service(
                    "--inline-render-us", "MICROSECONDS", "rings estimated to render within this run on the event loop",
                    \.inlineRenderMicroseconds, in: 0...1_000_000),
                .service(
                    "--spare-render-us", "MICROSECONDS",
                    "queued rings estimated to render within this may be rendered by an event loop between batches; 0: never",
                    \.spareRenderMicroseconds, in: 0...1_000_000),
            ]
        ),
        (
            "PNG AND FONTS",
            [
                .service(
                    "--png-max-side", "PIXELS", "largest PNG width or height, else an error image", \.raster.maxSide,
                    in: 16...16384),
                .service(
                    "--png-max-render-mb", "N", "most memory one PNG render may take, in MiB", \.raster.maxRenderBytes,
                    in: 1...4096, scale: 1 << 20),
                .service(
                    "--png-renders", "N", "large PNG renders queued or running at once, else 503", \.pngRenders,
                    in: 1...256),
                .service(
                    "--png-gate-pixels", "N", "PNGs larger than this many pixels need a render place", \.pngGatePixels,
                    in: 0...67_108_864),
                .fontPaths,
                .service(
                    "--font-max-mb", "N", "largest font file read, in MiB", \.fontLimits.maximumFileBytes, in: 1...1024,
                    scale: 1 << 20),
                .service(
                    "--font-cache", "GLYPHS", "decoded glyphs kept per font", \.fontLimits.cachedGlyphs,
                    in: 16...1_000_000),
            ]
        ),
        (
            "LIVE VALUES",
            [
                Flag(
                    name: "--source-allow", value: "HOSTS",
                    help:
                        "hosts live values (src=) may be read from: names or *.example.com, comma-separated; repeatable (none: off)"
                ) { text, _, service, _ in
                    let patterns = text.split(separator: ",", omittingEmptySubsequences: false).map {
                        SourcePolicy.hostPattern(String($0))
                    }
                    guard !patterns.isEmpty, patterns.allSatisfy({ $0 != nil }) else { return false }
                    service.sources.allowedHosts += patterns.compactMap { $0 }
                    return true
                },
                .switch(
                    "--source-allow-http", "read live values over plain http too, for development", \.sources.allowHTTP),
                .switch(
                    "--source-allow-private", "read live values from private, loopback and this server's addresses too",
                    \.sources.allowPrivate),
                .decimal(
                    "--source-timeout", "SECONDS", "the most one fetch of a source may take, redirects included",
                    \.sources.timeout, in: .leastNonzeroMagnitude...60),
                .service(
                    "--source-ttl", "SECONDS", "how long a fetched value is used; a document's max-age may lengthen it",
                    \.sources.ttl, in: SourcePolicy.shortestTTL...SourcePolicy.longestTTL),
                .service(
                    "--source-stale", "SECONDS", "how long the last good value is served while its source fails",
                    \.sources.stale, in: 0...2_592_000),
                .service(
                    "--source-per-host", "N", "fetches running at once per allowed host (a *.domain entry is one)",
                    \.sources.perHost, in: 1...64),
                .decimal(
                    "--source-rate", "N", "fetches started a second per allowed host; more wait their turn",
                    \.sources.fetchesPerSecond, in: 0.01...10_000),
                .service(
                    "--source-queue", "N", "fetches that may wait their turn per allowed host, else an error image",
                    \.sources.queuePerHost, in: 0...65536),
                .decimal(
                    "--source-queue-wait", "SECONDS",
                    "the longest a fetch waits for its turn; with --source-timeout under --write-timeout",
                    \.sources.queueWait, in: 0...600),
                .service(
                    "--source-max-bytes", "BYTES", "largest source document read", \.sources.maxBytes,
                    in: 1024...16_777_216),
                .service("--source-redirects", "N", "redirects a fetch follows", \.sources.maxRedirects, in: 0...10),
                .service(
                    "--source-cache-mb", "N", "source documents kept, in MiB", \.sources.cacheBytes, in: 1...4096,
                    scale: 1 << 20),
                .service(
                    "--source-resolvers", "N",
                    "threads resolving source names; one allowed host holds --source-per-host",
                    \.sources.resolvers, in: 1...256),
            ]
        ),
        (
            "LOGGING",
            [
                Flag(name: "--access-log", value: "off|stdout|PATH", help: "where the access log goes (stdout)") {
                    text, _, _, log in
                    log.destination = text
                    return !text.isEmpty
                },
                Flag(
                    name: "--access-log-format",
                    value: AccessLog.Format.allCases.map(\.rawValue).joined(separator: "|"),
                    help: "a line of text, or a JSON object a line, for log collectors (text)"
                ) { text, _, _, log in
                    guard let format = AccessLog.Format(rawValue: text) else { return false }
                    log.format = format
                    return true
                },
            ]
        ),
        (
            "MEMORY",
            [
                .service("--malloc-arenas", "N", "glibc malloc arenas (M_ARENA_MAX)", \.memory.arenas, in: 1...64),
                .service(
                    "--malloc-mmap-kb", "KIB", "glibc maps blocks at least this large on their own (M_MMAP_THRESHOLD)",
                    \.memory.mmapThreshold, in: 4...32768, scale: 1024),
                .decimal(
                    "--trim-interval", "SECONDS", "seconds between hand-backs of free memory, 0 never",
                    \.memory.trimInterval,
                    in: 0...3600),
            ]
        ),
        (
            "SHUTDOWN",
            [
                .seconds(
                    "--drain-timeout", "on SIGTERM, time to finish in-flight responses", \.drainTimeout, allowZero: true
                ),
                .seconds(
                    "--linger", "after the last response, time to read what the client still sends", \.lingerTimeout,
                    allowZero: true),
            ]
        ),
    ]

    private static let flags = groups.flatMap(\.flags)

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

    static func run(_ arguments: [String]) -> Int32 {
        guard var settings = settings(arguments, help: "ring serve") else {
            print(usage)
            return 0
        }
        guard let (fonts, warnings) = FontLoading.load(paths: settings.fontPaths, limits: settings.service.fontLimits)
        else { return 1 }
        settings.service.fonts = fonts
        var memory: String
        switch MemoryFormula.fit(
            server: settings.server, service: settings.service, limit: MemoryBudget.limitBytes, given: settings.given)
        {
        case .within(let total, let limit):
            memory = "memory: \(MemoryFormula.mebibytes(total)) by the formula"
            if let limit { memory += ", within the limit of \(MemoryFormula.mebibytes(limit))" }
        case .fitted(let service, let total, let limit, let changes):
            settings.service = service
            memory =
                "memory: \(changes.joined(separator: ", ")) to fit the limit of \(MemoryFormula.mebibytes(limit)) "
                + "(\(MemoryFormula.mebibytes(total)) by the formula)"
        case .refused(let reason):
            var stderr = StandardError()
            print("ring: \(reason)", to: &stderr)
            return 1
        }
        return serve(
            server: settings.server, service: settings.service, accessLog: settings.accessLog, warnings: warnings,
            memory: memory)
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

    private static func serve(
        server configuration: ServerConfiguration, service: ServiceConfiguration, accessLog: AccessLogSettings,
        warnings: [String], memory: String
    ) -> Int32 {
        var stderr = StandardError()
        let log: AccessLog
        do {
            log = try AccessLog(AccessLog.Destination(accessLog.destination), format: accessLog.format)
        } catch {
            print("ring: \(error)", to: &stderr)
            return 1
        }
        service.memory.apply()
        let trimming = service.memory.startTrimming()
        defer { trimming?.cancel() }
        let statistics = ServerStatistics()
        var service = service
        service.eventLoops = configuration.eventLoopCount
        let responder = RingService(configuration: service, accessLog: log, serverStatistics: statistics)
        let server = Server(configuration: configuration, responder: responder, statistics: statistics)
        do {
            // Signals first: libdispatch opens its signalfd lazily, and a server already out of
            // descriptors under a connection flood would otherwise never hear SIGTERM.
            server.shutdownOnSignals()
            // logrotate's habit: SIGHUP opens the access log's path again. SIGUSR1 and SIGUSR2
            // have no meaning here; their default action would end the process undrained.
            server.onSignal(SIGHUP) {
                if let error = log.reopen() {
                    var stderr = StandardError()
                    print("ring: SIGHUP: \(error); lines go on to the old file", to: &stderr)
                }
            }
            signal(SIGUSR1, SIG_IGN)
            signal(SIGUSR2, SIG_IGN)
            let port = try server.start()
            print(
                "ring: serving on http://\(configuration.host):\(port) (\(counted(configuration.eventLoopCount, "event loop")), \(configuration.io.rawValue); \(counted(service.renderThreadCount, "render thread")); \(counted(CPUBudget.available, "CPU")) available; fonts: \(service.fonts.summary); \(memory))",
                to: &stderr)
            FontLoading.warn(warnings)
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

/// "1 event loop", "2 event loops".
private func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
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
