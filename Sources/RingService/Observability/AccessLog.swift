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
/// Line format: `2026-11-29T21:26:14Z GET /ring.svg?p=72 200 1234 15us hit`, or with
/// ``Format/json`` one JSON object a line, for log collectors that parse fields:
/// `{"time":"2026-11-29T21:26:14Z","method":"GET","path":"/ring.svg","query":"p=72","status":200,"bytes":1234,"us":15,"cache":"hit"}`.
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

    /// Appends one line.
    package func record(
        method: String, path: String, query: String, status: Int, bytes: Int, microseconds: Int, cache: String
    ) {
        guard sink.isEnabled else { return }
        let now = HTTPDate.iso8601(Int(time(nil)))
        var line: [UInt8]
        switch format {
        case .text:
            var text = "\(now) \(method) \(path)"
            if !query.isEmpty { text += "?\(query)" }
            text += " \(status) \(bytes) \(microseconds)us \(cache)\n"
            line = Array(text.utf8)
        case .json:
            // Every string escaped: nothing from a request can end a field or the line.
            var json = JSONWriter()
            json.object { json in
                for (key, value) in [("time", now), ("method", method), ("path", path), ("query", query)] {
                    json.key(key)
                    json.string(value)
                }
                for (key, value) in [("status", status), ("bytes", bytes), ("us", microseconds)] {
                    json.key(key)
                    json.number(value)
                }
                json.key("cache")
                json.string(cache)
            }
            line = json.bytes
            line.append(UInt8(ascii: "\n"))
        }
        let full = sink.buffer.withLock { buffer -> Bool in
            buffer.append(contentsOf: line)
            return buffer.count >= Self.flushThreshold
        }
        if full { sink.flush() }
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
