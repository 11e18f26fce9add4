import HTTPServer
import RingService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring serve`: parses flags (and `HOST`/`PORT` from the environment), starts the server,
/// drains on SIGTERM/SIGINT and exits 0. This file is the wiring; the flag engine is in
/// ServeCommand+FlagEngine.swift and the flags in ServeCommand+Flags.swift.
enum ServeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        RingService.warmUp()
        guard var settings = settings(arguments, help: "ring serve") else {
            print(usage)
            return 0
        }
        // Fonts named by --font are read now (one that does not read stops the server); the
        // standard ones once the listeners are open, and a PNG waits for them.
        var warnings: [String] = []
        if settings.fontPaths.isEmpty {
            settings.service.fonts = .loadingStandard(limits: settings.service.fontLimits)
        } else {
            guard let (fonts, named) = FontLoading.load(paths: settings.fontPaths, limits: settings.service.fontLimits)
            else { return 1 }
            settings.service.fonts = fonts
            warnings = named
        }
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

    /// Starts the server with the settings read, and waits for it to stop.
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
        service.loopTurnMicroseconds = configuration.writeDelayMicroseconds
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
            responder.readFonts()
            print(
                "ring: serving on http://\(configuration.host):\(port) (\(counted(configuration.eventLoopCount, "event loop")), \(configuration.io.rawValue); \(counted(service.renderThreadCount, "render thread")); \(counted(CPUBudget.available, "CPU")) available; fonts: \(service.fonts.summary); \(memory))",
                to: &stderr)
            FontLoading.warn(warnings + service.fonts.warnings)
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
