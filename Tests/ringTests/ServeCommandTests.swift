import Foundation
import HTTPServer
import HTTPTestSupport
import RingCore
import RingRaster
import RingService
import Testing

@testable import ring

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ring serve` and `ring healthcheck`, run as an operator would run them: flags, signals,
/// logs, ports and descriptors.
@Suite struct ServeCommandTests {
    /// A running `ring serve` on a free port, with its output pipes.
    final class ServeProcess {
        let process = Process()
        let out = Pipe()
        let err = Pipe()
        let port: Int

        init(
            _ extra: [String] = [], arguments: [String]? = nil, environment: [String: String]? = nil,
            descriptorLimit: Int? = nil
        ) throws {
            let serve =
                ["serve"] + (arguments ?? ["--host", "127.0.0.1", "--port", "0", "--access-log", "stdout"]) + extra
            if let descriptorLimit {
                // A shell lowers both limits, so the server cannot raise its soft limit past it.
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments =
                    ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", CommandLineTests.executable.path]
                    + serve
            } else {
                process.executableURL = CommandLineTests.executable
                process.arguments = serve
            }
            if let environment {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // The first stderr line names the port: "ring: serving on http://HOST:PORT (…".
            var banner = ""
            while !banner.contains("\n") {
                let chunk = err.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                banner += String(decoding: chunk, as: UTF8.self)
            }
            let address = banner.split(separator: " (").first ?? ""
            port = try #require(Int(address.split(separator: ":").last ?? ""), "\(banner)")
        }

        /// User plus system clock ticks the server has used (the shell `exec`s it, same pid).
        func cpuTicks() -> Int {
            let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
            return user + system
        }

        /// The names of the server's threads, from /proc/PID/task/*/comm.
        func threadNames() -> [String] {
            let tasks =
                (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task")) ?? []
            return tasks.compactMap {
                try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\($0)/comm", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }

        /// A line of /proc/PID/status, e.g. `Threads`.
        func status(_ field: String) -> Int? {
            let text = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
            return line.flatMap {
                Int($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
            }
        }

        /// Stops the server: SIGTERM, then SIGKILL if it has not exited within 20 s, so a server
        /// that ignores SIGTERM fails its test instead of hanging the suite.
        deinit {
            guard process.isRunning else { return }
            process.terminate()
            for _ in 0..<200 where process.isRunning { usleep(100_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// A SIGTERM sent the moment the first answer arrives, while `ring serve` may still be
    /// starting (the listeners open before the start-up line), always stops it.
    @Test(arguments: IOBackend.allCases) func aSIGTERMAtTheFirstAnswerStopsTheServer(io: IOBackend) throws {
        for _ in 0..<40 {
            // A port that was free a moment ago.
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) }
            }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) }
            }
            let port = Int(UInt16(bigEndian: address.sin_port))
            close(probe)
            let process = Process()
            process.executableURL = CommandLineTests.executable
            process.arguments = [
                "serve", "--host", "127.0.0.1", "--port", "\(port)", "--access-log", "off", "--io", io.rawValue,
            ]
            process.standardError = FileHandle.nullDevice
            try process.run()
            var answered = false
            for _ in 0..<2000 where !answered {
                if let client = try? RawClient(port: port) {
                    client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    answered = client.readResponse()?.status == 200
                }
                if !answered { usleep(1000) }
            }
            kill(process.processIdentifier, SIGTERM)
            for _ in 0..<300 where process.isRunning { usleep(10_000) }
            let stopped = !process.isRunning
            if !stopped { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(answered && stopped, "answered \(answered), stopped by SIGTERM \(stopped)")
            if !stopped { return }
        }
    }

    @Test(arguments: IOBackend.allCases) func serveAnswersAndDrainsOnSIGTERM(io: IOBackend) throws {
        let server = try ServeProcess(["--io", io.rawValue])
        let client = try RawClient(port: server.port)
        client.send("GET /ring.svg?p=72 HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.body == RingRenderer.render(RingSpec(value: 72)))
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        #expect(client.isClosedByPeer())
        let log = String(decoding: server.out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains(" \"GET /ring.svg?p=72 HTTP/1.1\" 200 \(response.body.count) "), "\(log)")
        #expect(log.contains(" miss svg "), "\(log)")
        // Under `swift test --sanitize=…` the server is instrumented too: it must report nothing.
        let diagnostics = String(decoding: server.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!diagnostics.contains("Sanitizer"), "\(diagnostics)")
        #expect(diagnostics.hasSuffix("ring: stopped\n"))
    }

    /// `ring render` reports every error of a query, as `/ring.json` does, one line each.
    @Test func renderReportsEveryError() throws {
        let outcome = try CommandLineTests.run(["render", "p=72&colour=red&size=x"])
        #expect(outcome.status == 1 && outcome.stdout.isEmpty)
        #expect(
            outcome.stderr
                == "ring: colour: is not a parameter; did you mean color?\nring: size: \"x\" is not a whole number\n")
    }

    /// A port is shared only among one process's loops: a second `ring serve` on a port another
    /// listens on exits 1, on either backend, and the first keeps every connection.
    @Test(arguments: ["epoll", "dispatch"]) func oneServerPerPort(io: String) throws {
        let first = try ServeProcess(["--io", io, "--threads", "2"])
        let second = try CommandLineTests.run([
            "serve", "--io", io, "--host", "127.0.0.1", "--port", String(first.port), "--access-log", "off",
        ])
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("cannot serve: bind 127.0.0.1:\(first.port): Address already in use"))
        #expect(try CommandLineTests.run(["healthcheck", "--port", String(first.port)]).status == 0)
    }

    /// logrotate moves the access log and sends SIGHUP: the next lines go to a new file at the
    /// path, the earlier ones stay in the moved file. SIGUSR1 and SIGUSR2 leave the server
    /// serving (their default action would end it).
    @Test func sighupReopensTheAccessLogAndUserSignalsAreHarmless() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ring-log-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("access.log").path
        let server = try ServeProcess(arguments: ["--host", "127.0.0.1", "--port", "0", "--access-log", path])
        func ask(_ target: String) throws {
            let client = try RawClient(port: server.port)
            client.send("GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        // Read with read(2): Foundation's String(contentsOfFile:) leaks its buffer under
        // LeakSanitizer on this toolchain (a few KB a call, reported as a direct leak).
        func text(_ file: String) -> String {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return "" }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &chunk, chunk.count)
                guard count > 0 else { break }
                bytes += chunk[0..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        try ask("/ring.svg?p=1")
        #expect(waitUntil { text(path).contains("p=1 ") })
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        kill(server.process.processIdentifier, SIGHUP)
        #expect(waitUntil { FileManager.default.fileExists(atPath: path) })
        try ask("/ring.svg?p=2")
        #expect(waitUntil { text(path).contains("p=2 ") })
        #expect(text(path + ".1").contains("p=1 ") && !text(path + ".1").contains("p=2"))
        for number in [SIGUSR1, SIGUSR2] { kill(server.process.processIdentifier, number) }
        try ask("/ring.svg?p=3")
        #expect(server.process.isRunning)
    }

    @Test func healthcheckProbesALocalServer() throws {
        let server = try ServeProcess()
        #expect(try CommandLineTests.run(["healthcheck", "--port", String(server.port)]).status == 0)
        server.process.terminate()
        server.process.waitUntilExit()
        #expect(try CommandLineTests.run(["healthcheck", "--port", String(server.port)]).status == 1)
    }

    /// The healthcheck finds the server as `serve` would from the same flags and environment,
    /// and says why when it cannot.
    @Test func healthcheckReadsServeFlagsAndEnvironment() throws {
        let server = try ServeProcess()
        let port = String(server.port)
        #expect(
            try CommandLineTests.run(["healthcheck"], environment: ["PORT": port, "HOST": "127.0.0.1"]).status == 0)
        #expect(try CommandLineTests.run(["healthcheck", "--host", "0.0.0.0", "--port", port]).status == 0)
        #expect(
            try CommandLineTests.run(["healthcheck", "--port", port, "--cache-mb", "16", "--access-log", "off"]).status
                == 0)
        server.process.terminate()
        server.process.waitUntilExit()
        let failed = try CommandLineTests.run(["healthcheck", "--host", "127.0.0.1", "--port", port])
        #expect(failed.status == 1 && failed.stdout.isEmpty)
        #expect(
            failed.stderr.hasPrefix("ring: healthcheck of 127.0.0.1:\(port) failed: cannot connect: "),
            "\(failed.stderr)")
        let unresolvable = try CommandLineTests.run(["healthcheck", "--host", "no-such-host.invalid", "--port", port])
        #expect(unresolvable.status == 1 && unresolvable.stderr.contains("cannot resolve the host"))
    }

    /// In a container the healthcheck takes the flags of process 1 when it is `ring serve`.
    /// The live-value flags fill the service's source policy; the switches take no value.
    @Test func sourceFlagsFillThePolicy() throws {
        let settings = try #require(
            ServeCommand.settings(
                [
                    "--source-allow", "Status.example.com,*.pages.example", "--source-allow=[::1]",
                    "--source-allow-http", "--source-allow-private", "--source-timeout", "1.5", "--source-ttl", "60",
                    "--source-max-bytes", "2048", "--source-per-host", "2", "--source-cache-mb", "3", "--source-rate",
                    "2.5", "--source-queue-wait", "4", "--source-resolvers", "8",
                ], help: "ring serve"))
        let policy = settings.service.sources
        #expect(policy.allowedHosts == ["status.example.com", "*.pages.example", "::1"])
        #expect(policy.allowHTTP && policy.allowPrivate && policy.isEnabled)
        #expect(policy.timeout == 1.5 && policy.ttl == 60 && policy.maxBytes == 2048 && policy.perHost == 2)
        #expect(policy.cacheBytes == 3 << 20 && policy.fetchesPerSecond == 2.5)
        #expect(policy.queueWait == 4 && policy.resolvers == 8)
        let plain = try #require(ServeCommand.settings([], help: "ring serve"))
        #expect(!plain.service.sources.isEnabled && !plain.service.sources.allowHTTP)
    }

    /// A fetch's longest wait and deadline must fit in --write-timeout, or a waiting request
    /// could be closed unanswered: such flags are a usage error.
    @Test func sourceWaitsMustFitTheWriteTimeout() throws {
        let refused = try CommandLineTests.run([
            "serve", "--source-allow", "example.com", "--source-timeout", "6", "--source-queue-wait", "4",
        ])
        #expect(refused.status == 2 && refused.stderr.contains("must add up to less than --write-timeout (10.0)"))
    }

    /// `--cache-admission`: a cheap new SVG is stored when second asked for unless told `first`.
    @Test func cacheAdmissionFlag() throws {
        #expect(try #require(ServeCommand.settings([], help: "ring serve")).service.cacheAdmission == .second)
        let first = try #require(ServeCommand.settings(["--cache-admission", "first"], help: "ring serve"))
        #expect(first.service.cacheAdmission == .first)
    }

    @Test func healthcheckTakesTheEntrypointsFlags() {
        func commandLine(_ words: [String]) -> [UInt8] { words.flatMap { Array($0.utf8) + [0] } }
        #expect(
            HealthcheckCommand.serveArguments(
                commandLine: commandLine(["/usr/local/bin/ring", "serve", "--port", "9000"]))
                == ["--port", "9000"])
        #expect(
            HealthcheckCommand.serveArguments(commandLine: commandLine(["/sbin/tini", "--", "ring", "serve"])) == [])
        #expect(HealthcheckCommand.serveArguments(commandLine: commandLine(["/sbin/init"])) == nil)
        #expect(HealthcheckCommand.serveArguments(commandLine: commandLine(["ring", "render", "serve"])) == nil)
        #expect(HealthcheckCommand.serveArguments(commandLine: commandLine(["/usr/bin/ring"])) == nil)
        #expect(HealthcheckCommand.serveArguments(commandLine: []) == nil)
    }

    @Test func hostAndPortComeFromTheEnvironment() throws {
        let server = try ServeProcess(
            arguments: ["--access-log", "off"], environment: ["HOST": "127.0.0.1", "PORT": "0"])
        let client = try RawClient(port: server.port)
        client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        #expect(try CommandLineTests.run(["serve", "--access-log", "off"], environment: ["PORT": "http"]).status == 2)
    }

    @Test func accessLogGoesToAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ring-access-\(getpid())-\(Int.random(in: 0..<1_000_000)).log"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServeProcess(["--access-log", path])
        let client = try RawClient(port: server.port)
        client.send("HEAD /ring.svg?p=5 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse(head: true)?.status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        let log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        // nginx's combined format, then duration, cache, format and request id.
        let combined =
            #/^127\.0\.0\.1 - - \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d\.\d{3} \+0000\] "HEAD /ring\.svg\?p=5 HTTP/1\.1" 200 0 "-" "-" \d+ miss svg [0-9a-f]{16}-[0-9a-f]+-[0-9a-f]+\n$/#
        #expect(log.wholeMatch(of: combined) != nil, "\(log)")
        #expect(try CommandLineTests.run(["serve", "--port", "0", "--access-log", "/nonexistent/dir/log"]).status == 1)
    }

    /// `--access-log-format json`: one JSON object a line, whatever the request's bytes.
    @Test func accessLogWritesJSONLines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ring-access-\(getpid())-\(Int.random(in: 0..<1_000_000)).jsonl"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServeProcess(["--access-log", path, "--access-log-format", "json"])
        let client = try RawClient(port: server.port)
        client.send(
            "GET /ring.svg?p=5&label=%22%7D%0A HTTP/1.1\r\nHost: x\r\nUser-Agent: probe \"1\"\r\n"
                + "Referer: https://example.com/readme\r\nX-Request-Id: abc-123\r\n\r\n")
        let first = try #require(client.readResponse())
        #expect(first.header("X-Request-Id") == "abc-123")
        client.send("GET /nope HTTP/1.1\r\nHost: x\r\nX-Request-Id: not ok\r\n\r\n")
        let second = try #require(client.readResponse())
        #expect(second.status == 404)
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.count == 2)
        let records = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let keys = [
            "time", "client", "method", "target", "status", "bytes", "duration_us", "cache", "format", "user_agent",
            "referer", "request_id",
        ]
        #expect(records.allSatisfy { Set($0.keys) == Set(keys) })
        let ring = records[0]
        #expect(ring["target"] as? String == "/ring.svg?p=5&label=%22%7D%0A")
        #expect(ring["client"] as? String == "127.0.0.1" && ring["method"] as? String == "GET")
        #expect(ring["status"] as? Int == 200 && ring["bytes"] as? Int == first.body.count)
        #expect(ring["cache"] as? String == "miss" && ring["format"] as? String == "svg")
        #expect(ring["user_agent"] as? String == "probe \"1\"")
        #expect(
            ring["referer"] as? String == "https://example.com/readme" && ring["request_id"] as? String == "abc-123")
        #expect((ring["time"] as? String)?.wholeMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#) != nil)
        #expect(ring["duration_us"] is Int)
        let notFound = records[1]
        #expect(notFound["target"] as? String == "/nope" && notFound["status"] as? Int == 404)
        // An id that is not a plain token is replaced by one made here, and echoed.
        #expect(notFound["request_id"] as? String == second.header("X-Request-Id"))
        #expect(notFound["request_id"] as? String != "not ok" && notFound["format"] as? String == "text")
        #expect(try CommandLineTests.run(["serve", "--port", "0", "--access-log-format", "xml"]).status == 2)
    }

    /// Out of descriptors, the server stops accepting for a moment instead of spinning on a
    /// listener that stays readable, keeps its deadlines, survives (libdispatch aborts a process
    /// whose global queues have work while it cannot open `/proc`: the server keeps its Dispatch
    /// work on private serial queues), and recovers when descriptors free up.
    @Test(arguments: IOBackend.allCases) func backsOffWhenOutOfDescriptors(io: IOBackend) throws {
        // The idle deadline is short so the Dispatch timer must close connections while no
        // descriptor is left. It ticks once a second, in step with libdispatch's own check of its
        // global queues' workers: with the timer on a global queue, that check found work queued,
        // could not open `/proc/<tid>/stat` and aborted the process in 6 to 8 of 10 runs of this test.
        let server = try ServeProcess(
            ["--access-log", "off", "--idle-timeout", "2", "--deadline-check", "1", "--io", io.rawValue],
            descriptorLimit: 40)
        var clients: [RawClient] = []
        // The kernel may refuse some connects while the server is not accepting (seen once in
        // about ten parallel runs); what matters is that well over 40 get through.
        for _ in 0..<60 {
            if let client = try? RawClient(port: server.port, timeout: 1) { clients.append(client) }
        }
        #expect(clients.count > 45, "only \(clients.count) of 60 connected")
        usleep(300_000)
        let before = server.cpuTicks()
        usleep(1_000_000)
        let spent = server.cpuTicks() - before
        #expect(spent < 30, "\(spent) ticks of CPU in one second while out of descriptors")
        // Past the idle deadline of the connections accepted first (which ones those are depends
        // on which loop got which connection and when).
        usleep(2_300_000)
        #expect(server.process.isRunning, "the server died while out of descriptors")
        clients.removeAll()
        usleep(300_000)
        let client = try RawClient(port: server.port)
        client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        let metrics = client.readResponse()
        #expect(metrics?.status == 200)
        // Our clients closed without a request, which counts no timeout: every one counted was
        // an idle deadline the timer kept while the process was out of descriptors.
        let timeouts = metrics?.text.split(separator: "\n").first { $0.hasPrefix("ring_connection_timeouts_total ") }
            .flatMap { Int($0.split(separator: " ")[1]) }
        #expect((timeouts ?? 0) >= 1, "no idle deadline kept while out of descriptors: \(timeouts ?? -1)")
        // Still hears SIGTERM after running out of descriptors.
        kill(server.process.processIdentifier, SIGTERM)
        for _ in 0..<100 where server.process.isRunning { usleep(100_000) }
        #expect(!server.process.isRunning, "ignored SIGTERM after descriptor exhaustion")
    }

    /// Every Dispatch source of the server (deadline timer, signals, access-log flush) runs on a
    /// private serial queue. A worker of a global concurrent queue would let libdispatch abort
    /// the process once it is out of descriptors (docs/architecture.md). libdispatch names each
    /// worker thread after its root queue, and only the global concurrent ones end in "-qos".
    @Test(arguments: IOBackend.allCases) func keepsDispatchWorkOffGlobalQueues(io: IOBackend) throws {
        let server = try ServeProcess(["--io", io.rawValue])  // access log on, so its flush timer runs too
        let client = try RawClient(port: server.port)
        client.send("GET /ring.svg?p=3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        usleep(1_300_000)  // several deadline ticks and one flush of the access log
        let names = server.threadNames()
        #expect(names.contains { $0.hasSuffix("overcommit") }, "no Dispatch worker ran: \(names)")
        #expect(!names.contains { $0.hasSuffix("-qos") }, "a global queue's worker: \(names)")
    }

    /// Idle keep-alive connections cost a descriptor each, never a thread.
    @Test(arguments: IOBackend.allCases) func idleConnectionsAddNoThreads(io: IOBackend) throws {
        let server = try ServeProcess(["--threads", "2", "--io", io.rawValue])
        let warm = try RawClient(port: server.port)
        warm.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(warm.readResponse()?.status == 200)
        // Dispatch's worker threads come and go with its timers (a new one briefly carries the
        // process's name); epoll's event loops are the server's own threads and stay exactly
        // two, and Dispatch's loops are queues, with no thread of their own. A thread per
        // connection would blow the budget of 2 × cores + 8 many times over.
        let loops = { server.threadNames().filter { $0.hasPrefix("ring-loop-") }.sorted() }
        let expected = io == .epoll ? ["ring-loop-0", "ring-loop-1"] : []
        #expect(loops() == expected)
        var clients: [RawClient] = []
        for _ in 0..<500 {
            let client = try RawClient(port: server.port)
            client.send("GET /ring.svg?p=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            clients.append(client)
        }
        for client in clients { #expect(client.readResponse()?.status == 200) }
        #expect(loops() == expected)
        let threads = try #require(server.status("Threads"))
        #expect(threads <= 2 * ProcessInfo.processInfo.activeProcessorCount + 8, "\(server.threadNames())")
        #expect(clients.count == 500)
    }
}
