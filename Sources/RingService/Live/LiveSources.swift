import Dispatch
import HTTPServer
import RingCore

/// The documents live rings read, kept per source URL, and the fetches that refresh them.
///
/// - **One fetch per URL**, whatever the number of requests waiting for it: the first request
///   for a URL with no fresh document starts the fetch, and every request until it ends waits
///   on that one.
/// - **At most `perHost` fetches at once to one host**, the next `queuePerHost` waiting in
///   order, and at most `fetchesPerSecond` started a second (a token bucket); a new source
///   past those is answered busy (503), so a flood of distinct sources costs the host a
///   bounded number of connections and requests, and everything else goes on.
/// - A document is **fresh** for `ttl` seconds, or the longer `max-age` it sent (up to a day);
///   then the next request fetches it again. When that refresh fails, the last good document
///   is served, **stale**, for up to `stale` seconds past its freshness.
/// - A failure with no good document is kept for `failureSeconds` (the error image's
///   `max-age`), so a broken source is not fetched on every request.
/// - Documents are kept within `cacheBytes` of their bodies (a failure counts 256 bytes); past
///   it the least recently used are dropped.
///
/// Thread-safe; answers waiting requests on the fetch's thread, never on an event loop.
final class LiveSources: Sendable {
    /// What a request for a source gets.
    enum Answer: Sendable {
        /// The document, and how long it stays fresh (0 when served stale).
        case document(JSONDocument, freshFor: Int, stale: Bool)
        case failure(SourceFailure)
        /// Too many fetches wait for this host.
        case busy
    }

    typealias Waiter = @Sendable (Answer) -> Void

    private struct Entry {
        var document: JSONDocument?
        var freshUntil: Double = 0
        var staleUntil: Double = 0
        var failure: SourceFailure?
        var failedUntil: Double = 0
        var waiters: [Waiter] = []
        var fetching = false
        var bytes = LiveSources.failureBytes
        var lastUsed: Double = 0
    }

    private struct Host {
        var running = 0
        var queue: [SourceURL] = []
        /// Fetches it may still start, refilled at `fetchesPerSecond` up to that many.
        var tokens: Double
        var refilled: Double
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var hosts: [String: Host] = [:]
        var bytes = 0
    }

    /// Hosts remembered before those idle with a full bucket are dropped.
    static let hostsKept = 1024

    /// What a failure's entry counts against the byte budget.
    static let failureBytes = 256

    private let policy: SourcePolicy
    private let failureSeconds: Int
    private let fetcher: SourceFetcher
    private let metrics: Metrics
    private let clock: @Sendable () -> Double
    private let state = Locked(State())

    init(
        policy: SourcePolicy, failureSeconds: Int, metrics: Metrics, exemptEndpoints: [String] = [],
        clock: SourceClock = .monotonic
    ) {
        self.policy = policy
        self.failureSeconds = failureSeconds
        self.fetcher = SourceFetcher(policy: policy, exemptEndpoints: exemptEndpoints)
        self.metrics = metrics
        self.clock = { clock.now() }
    }

    /// Stops fetching: the service is going away (in tests, one service after another).
    deinit { fetcher.invalidate() }

    /// The answer for `url` now, or nil when it waits for a fetch: `waiter` is then called
    /// once, with the answer, when the fetch ends.
    func read(_ url: SourceURL, waiter: @escaping Waiter) -> Answer? {
        let key = url.description
        let now = clock()
        var start = false
        let answer = state.withLock { state -> Answer? in
            guard var entry = state.entries[key] else {
                // A new source: counted from now, so that waiting ones count against the budget.
                guard let admitted = Self.admit(url, into: &state, policy: policy, now: now) else { return .busy }
                start = admitted
                var entry = Entry()
                entry.lastUsed = now
                entry.fetching = true
                entry.waiters = [waiter]
                state.entries[key] = entry
                state.bytes += entry.bytes
                return nil
            }
            entry.lastUsed = now
            defer { state.entries[key] = entry }
            if let document = entry.document, now < entry.freshUntil {
                return .document(document, freshFor: Int((entry.freshUntil - now).rounded()), stale: false)
            }
            if let failure = entry.failure, now < entry.failedUntil {
                if let document = entry.document, now < entry.staleUntil {
                    return .document(document, freshFor: 0, stale: true)
                }
                return .failure(failure)
            }
            if !entry.fetching {
                guard let admitted = Self.admit(url, into: &state, policy: policy, now: now) else { return .busy }
                start = admitted
                entry.fetching = true
            }
            entry.waiters.append(waiter)
            return nil
        }
        if case .document(_, _, true) = answer { metrics.recordSourceStale() }
        if start { fetch(url) }
        return answer
    }

    /// How far below a whole token still counts as one (``admit(_:into:policy:now:)``).
    /// A millionth: a year of uptime puts the clock's rounding near 1e-8 tokens.
    static let tokenRounding = 1e-6

    /// A fetch of `url` takes its host's slot (true: start it now) or a place in its queue
    /// (false), or nil when the queue is full.
    private static func admit(_ url: SourceURL, into state: inout State, policy: SourcePolicy, now: Double) -> Bool? {
        let burst = max(policy.fetchesPerSecond, 1)
        var host = state.hosts[url.host] ?? Host(tokens: burst, refilled: now)
        defer { state.hosts[url.host] = host }
        host.tokens = min(burst, host.tokens + (now - host.refilled) * policy.fetchesPerSecond)
        host.refilled = now
        // A whole token to within rounding: the time since the last refill is a difference of
        // two large clock readings, and 0.4 s at 5 a second came out as 1.999… tokens.
        guard host.tokens >= 1 - Self.tokenRounding else { return nil }
        host.tokens = max(0, host.tokens - 1)
        if host.running < policy.perHost {
            host.running += 1
            return true
        }
        guard host.queue.count < policy.queuePerHost else { return nil }
        host.queue.append(url)
        return false
    }

