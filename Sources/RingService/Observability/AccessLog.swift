import Dispatch
import HTTPServer
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line per request, appended to an in-memory buffer and written out by a Dispatch timer
/// (or when the buffer passes 64 KiB), so the request path never waits on a disk or a pipe.
///
/// Line format: nginx's `combined`, then duration in µs, cache outcome, format and request id:
/// `192.0.2.7 - - [29/Nov/2026:21:26:14.123 +0000] "GET /ring.svg?p=72 HTTP/1.1" 200 1234 "-" "curl/8.5.0" 15 hit svg 1f3a9c0d2e4b5a68-1`,
/// or with ``Format/json`` one JSON object a line with the same fields
/// (docs/operations.md, "Access log").
package final class AccessLog: Sendable {
    /// How a line is written.
    package enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    /// Where lines go.
    package enum Destination: Sendable, Equatable {
        case off
        case standardOutput
        case file(String)

        /// Parses `off`, `stdout` or a path.
        package init(_ text: String) {
            switch text {
            case "off": self = .off
            case "stdout", "-": self = .standardOutput
            default: self = .file(text)
            }
        }
    }

    private let sink: Sink
    private let format: Format
    /// Set once in `init`, cancelled in `deinit`; Dispatch sources are thread-safe.
    private nonisolated(unsafe) let timer: (any DispatchSourceTimer)?
    private static let flushThreshold = 64 * 1024

    /// The descriptor and the buffered lines: what the timer flushes, which it holds strongly.
    /// A `[weak self]` instead would leave a weak reference in the timer's handler until
    /// Dispatch lets go of the cancelled timer, and LeakSanitizer cannot follow a weak
    /// reference to its side table: a log dropped just before the process exits showed as a
    /// leak.
    private final class Sink: Sendable {
        /// The log file's path, which SIGHUP opens again; nil for standard output or off.
        let path: String?
        /// The descriptor, under a lock of its own that flushes and reopens take: a reopen never
        /// closes a descriptor a flush is writing to. Loops take only `buffer`'s lock.
        let fd: Locked<Int32?>
        let buffer = Locked<[UInt8]>([])
        let isEnabled: Bool

        init(fd: Int32?, path: String?) {
            self.fd = Locked(fd)
            self.path = path
            isEnabled = fd != nil
        }

        func flush() {
            fd.withLock { fd in
                guard let fd else { return }
                let pending = buffer.withLock { buffer -> [UInt8] in
                    defer { buffer.removeAll(keepingCapacity: true) }
                    return buffer
                }
                // A full disk or closed pipe drops these lines; it must not take the server down.
                FileDescriptor.writeAll(pending, to: fd)
            }
        }

        /// Writes out what is buffered to the file, closes it and opens its path again: what
        /// logrotate's `kill -HUP` asks of a daemon. The old descriptor is kept when the path
        /// cannot be opened.
        func reopen() -> AccessLogError? {
            guard let path else { return nil }
            let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard opened >= 0 else { return AccessLogError(path: path, errorNumber: errno) }
            fd.withLock { fd in
                let pending = buffer.withLock { buffer -> [UInt8] in
                    defer { buffer.removeAll(keepingCapacity: true) }
                    return buffer
                }
                if let old = fd {
                    FileDescriptor.writeAll(pending, to: old)
                    close(old)
                }
                fd = opened
            }
            return nil
        }
    }

    /// Opens the destination; a file is created or appended to.
    package init(_ destination: Destination, format: Format = .text) throws(AccessLogError) {
        self.format = format
        let fd: Int32?
        var path: String?
        switch destination {
        case .off: fd = nil
        case .standardOutput: fd = STDOUT_FILENO
        case .file(let file):
            let opened = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw AccessLogError(path: file, errorNumber: errno) }
            fd = opened
            path = file
        }
        let sink = Sink(fd: fd, path: path)
        self.sink = sink
        guard fd != nil else {
            timer = nil
            return
        }
        // A private serial queue, not a global one: libdispatch aborts a process that is out of
        // descriptors while its global queues have work (see docs/architecture.md).
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "access-log.flush"))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        self.timer = timer
        timer.setEventHandler { @Sendable in sink.flush() }
        timer.resume()
    }

    deinit {
        timer?.cancel()
        sink.flush()
    }

    /// Whether lines are written at all.
    package var isEnabled: Bool { sink.isEnabled }

    /// Opens a log file's path again (SIGHUP, after logrotate moved the file); nothing for
    /// standard output. Returns why the path could not be opened: lines then go on to the old
    /// file.
    package func reopen() -> AccessLogError? { sink.reopen() }

    /// Whether an answer came from the response cache.
    package enum CacheOutcome: String, Sendable {
        /// Found in the cache, by the query's text or the ring's digest.
        case hit
        /// Made for this request and not stored: a cheap ring asked for the first time, an
        /// error image, a live ring, a description.
        case miss
        /// Rendered and stored.
        case stored
        /// Not a ring, or not rendered (a refusal).
        case none = "-"
    }

    /// What one line says about one request.
    package struct Entry: Sendable {
        package var client: String
        package var method: String
        /// The request target as received.
        package var target: String
        package var minorVersion: Int
        package var status: Int
        /// Body bytes sent (0 for HEAD).
        package var bytes: Int
        package var microseconds: Int
        package var cache: CacheOutcome
        /// What was answered: `svg`, `png`, `json`, `html` or `text`.
        package var format: String
        package var userAgent: String
        package var referer: String
        package var requestID: String

        package init(
            client: String, method: String, target: String, minorVersion: Int, status: Int, bytes: Int,
            microseconds: Int, cache: CacheOutcome, format: String, userAgent: String, referer: String,
            requestID: String
        ) {
            self.client = client
            self.method = method
            self.target = target
            self.minorVersion = minorVersion
            self.status = status
            self.bytes = bytes
            self.microseconds = microseconds
            self.cache = cache
            self.format = format
            self.userAgent = userAgent
            self.referer = referer
            self.requestID = requestID
        }
    }

    /// Appends one line for `entry`, stamped with the time now.
    package func record(_ entry: Entry) {
        guard sink.isEnabled else { return }
        var line = Self.line(entry, milliseconds: HTTPDate.nowMilliseconds(), format: format)
        line.append(UInt8(ascii: "\n"))
        let full = sink.buffer.withLock { buffer -> Bool in
            buffer.append(contentsOf: line)
            return buffer.count >= Self.flushThreshold
        }
        if full { sink.flush() }
    }

    /// One line, without its newline: nginx's `combined` format with our fields after it, or
    /// one JSON object. Nothing from a request can end a field or the line: the text format
    /// escapes `"`, `\\` and bytes outside printable ASCII as `\\xHH`, as nginx does; JSON
    /// escapes every string.
    static func line(_ entry: Entry, milliseconds: Int, format: Format) -> [UInt8] {
        switch format {
        case .text:
            let request = "\(entry.method) \(entry.target) HTTP/1.\(entry.minorVersion)"
            let text =
                "\(entry.client) - - [\(HTTPDate.common(milliseconds: milliseconds))] \"\(escaped(request))\" "
                + "\(entry.status) \(entry.bytes) \"\(escaped(entry.referer))\" \"\(escaped(entry.userAgent))\" "
                + "\(entry.microseconds) \(entry.cache.rawValue) \(entry.format) \(escaped(entry.requestID))"
            return Array(text.utf8)
        case .json:
            var json = JSONWriter()
            json.object { json in
                let strings = [
                    ("time", HTTPDate.iso8601(milliseconds: milliseconds)), ("client", entry.client),
                    ("method", entry.method), ("target", entry.target),
                ]
                for (key, value) in strings {
                    json.key(key)
                    json.string(value)
                }
                for (key, value) in [
                    ("status", entry.status), ("bytes", entry.bytes), ("duration_us", entry.microseconds),
                ] {
                    json.key(key)
                    json.number(value)
                }
                let more = [
                    ("cache", entry.cache.rawValue), ("format", entry.format), ("user_agent", entry.userAgent),
                    ("referer", entry.referer), ("request_id", entry.requestID),
                ]
                for (key, value) in more {
                    json.key(key)
                    json.string(value)
                }
            }
            return json.bytes
        }
    }

    /// `text` as nginx writes a variable into its log: `"`, `\\`, control bytes and bytes past
    /// ASCII as `\\xHH`; an empty value as `-`.
    static func escaped(_ text: String) -> String {
        guard !text.isEmpty else { return "-" }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out += [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes out what is buffered.
    package func flush() {
        sink.flush()
    }
}

/// The access log file could not be opened.
package struct AccessLogError: Error, CustomStringConvertible {
    package var path: String
    package var errorNumber: Int32
    package var description: String { "access log \(path): \(String(cString: strerror(errorNumber)))" }
}
