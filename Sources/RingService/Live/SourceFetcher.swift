import CCurl
import CSystem
import Foundation
import HTTPServer
import Primitives
import RingCore

/// Fetches source documents with the system's libcurl, driven by one thread of its own
/// (`ring-sources`), through its multi interface.
///
/// Why libcurl and not URLSession (docs/reliability.md has the measurements): URLSession
/// resolves a name again after any check of ours, has no deadline over name lookup, runs on
/// libdispatch's global threads (which die when a thread cannot open /proc under EMFILE), and
/// traps when a redirect's answer comes after its own timer.
///
/// Every fetch:
/// - waits its turn (``FetchScheduler``): per allowlist entry, `--source-per-host` running,
///   `--source-rate` a second, `--source-queue` waiting for at most `--source-queue-wait`;
/// - has one deadline, `--source-timeout` from its start, over every hop's name lookup
///   (``SourceResolver``, threads of its own), connection, and body;
/// - connects only to the addresses it checked: the checked list is handed to libcurl
///   (`CURLOPT_RESOLVE`), which never resolves the name itself, and the socket callback
///   refuses any other address, so a name that answers differently the second time reaches
///   nothing;
/// - follows redirects one hop at a time, each hop checked as the first URL was;
/// - sends `Host`, `User-Agent: ring/VERSION` and `Accept: application/json`, nothing else: no
///   proxy from the environment, no cookies, no compression;
/// - stops at the byte past `--source-max-bytes`, or before any byte when `Content-Length`
///   says so.
final class SourceFetcher: Sendable {
    /// A document read: its body and the `max-age` it asked for, if any.
    struct Fetched: Sendable {
        var body: [UInt8]
        var maxAge: Int?
    }

    typealias Completion = @Sendable (Result<Fetched, SourceFailure>) -> Void

    private let engine: Engine

    /// - Parameters:
    ///   - exemptEndpoints: addresses (`127.0.0.1:8123`) let through the address check whatever
    ///     their kind: the tests' own document server on loopback, so that redirects from it
    ///     meet the check.
    ///   - lookup: how names are resolved (tests: a resolver that is slow, silent or rebinds).
    init(
        policy: SourcePolicy, exemptEndpoints: [String] = [], lookup: @escaping SourceResolver.Lookup,
        clock: SourceClock
    ) {
        engine = Engine(policy: policy, exemptEndpoints: exemptEndpoints, lookup: lookup, clock: clock)
    }

    /// Fetches `url`, calling `completion` once, on the fetcher's thread. Never blocks.
    func fetch(_ url: SourceURL, completion: @escaping Completion) {
        engine.post(.submit(url, completion))
    }

    /// Ends the fetcher's thread: what waits or runs is answered with a failure.
    func stop() { engine.post(.stop) }

    /// `max-age` of a `Cache-Control` value, if it has one.
    static func maxAge(_ value: String) -> Int? {
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return seconds
            }
        }
        return nil
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// libcurl's global set-up, once per process, before the first multi handle (libcurl 7.84 and
/// later make it thread-safe; FoundationNetworking may call it too).
private let curlReady: Bool = ccurl_global_init() == 0

extension SourceFetcher {
    /// What crosses to the fetcher's thread.
    fileprivate enum Message {
        case submit(SourceURL, Completion)
        case resolved(fetch: Int, lookup: Int, Result<[SourceAddress], SourceFailure>)
        case stop
    }

