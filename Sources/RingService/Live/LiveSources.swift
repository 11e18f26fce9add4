import Dispatch
import HTTPServer
import Primitives
import RingCore

/// The documents live rings read, kept per source URL, and the fetches that refresh them.
///
/// - **One fetch per URL**, whatever the number of requests waiting for it: the first request
///   for a URL with no fresh document starts the fetch, and every request until it ends waits
///   on that one.
/// - **Turns per allowlist entry** (``FetchScheduler``): a new source waits its turn, and is
///   refused only when its entry's queue is full or its wait runs out. A refused refresh
///   serves the last good document when there is one.
/// - A document is **fresh** for `ttl` seconds, or the longer `max-age` it sent (up to a day);
///   then the next request fetches it again. When that refresh fails, the last good document
///   is served, **stale**, for up to `stale` seconds past its freshness.
/// - A failure with no good document is kept for `failureSeconds` (the error image's
///   `max-age`), so a broken source is not fetched on every request, and then forgotten.
/// - Entries are kept within `cacheBytes`, each counted at its real size (the URL, the
///   document, the failure's message and the bookkeeping, ``entryOverhead``); past it the
///   least recently used go, in constant time (``LRUCache``).
///
/// Thread-safe; answers waiting requests on the fetcher's thread, never on an event loop.
final class LiveSources: Sendable {
    /// What a request for a source gets.
    enum Answer: Sendable {
        /// The document, and how long it stays fresh (0 when served stale).
        case document(JSONDocument, freshFor: Int, stale: Bool)
        case failure(SourceFailure)
    }

    typealias Waiter = @Sendable (Answer) -> Void

    /// A source's place in the cache: its URL, placed by Swift's per-process seeded hash.
    struct Key: CacheKey {
        let url: String
        let slot: UInt64
        init(_ url: String) {
            self.url = url
            slot = UInt64(bitPattern: Int64(url.hashValue))
        }
        static func == (left: Key, right: Key) -> Bool { left.url == right.url }
    }

    private struct Entry {
        var document: JSONDocument?
        var freshUntil: Double = 0
        var staleUntil: Double = 0
        var failure: SourceFailure?
        var failedUntil: Double = 0
    }

    private struct State {
        var cache: LRUCache<Key, Entry>
        /// Fetches under way, and who waits for each.
        var pending: [String: [Waiter]] = [:]
        /// Failures in the order they were stored, all kept for the same time, so the oldest
        /// is the first to expire: by their key's slot, not their URL, which would keep every
        /// failing URL alive until its expiry, whatever the cache's budget.
        var failures: [(slot: UInt64, until: Double)] = []
        var failuresHead = 0
    }

    /// What an entry costs beyond its URL, document and message: the LRU node and its place
    /// in the table, the entry's fields, and the strings' and arrays' headers.
    static let entryOverhead = 256

    private let policy: SourcePolicy
    private let failureSeconds: Int
    private let fetcher: SourceFetcher
    private let metrics: Metrics
    private let clock: SourceClock
    private let state: Locked<State>

    init(
        policy: SourcePolicy, failureSeconds: Int, metrics: Metrics, exemptEndpoints: [String] = [],
        clock: SourceClock = .monotonic, lookup: SourceLookup = .system
    ) {
        self.policy = policy
        self.failureSeconds = failureSeconds
        self.fetcher = SourceFetcher(
            policy: policy, exemptEndpoints: exemptEndpoints, lookup: lookup.resolve, clock: clock)
        self.metrics = metrics
        self.clock = clock
        self.state = Locked(State(cache: LRUCache(capacity: policy.cacheBytes)))
    }

    /// Stops fetching: the service is going away (in tests, one service after another).
    deinit { fetcher.stop() }

    /// The answer for `url` now, or nil when it waits for a fetch: `waiter` is then called
    /// once, with the answer, when the fetch ends.
    func read(_ url: SourceURL, waiter: @escaping Waiter) -> Answer? {
        let key = url.description
        let now = clock.now()
        var start = false
        let answer = state.withLock { state -> Answer? in
            Self.expireFailures(&state, now: now)
            if state.pending[key] != nil {
                state.pending[key]!.append(waiter)
                return nil
            }
            if let entry = state.cache.value(for: Key(key)) {
                if let document = entry.document, now < entry.freshUntil {
                    return .document(document, freshFor: Int((entry.freshUntil - now).rounded()), stale: false)
                }
                if let failure = entry.failure, now < entry.failedUntil {
                    if let document = entry.document, now < entry.staleUntil {
                        return .document(document, freshFor: 0, stale: true)
                    }
                    return .failure(failure)
                }
            }
            state.pending[key] = [waiter]
            start = true
            return nil
        }
        if case .document(_, _, true) = answer { metrics.recordSourceStale() }
        if start { fetch(url) }
        return answer
    }