    /// The answer for `url`, waiting for a fetch if need be, up to the fetch's deadline and a
    /// second: for callers with no reply to keep (tests, tools), never on an event loop. Nil
    /// when the fetch did not finish in that time.
    func readWaiting(_ url: SourceURL) -> Answer? {
        let waited = Locked<Answer?>(nil)
        let done = DispatchSemaphore(value: 0)
        let now = read(url) { answer in
            waited.withLock { $0 = answer }
            done.signal()
        }
        if let now { return now }
        _ = done.wait(timeout: .now() + policy.timeout + 1)
        return waited.withLock { $0 }
    }

    private func fetch(_ url: SourceURL) {
        let started = clock()
        fetcher.fetch(url) { [self] result in
            let seconds = clock() - started
            let outcome: Result<(JSONDocument, Int), SourceFailure> = result.flatMap { fetched in
                do throws(JSONDocument.Refusal) {
                    let document = try JSONDocument(fetched.body)
                    // The document may keep its value longer, never shorter, and at most a day.
                    let ttl = max(policy.ttl, min(fetched.maxAge ?? 0, SourcePolicy.longestTTL))
                    return .success((document, ttl))
                } catch {
                    return .failure(SourceFailure(.notJSON, "the document is not JSON: \(error.reason)"))
                }
            }
            metrics.recordSourceFetch(outcome.failureKind, seconds: seconds)
            finish(url, outcome)
        }
    }

    /// Stores a fetch's outcome, answers its waiters, and starts the host's next fetch.
    private func finish(_ url: SourceURL, _ outcome: Result<(JSONDocument, Int), SourceFailure>) {
        let key = url.description
        let now = clock()
        let (waiters, answer, next) = state.withLock { state -> ([Waiter], Answer, SourceURL?) in
            var entry = state.entries[key] ?? Entry()
            let answer: Answer
            state.bytes -= entry.bytes
            switch outcome {
            case .success(let (document, ttl)):
                entry.document = document
                entry.freshUntil = now + Double(ttl)
                entry.staleUntil = entry.freshUntil + Double(policy.stale)
                entry.failure = nil
                entry.bytes = max(document.bytes, Self.failureBytes)
                answer = .document(document, freshFor: ttl, stale: false)
            case .failure(let failure):
                entry.failure = failure
                entry.failedUntil = now + Double(failureSeconds)
                if let document = entry.document, now < entry.staleUntil {
                    answer = .document(document, freshFor: 0, stale: true)
                } else {
                    entry.document = nil
                    entry.bytes = Self.failureBytes
                    answer = .failure(failure)
                }
            }
            state.bytes += entry.bytes
            let waiters = entry.waiters
            entry.waiters = []
            entry.fetching = false
            state.entries[key] = entry
            var host = state.hosts[url.host] ?? Host(tokens: 0, refilled: now)
            var next: SourceURL?
            if host.queue.isEmpty {
                host.running -= 1
            } else {
                next = host.queue.removeFirst()  // the slot passes to it
            }
            // An idle host is kept while its bucket refills: forgetting it would refill it at
            // once. Hosts idle with a full bucket are dropped when there are many.
            state.hosts[url.host] = host
            if state.hosts.count > Self.hostsKept {
                let burst = max(policy.fetchesPerSecond, 1)
                state.hosts = state.hosts.filter { _, host in
                    host.running > 0 || !host.queue.isEmpty
                        || host.tokens + (now - host.refilled) * policy.fetchesPerSecond < burst
                }
            }
            Self.evict(&state, budget: policy.cacheBytes)
            return (waiters, answer, next)
        }
        if case .document(_, _, true) = answer {
            for _ in waiters { metrics.recordSourceStale() }
        }
        if let next { fetch(next) }
        for waiter in waiters { waiter(answer) }
    }

    /// Drops the least recently used entries nobody waits for until the bodies fit `budget`.
    private static func evict(_ state: inout State, budget: Int) {
        guard state.bytes > budget else { return }
        let idle = state.entries.filter { !$0.value.fetching }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, entry) in idle {
            guard state.bytes > budget else { return }
            state.entries[key] = nil
            state.bytes -= entry.bytes
        }
    }

    /// Documents and failures kept now, and the bytes they count.
    var statistics: (entries: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }
}

extension Result where Failure == SourceFailure {
    fileprivate var failureKind: SourceFailure.Kind? {
        if case .failure(let failure) = self { failure.kind } else { nil }
    }
}

/// The time the source cache goes by, in seconds: the monotonic clock, moved forward by
/// ``advance(by:)`` (tests cross a time-to-live without waiting for it). A `frozen` clock
/// moves only so: a test of the fetch rate then does not depend on how fast the machine
/// answers its burst of requests.
package final class SourceClock: Sendable, Equatable {
    private let offset = Locked<Double>(0)
    /// The monotonic time a frozen clock stopped at, or nil for one that runs.
    private let stopped: Double?

    package static let monotonic = SourceClock()

    package init(frozen: Bool = false) {
        stopped = frozen ? MonotonicClock.now() : nil
    }

    /// A clock stopped at `seconds` (tests: a reading whose differences round).
    package init(frozenAt seconds: Double) {
        stopped = seconds
    }

    package func now() -> Double { (stopped ?? MonotonicClock.now()) + offset.withLock { $0 } }

    package func advance(by seconds: Double) { offset.withLock { $0 += seconds } }

    package static func == (left: SourceClock, right: SourceClock) -> Bool { left === right }
}
