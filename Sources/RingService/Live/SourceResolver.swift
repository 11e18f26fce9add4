import CSystem
import Foundation
import HTTPServer

/// Resolves source host names on a few threads of its own, never on libdispatch's.
///
/// The system's resolver (`getaddrinfo`) blocks, and a name whose DNS never answers holds its
/// thread until the system gives up (`options timeout:` and `attempts:` in resolv.conf; tens
/// of seconds). So:
/// - at most ``threads`` lookups run at once, on threads started when first needed;
/// - one allowlist entry (``SourcePolicy/entry(allowing:)``) holds at most ``perEntry`` of
///   them, a quarter of the threads and never more than `--source-per-host`, so three silent
///   domains still leave a quarter to the others;
/// - the fetcher does not wait: its deadline covers the lookup, and a late answer is dropped
///   (``cancel(_:)`` takes a lookup that has not started out of the queue).
final class SourceResolver: @unchecked Sendable {  // state under `condition`
    /// Resolves a name: ``SourceAddress/resolve(_:port:)``, or a test's own.
    typealias Lookup = SourceLookup.Function
    typealias Done = @Sendable (Result<[SourceAddress], SourceFailure>) -> Void

    private struct Job {
        var id: Int
        var entry: String
        var host: String
        var port: Int
        var done: Done
    }

    let threads: Int
    let perEntry: Int
    private let lookup: Lookup
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var running: [String: Int] = [:]
    private var started = 0
    private var idle = 0
    private var stopped = false

    /// The lookups one allowlist entry may run at once.
    static func perEntry(resolvers: Int, perHost: Int) -> Int { max(1, min(perHost, resolvers / 4)) }

    init(threads: Int, perEntry: Int, lookup: @escaping Lookup) {
        self.threads = max(1, threads)
        self.perEntry = max(1, perEntry)
        self.lookup = lookup
    }

    /// Queues a lookup of `host` for allowlist entry `entry`; `done` is called once, on a
    /// resolver thread, unless the lookup is cancelled before it starts.
    func resolve(_ host: String, port: Int, entry: String, id: Int, done: @escaping Done) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        queue.append(Job(id: id, entry: entry, host: host, port: port, done: done))
        if idle == 0 && started < threads {
            started += 1
            let thread = Thread { [self] in work() }
            thread.name = "ring-resolver"
            thread.start()
        } else {
            condition.broadcast()
        }
    }

    /// Drops lookup `id` if it has not started.
    func cancel(_ id: Int) {
        condition.withLock { queue.removeAll { $0.id == id } }
    }

    /// Lets the threads end (one in a lookup ends when the lookup returns).
    func stop() {
        condition.withLock {
            stopped = true
            queue.removeAll()
            condition.broadcast()
        }
    }

    /// Lookups of `entry` running now (tests).
    func runningLookups(of entry: String) -> Int { condition.withLock { running[entry] ?? 0 } }

    private func work() {
        _ = csystem_set_thread_name("ring-resolver")
        condition.lock()
        while true {
            if stopped {
                condition.unlock()
                return
            }
            guard let index = queue.firstIndex(where: { (running[$0.entry] ?? 0) < perEntry }) else {
                idle += 1
                condition.wait()
                idle -= 1
                continue
            }
            let job = queue.remove(at: index)
            running[job.entry, default: 0] += 1
            condition.unlock()
            let result = lookup(job.host, job.port)
            job.done(result)
            condition.lock()
            running[job.entry, default: 1] -= 1
            if running[job.entry] == 0 { running[job.entry] = nil }
            condition.broadcast()
        }
    }
}