    /// One fetch, from its queueing to its last hop. Touched only on the fetcher's thread,
    /// libcurl's callbacks included (they run inside `curl_multi_perform`).
    fileprivate final class Fetch {
        let id: Int
        let first: SourceURL
        let completion: Completion
        let maxBytes: Int
        var entry = ""
        var url: SourceURL
        var deadline = Double.infinity
        var hops = 0
        /// The lookup under way, or nil.
        var lookup: Int?
        /// The libcurl transfer under way, or nil.
        var transfer: UnsafeMutableRawPointer?
        /// The addresses checked for this hop: the only ones a socket may be opened to.
        var checked: [SourceAddress] = []
        /// The line that removes this hop's entry from libcurl's DNS cache once it ends.
        var resolved: String?
        /// Why the socket callback refused an address.
        var refusal: SourceFailure?
        var body: [UInt8] = []
        var tooLarge = false
        var maxAge: Int?

        init(id: Int, url: SourceURL, maxBytes: Int, completion: @escaping Completion) {
            self.id = id
            self.first = url
            self.url = url
            self.maxBytes = maxBytes
            self.completion = completion
        }
    }

    /// The thread and its state. `@unchecked Sendable`: everything but `inbox` is touched on
    /// the fetcher's thread only; `inbox` is locked, and `curl_multi_wakeup` may be called
    /// from any thread.
    fileprivate final class Engine: @unchecked Sendable {
        private let policy: SourcePolicy
        private let exemptEndpoints: [String]
        private let clock: SourceClock
        private let resolver: SourceResolver
        private let multi: UnsafeMutableRawPointer?
        private struct Inbox {
            var messages: [Message] = []
            var started = false
            var stopped = false
        }
        private let inbox = Locked(Inbox())
        private var scheduler: FetchScheduler<Fetch>
        private var fetches: [Int: Fetch] = [:]
        private var nextID = 0
        private var stopping = false
        /// `-host:port` lines for libcurl's DNS cache, of hops that have ended.
        private var purges: [String] = []

        init(
            policy: SourcePolicy, exemptEndpoints: [String], lookup: @escaping SourceResolver.Lookup, clock: SourceClock
        ) {
            self.policy = policy
            self.exemptEndpoints = exemptEndpoints
            self.clock = clock
            resolver = SourceResolver(
                threads: policy.resolvers,
                perEntry: SourceResolver.perEntry(resolvers: policy.resolvers, perHost: policy.perHost),
                lookup: lookup)
            multi = curlReady ? ccurl_multi_new() : nil
            scheduler = FetchScheduler(
                perEntry: policy.perHost, queueLimit: policy.queuePerHost, rate: policy.fetchesPerSecond,
                wait: policy.queueWait)
        }

        deinit { if let multi { ccurl_multi_free(multi) } }

        /// Hands `message` to the thread, starting it on the first fetch.
        func post(_ message: Message) {
            let start = inbox.withLock { inbox -> Bool? in
                guard !inbox.stopped else { return nil }
                if case .stop = message { inbox.stopped = true }
                inbox.messages.append(message)
                defer { inbox.started = true }
                return !inbox.started
            }
            guard let start else {
                if case .submit(_, let completion) = message {
                    completion(.failure(SourceFailure(.busy, "the server is stopping")))
                }
                return
            }
            if start {
                guard case .submit = message else { return }  // stopped before any fetch
                let thread = Thread { [self] in run() }
                thread.name = "ring-sources"
                thread.start()
            } else if let multi {
                _ = ccurl_multi_wakeup(multi)
            }
        }

        private func run() {
            _ = csystem_set_thread_name("ring-sources")
            guard let multi else {
                // libcurl could not start: every fetch fails, named.
                while true {
                    let messages = inbox.withLock { inbox in
                        defer { inbox.messages = [] }
                        return inbox.messages
                    }
                    for case .submit(_, let completion) in messages {
                        completion(.failure(SourceFailure(.network, "libcurl could not be initialised")))
                    }
                    if messages.contains(where: { if case .stop = $0 { true } else { false } }) { return }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            while true {
                let messages = inbox.withLock { inbox in
                    defer { inbox.messages = [] }
                    return inbox.messages
                }
                for message in messages { handle(message) }
                if stopping {
                    shutDown(multi)
                    return
                }
                let now = clock.now()
                for fetch in scheduler.expired(now: now) {
                    complete(
                        fetch,
                        .failure(
                            SourceFailure(
                                .busy,
                                "no turn to fetch within \(SourceFetcher.seconds(policy.queueWait)) "
                                    + "(--source-queue-wait); \(fetch.entry) is busy")))
                }
                while let (fetch, entry) = scheduler.next(now: now) {
                    fetch.entry = entry
                    fetch.deadline = now + policy.timeout
                    begin(fetch, hop: fetch.first)
                }
                for fetch in fetches.values where fetch.lookup != nil && fetch.deadline <= now {
                    resolver.cancel(fetch.lookup!)
                    fetch.lookup = nil
                    complete(fetch, .failure(timedOut))
                }
                _ = ccurl_multi_perform(multi)
                var result: Int32 = 0
                while let transfer = ccurl_multi_next_done(multi, &result) {
                    finished(transfer, result: result, multi: multi)
                }
                _ = ccurl_multi_poll(multi, pollMilliseconds(now: clock.now()))
            }
        }

        private var timedOut: SourceFailure {
            SourceFailure(.timeout, "timed out after \(SourceFetcher.seconds(policy.timeout)) (--source-timeout)")
        }

        /// How long the thread may sleep: until a queued fetch's turn or limit, or a lookup's
        /// deadline, and never more than a second. libcurl wakes it earlier for its own timers.
        private func pollMilliseconds(now: Double) -> Int32 {
            var until = now + 1
            if let event = scheduler.nextEvent(now: now) { until = min(until, event) }
            for fetch in fetches.values where fetch.lookup != nil { until = min(until, fetch.deadline) }
            return Int32(max(0, min(1000, ((until - now) * 1000).rounded(.up))))
        }

        private func handle(_ message: Message) {
            switch message {
            case .submit(let url, let completion):
                nextID += 1
                let fetch = Fetch(id: nextID, url: url, maxBytes: policy.maxBytes, completion: completion)
                let entry = policy.entry(allowing: url.host) ?? url.host
                guard scheduler.submit(fetch, entry: entry, now: clock.now()) else {
                    fetch.entry = entry
                    completion(
                        .failure(
                            SourceFailure(
                                .busy, "\(policy.queuePerHost) fetches already wait for \(entry) (--source-queue)")))
                    return
                }
                fetch.entry = entry
            case .resolved(let id, let lookup, let result):
                // Not the hop's lookup any more when the fetch timed out meanwhile.
                guard let fetch = fetches[id], fetch.lookup == lookup else { return }
                fetch.lookup = nil
                switch result {
                case .failure(let failure): complete(fetch, .failure(hopFailure(fetch, failure)))
                case .success(let addresses): connect(fetch, to: addresses)
                }
            case .stop:
                stopping = true
            }
        }

        /// Starts a hop: the policy's word on the URL, then its addresses, literal or looked up.
        private func begin(_ fetch: Fetch, hop url: SourceURL) {
            fetches[fetch.id] = fetch
            fetch.url = url
            fetch.checked = []
            fetch.refusal = nil
            if let refusal = policy.refusal(of: url) {
                complete(fetch, .failure(hopFailure(fetch, SourceFailure(.refused, refusal))))
                return
            }
            if let literal = SourceAddress(literal: url.host) {
                connect(fetch, to: [literal])
                return
            }
            // Each lookup has a number of its own, so that a late answer to an earlier hop is
            // not taken for the current one's.
            nextID += 1
            let lookup = nextID
            let id = fetch.id
            fetch.lookup = lookup
            resolver.resolve(url.host, port: url.effectivePort, entry: fetch.entry, id: lookup) { [self] result in
                post(.resolved(fetch: id, lookup: lookup, result))
            }
        }

        /// A failure of a redirect's hop says which hop.
        private func hopFailure(_ fetch: Fetch, _ failure: SourceFailure) -> SourceFailure {
            guard fetch.hops > 0 else { return failure }
            return SourceFailure(failure.kind, "a redirect to \(fetch.url): \(failure.message)")
        }

        /// Judges the addresses of the hop's host and starts the transfer to them.
        private func connect(_ fetch: Fetch, to addresses: [SourceAddress]) {
            let url = fetch.url
            let port = url.effectivePort
            if !policy.allowPrivate {
                for address in addresses where !exemptEndpoints.contains("\(address):\(port)") {
                    if let reason = SourceAddress.refusal(of: address, host: url.host) {
                        complete(fetch, .failure(hopFailure(fetch, SourceFailure(.refused, reason))))
                        return
                    }
                }
            }
            fetch.checked = addresses
            fetch.body = []
            fetch.maxAge = nil
            fetch.tooLarge = false
            let remaining = fetch.deadline - clock.now()
            guard remaining > 0 else {
                complete(fetch, .failure(timedOut))
                return
            }
            // libcurl keeps a CURLOPT_RESOLVE entry for as long as the multi handle lives, so the
            // entries of finished hops are removed by the next transfer's list: without that, every
            // distinct name a wildcard entry allows would stay in its DNS cache for good.
            var lines = purges
            purges = []
            if SourceAddress(literal: url.host) == nil {
                lines.append(
                    "\(url.host):\(port):"
                        + addresses.map { $0.bytes.count == 16 ? "[\($0)]" : "\($0)" }.joined(separator: ","))
                fetch.resolved = "-\(url.host):\(port)"
            }
            let resolve: String? = lines.isEmpty ? nil : lines.joined(separator: "\n")
            let context = Unmanaged.passUnretained(fetch).toOpaque()
            let transfer = url.description.withCString { urlText in
                (policy.allowHTTP ? "http,https" : "https").withCString { protocols in
                    "ring/\(RingService.version)".withCString { agent in
                        "Accept: application/json".withCString { accept in
                            withOptionalCString(resolve) { resolveText in
                                var request = ccurl_request(
                                    url: urlText, resolve: resolveText, protocols: protocols, user_agent: agent,
                                    accept: accept, timeout_ms: max(1, Int((remaining * 1000).rounded(.up))),
                                    max_bytes: Int64(policy.maxBytes), context: context, body: receiveBody,
                                    header: receiveHeader, check_address: checkAddress)
                                return ccurl_transfer_new(&request)
                            }
                        }
                    }
                }
            }
            guard let transfer, let multi, ccurl_multi_add(multi, transfer) == 0 else {
                if let transfer, let multi { ccurl_multi_remove(multi, transfer) }
                complete(fetch, .failure(SourceFailure(.network, "the fetch could not be set up")))
                return
            }
            fetch.transfer = transfer
        }

        /// A transfer ended: the document, the next hop, or why not.
        private func finished(_ transfer: UnsafeMutableRawPointer, result: Int32, multi: UnsafeMutableRawPointer) {
            let fetch = Unmanaged<Fetch>.fromOpaque(ccurl_transfer_context(transfer)).takeUnretainedValue()
            let status = ccurl_transfer_status(transfer)
            let location = ccurl_transfer_redirect(transfer).map { String(cString: $0) }
            ccurl_multi_remove(multi, transfer)
            fetch.transfer = nil
            if let line = fetch.resolved {
                purges.append(line)
                fetch.resolved = nil
            }
            let outcome: Result<Fetched, SourceFailure>
            switch Int(result) {
            case Int(CCURL_OK):
                if (200..<300).contains(status) {
                    outcome = .success(Fetched(body: fetch.body, maxAge: fetch.maxAge))
                } else if (300..<400).contains(status), let location {
                    redirect(fetch, to: location)
                    return
                } else {
                    outcome = .failure(
                        hopFailure(fetch, SourceFailure(.status, "the document answered HTTP \(status)")))
                }
            case Int(CCURL_FILESIZE_EXCEEDED):
                outcome = .failure(tooLarge)
            case Int(CCURL_WRITE_ERROR) where fetch.tooLarge:
                outcome = .failure(tooLarge)
            case Int(CCURL_OPERATION_TIMEDOUT):
                outcome = .failure(timedOut)
            case _ where fetch.refusal != nil:
                outcome = .failure(hopFailure(fetch, fetch.refusal!))
            default:
                let text = String(cString: ccurl_result_text(result))
                outcome = .failure(
                    hopFailure(
                        fetch,
                        SourceFailure(
                            .network, "the document could not be fetched (\(RingService.headerSafe(text)))")))
            }
            complete(fetch, outcome)
        }

        private var tooLarge: SourceFailure {
            SourceFailure(.tooLarge, "the document is larger than \(policy.maxBytes) bytes (--source-max-bytes)")
        }

        private func redirect(_ fetch: Fetch, to location: String) {
            fetch.hops += 1
            guard fetch.hops <= policy.maxRedirects else {
                complete(
                    fetch,
                    .failure(SourceFailure(.refused, "more than \(policy.maxRedirects) redirects (--source-redirects)"))
                )
                return
            }
            let next: SourceURL
            do throws(RingSpecError) {
                next = try SourceURL(location, "src")
            } catch {
                complete(
                    fetch,
                    .failure(
                        SourceFailure(
                            .refused, "a redirect to \(RingService.headerSafe(location)) is not a source URL")))
                return
            }
            begin(fetch, hop: next)
        }

        /// Ends `fetch`: its slot passes on, and its waiters hear the outcome.
        private func complete(_ fetch: Fetch, _ outcome: Result<Fetched, SourceFailure>) {
            if fetches.removeValue(forKey: fetch.id) != nil { scheduler.finished(entry: fetch.entry) }
            if let lookup = fetch.lookup {
                resolver.cancel(lookup)
                fetch.lookup = nil
            }
            fetch.completion(outcome)
        }

        private func shutDown(_ multi: UnsafeMutableRawPointer) {
            let stopped = SourceFailure(.busy, "the server is stopping")
            for fetch in scheduler.drain() { fetch.completion(.failure(stopped)) }
            for fetch in Array(fetches.values) {
                if let transfer = fetch.transfer {
                    ccurl_multi_remove(multi, transfer)
                    fetch.transfer = nil
                }
                complete(fetch, .failure(stopped))
            }
            resolver.stop()
        }
    }
}

/// `text` as a C string for `body`, or NULL.
private func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// libcurl's body callback: appends to the fetch's body, and stops at the byte past the limit.
private let receiveBody: ccurl_data_function = { data, size, count, context in
    guard let data, let context else { return 0 }
    let fetch = Unmanaged<SourceFetcher.Fetch>.fromOpaque(context).takeUnretainedValue()
    let bytes = size * count
    guard fetch.body.count + bytes <= fetch.maxBytes else {
        fetch.tooLarge = true
        return 0
    }
    fetch.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: bytes))
    return bytes
}

/// libcurl's header callback: a status line starts a response afresh (a `100 Continue` may
/// come first); `Cache-Control` gives the document's `max-age`.
private let receiveHeader: ccurl_data_function = { data, size, count, context in
    guard let data, let context else { return 0 }
    let fetch = Unmanaged<SourceFetcher.Fetch>.fromOpaque(context).takeUnretainedValue()
    let bytes = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: bytes), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        fetch.maxAge = nil
    } else if let colon = line.firstIndex(of: ":"),
        line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "cache-control"
    {
        fetch.maxAge = SourceFetcher.maxAge(String(line[line.index(after: colon)...]))
    }
    return bytes
}

/// libcurl's check before a socket is opened: only an address this hop checked.
private let checkAddress: ccurl_address_function = { context, address, length in
    guard let context, let address else { return 0 }
    let fetch = Unmanaged<SourceFetcher.Fetch>.fromOpaque(context).takeUnretainedValue()
    guard let connected = SourceAddress(socketAddress: address, length: Int(length)) else { return 0 }
    guard fetch.checked.contains(connected) else {
        fetch.refusal = SourceFailure(
            .refused, "\(fetch.url.host) led to \(connected), which is not the address that was checked")
        return 0
    }
    return 1
}