    /// The answer for `url`, waiting for a fetch if need be, up to its longest wait and
    /// deadline and a second: for callers with no reply to keep (tests, tools), never on an
    /// event loop. Nil when the fetch did not finish in that time.
    func readWaiting(_ url: SourceURL) -> Answer? {
        let waited = Locked<Answer?>(nil)
        let done = DispatchSemaphore(value: 0)
        let now = read(url) { answer in
            waited.withLock { $0 = answer }
            done.signal()
        }
        if let now { return now }
        _ = done.wait(timeout: .now() + policy.queueWait + policy.timeout + 1)
        return waited.withLock { $0 }
    }

    private func fetch(_ url: SourceURL) {
        let started = clock.now()
        fetcher.fetch(url) { [self] result in
            let seconds = clock.now() - started
            let outcome: Result<(JSONDocument, Int), SourceFailure> = result.flatMap { fetched in
                do throws(JSONDocument.Refusal) {
                    let document = try JSONDocument(fetched.body)
                    // The document may keep its value longer, never shorter, and at most a day:
                    // by its Cache-Control, or as a shields endpoint by its cacheSeconds.
                    let asked = max(fetched.maxAge ?? 0, document.endpoint?.cacheSeconds ?? 0)
                    let ttl = max(policy.ttl, min(asked, SourcePolicy.longestTTL))
                    return .success((document, ttl))
                } catch {
                    return .failure(SourceFailure(.notJSON, "the document is not JSON: \(error.reason)"))
                }
            }
            metrics.recordSourceFetch(outcome.failureKind, seconds: seconds)
            finish(url, outcome)
        }
    }

    /// Stores a fetch's outcome and answers its waiters.
    private func finish(_ url: SourceURL, _ outcome: Result<(JSONDocument, Int), SourceFailure>) {
        let key = url.description
        let now = clock.now()
        let (waiters, answer) = state.withLock { state -> ([Waiter], Answer) in
            let waiters = state.pending.removeValue(forKey: key) ?? []
            let previous = state.cache.value(for: Key(key))
            var entry = previous ?? Entry()
            let answer: Answer
            switch outcome {
            case .success(let (document, ttl)):
                entry = Entry(
                    document: document, freshUntil: now + Double(ttl),
                    staleUntil: now + Double(ttl) + Double(policy.stale))
                answer = .document(document, freshFor: ttl, stale: false)
            case .failure(let failure):
                let stale = entry.document.flatMap { now < entry.staleUntil ? $0 : nil }
                if failure.kind == .busy {
                    // Not the source's fault: nothing is stored, and the next request tries again.
                    return (waiters, stale.map { .document($0, freshFor: 0, stale: true) } ?? .failure(failure))
                }
                entry.document = stale
                entry.failure = failure
                entry.failedUntil = now + Double(failureSeconds)
                answer = stale.map { .document($0, freshFor: 0, stale: true) } ?? .failure(failure)
                state.failures.append((Key(key).slot, entry.failedUntil))
            }
            state.cache.insert(entry, for: Key(key), cost: Self.cost(of: entry, url: key))
            Self.expireFailures(&state, now: now)
            return (waiters, answer)
        }
        if case .document(_, _, true) = answer {
            for _ in waiters { metrics.recordSourceStale() }
        }
        for waiter in waiters { waiter(answer) }
    }

    /// What `entry` counts against the cache's bytes.
    private static func cost(of entry: Entry, url: String) -> Int {
        entryOverhead + url.utf8.count + (entry.document?.bytes ?? 0) + (entry.failure?.message.utf8.count ?? 0)
    }

    /// Forgets failures past their time that no document stands behind. Each failure is
    /// looked at once, oldest first.
    private static func expireFailures(_ state: inout State, now: Double) {
        while state.failuresHead < state.failures.count, state.failures[state.failuresHead].until <= now {
            let (slot, until) = state.failures[state.failuresHead]
            state.failuresHead += 1
            // Only the failure this record stored: a later fetch may have replaced it.
            state.cache.removeValue(slot: slot) { $0.failedUntil == until && $0.document == nil }
        }
        if state.failuresHead == state.failures.count {
            state.failures.removeAll(keepingCapacity: state.failures.count < 1024)
            state.failuresHead = 0
        } else if state.failuresHead >= 1024 && state.failuresHead * 2 >= state.failures.count {
            state.failures.removeFirst(state.failuresHead)
            state.failuresHead = 0
        }
    }

    /// Entries kept now (fetches under way count too), and the bytes they count.
    var statistics: (entries: Int, bytes: Int) {
        state.withLock { ($0.cache.count + $0.pending.count, $0.cache.totalCost) }
    }
}

extension Result where Failure == SourceFailure {
    fileprivate var failureKind: SourceFailure.Kind? {
        if case .failure(let failure) = self { failure.kind } else { nil }
    }
}

/// How source names are resolved: a lookup, compared by identity so that the configuration
/// holding it stays `Equatable`.
package final class SourceLookup: Sendable, Equatable {
    package typealias Function = @Sendable (_ host: String, _ port: Int) -> Result<[SourceAddress], SourceFailure>
    let resolve: Function

    package init(_ resolve: @escaping Function) { self.resolve = resolve }

    /// The system's resolver (`getaddrinfo`).
    package static let system = SourceLookup { host, port in SourceAddress.resolve(host, port: port) }

    package static func == (left: SourceLookup, right: SourceLookup) -> Bool { left === right }
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
