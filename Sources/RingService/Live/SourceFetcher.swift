import Dispatch
import Foundation
import HTTPServer
import RingCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches source documents with the toolchain's `URLSession` (FoundationNetworking on
/// Linux), checking every hop against the ``SourcePolicy``.
///
/// - Before the request, and again in the redirect delegate for every hop: the scheme, the
///   allowlist, and every address the host resolves to. At most `maxRedirects` hops.
/// - Nothing of the caller's is sent: an ephemeral session with no cookie store, no
///   credential store and no cache; every request is built here, with `User-Agent: ring/VERSION`
///   and `Accept: application/json` only, and an authentication challenge is cancelled.
/// - The body is read as it streams in and the fetch stops at the byte past `maxBytes`; a
///   `Content-Length` past it stops it before any byte.
/// - One deadline for the whole fetch, name resolution and redirects included.
///
/// `URLSession` connects by itself, resolving the name again, so the address it connects to
/// is not pinned to the one checked: an allowed host whose DNS an attacker controls could
/// answer differently the second time. That gap, and why the allowlist is mandatory, is in
/// docs/reliability.md.
final class SourceFetcher: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // state under `tasks`' lock
    /// A document read: its body and the `max-age` it asked for, if any.
    struct Fetched: Sendable {
        var body: [UInt8]
        var maxAge: Int?
    }

    typealias Completion = @Sendable (Result<Fetched, SourceFailure>) -> Void

    private let policy: SourcePolicy
    /// Addresses (`127.0.0.1:8123`) let through the address check whatever their kind: for
    /// the tests' own JSON server on loopback, so that redirects from it meet the check.
    private let exemptEndpoints: [String]
    private var session: URLSession!
    private let tasks = Locked<[Int: Task]>([:])
    /// What FoundationNetworking needs of a cancel around a redirect: it traps when a task
    /// that waits for the redirect's answer is cancelled before the answer comes, or answered
    /// after it was cancelled. So a cancel while a redirect is being decided waits for the
    /// answer (`cancelAfter`), and a redirect of a task already cancelled is never answered
    /// (the cancel completes the task).
    private struct Redirects {
        var deciding: Set<Int> = []
        var cancelAfter: Set<Int> = []
        var cancelled: Set<Int> = []
    }
    private let redirecting = Locked(Redirects())
    private let queue = DispatchQueue(label: "ring.sources", attributes: .concurrent)

    private struct Task {
        var body: [UInt8] = []
        var redirects = 0
        var maxAge: Int?
        var failure: SourceFailure?
        var completion: Completion?
    }

    init(policy: SourcePolicy, exemptEndpoints: [String] = []) {
        self.policy = policy
        self.exemptEndpoints = exemptEndpoints
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The deadline is ours (`fetch`), cancelling safely around redirects; URLSession's own
        // timers, which do not, only back it up.
        configuration.timeoutIntervalForRequest = policy.timeout + 5
        configuration.timeoutIntervalForResource = policy.timeout + 5
        configuration.httpMaximumConnectionsPerHost = policy.perHost
        // One at a time: a task's events (response, data, completion) must arrive in order.
        // The one slow step, a redirect's name resolution, is done off this queue.
        let delegates = OperationQueue()
        delegates.name = "ring.sources.delegate"
        delegates.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegates)
    }

    /// Cancels what is under way and lets the session go: it holds its delegate, this
    /// fetcher, until then.
    /// Lets the session go once its tasks end (each within its deadline): cancelling them
    /// here could cancel one that waits for a redirect's answer, which FoundationNetworking
    /// does not survive.
    func invalidate() { session.finishTasksAndInvalidate() }

    /// Fetches `url`, calling `completion` once, on a thread of its own. Never blocks the
    /// caller: the name is resolved on the fetcher's queue.
    func fetch(_ url: SourceURL, completion: @escaping Completion) {
        queue.async { [self] in
            let deadline = DispatchTime.now() + policy.timeout
            if let refusal = check(url) {
                completion(.failure(refusal))
                return
            }
            guard let address = URL(string: url.description) else {
                completion(.failure(SourceFailure(.refused, "\(url) is not a URL")))
                return
            }
            let task = session.dataTask(with: request(for: address))
            let identifier = task.taskIdentifier
            tasks.withLock { $0[identifier] = Task(completion: completion) }
            task.resume()
            // The whole fetch's deadline, redirects and a slow body included.
            queue.asyncAfter(deadline: deadline) { [self] in
                fail(identifier, SourceFailure(.timeout, "timed out after \(Self.seconds(policy.timeout))"))
                cancel(task)
            }
        }
    }

    /// The request for a hop: built here, so nothing but these two headers is ever sent.
    private func request(for url: URL) -> URLRequest {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: policy.timeout + 5)
        request.httpShouldHandleCookies = false
        request.setValue("ring/\(RingService.version)", forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// Why `url` may not be fetched: the policy, then the addresses its host resolves to.
    /// Blocks on name resolution.
    func check(_ url: SourceURL) -> SourceFailure? {
        if let refusal = policy.refusal(of: url) { return SourceFailure(.refused, refusal) }
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        switch SourceAddress.resolve(url.host, port: port) {
        case .failure(let failure):
            return failure
        case .success(let addresses):
            guard !policy.allowPrivate else { return nil }
            for address in addresses where !exemptEndpoints.contains("\(address):\(port)") {
                if let restriction = address.restriction {
                    return SourceFailure(.refused, "\(url.host) resolves to \(address), a \(restriction) address")
                }
                if SourceAddress.own.contains(address) {
                    return SourceFailure(.refused, "\(url.host) resolves to \(address), an address of this server")
                }
            }
            return nil
        }
    }

    /// Records the first failure of a task and completes it; later events are ignored.
    private func fail(_ identifier: Int, _ failure: SourceFailure) {
        let completion = tasks.withLock { tasks -> Completion? in
            guard var task = tasks.removeValue(forKey: identifier) else { return nil }
            task.failure = failure
            return task.completion
        }
        completion?(.failure(failure))
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    // MARK: URLSession delegate

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let identifier = task.taskIdentifier
        let handler = Handoff(completionHandler)
        let cancelled = redirecting.withLock { state -> Bool in
            guard !state.cancelled.contains(identifier) else { return true }
            state.deciding.insert(identifier)
            return false
        }
        guard !cancelled else { return }
        let hops = tasks.withLock { tasks -> Int? in
            guard tasks[identifier] != nil else { return nil }
            tasks[identifier]!.redirects += 1
            return tasks[identifier]!.redirects
        }
        guard let hops else {
            answer(task, handler, .failure(SourceFailure(.refused, "the fetch ended")))
            return
        }
        guard hops <= policy.maxRedirects else {
            answer(task, handler, .failure(SourceFailure(.refused, "more than \(policy.maxRedirects) redirects")))
            return
        }
        let text = request.url?.absoluteString ?? ""
        // Resolving the next host may take a while: not on the delegate queue, which every
        // fetch's events share in order. URLSession waits for the handler.
        queue.async { [self] in
            answer(task, handler, redirect(to: text))
        }
    }

    /// Answers a redirect, first: the next hop's request, or nil to stop there
    /// (FoundationNetworking then completes the task with the redirect's own response). Then
    /// records the failure, which completes the fetch for its waiters, and carries out any
    /// cancel that waited for the answer. In that order, so that nothing the failure lets go
    /// (a service, its session) can cancel the task before it has its answer.
    private func answer(
        _ task: URLSessionTask, _ handler: Handoff<(URLRequest?) -> Void>, _ next: Result<URLRequest, SourceFailure>
    ) {
        handler.value(try? next.get())
        let identifier = task.taskIdentifier
        let waited = redirecting.withLock { state -> Bool in
            state.deciding.remove(identifier)
            guard state.cancelAfter.remove(identifier) != nil else { return false }
            state.cancelled.insert(identifier)
            return true
        }
        if case .failure(let failure) = next { fail(identifier, failure) }
        if waited { task.cancel() }
    }

    /// Cancels `task` now, or once its redirect is answered.
    private func cancel(_ task: URLSessionTask) {
        let now = redirecting.withLock { state -> Bool in
            guard !state.deciding.contains(task.taskIdentifier) else {
                state.cancelAfter.insert(task.taskIdentifier)
                return false
            }
            state.cancelled.insert(task.taskIdentifier)
            return true
        }
        if now { task.cancel() }
    }

    /// A URLSession completion handler carried to another queue: URLSession lets it be
    /// called from any thread, once.
    private struct Handoff<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// The request for a redirect's hop, or why it is refused.
    private func redirect(to text: String) -> Result<URLRequest, SourceFailure> {
        let next: SourceURL
        do throws(RingSpecError) {
            next = try SourceURL(text, "src")
        } catch {
            return .failure(
                SourceFailure(.refused, "a redirect to \(RingService.headerSafe(text)) is not a source URL"))
        }
        if let refusal = check(next) {
            return .failure(SourceFailure(.refused, "a redirect to \(next): \(refusal.message)"))
        }
        guard let url = URL(string: next.description) else {
            return .failure(SourceFailure(.refused, "a redirect to \(next) is not a URL"))
        }
        return .success(request(for: url))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let identifier = dataTask.taskIdentifier
        guard let http = response as? HTTPURLResponse else {
            fail(identifier, SourceFailure(.network, "the answer is not HTTP"))
            completionHandler(.cancel)
            return
        }
        guard (200..<300).contains(http.statusCode) else {
            fail(identifier, SourceFailure(.status, "the document answered HTTP \(http.statusCode)"))
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(policy.maxBytes) {
            fail(identifier, SourceFailure(.tooLarge, "the document is larger than \(policy.maxBytes) bytes"))
            completionHandler(.cancel)
            return
        }
        let maxAge = (http.value(forHTTPHeaderField: "Cache-Control")).flatMap(Self.maxAge)
        tasks.withLock { $0[identifier]?.maxAge = maxAge }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let identifier = dataTask.taskIdentifier
        let tooLarge = tasks.withLock { tasks -> Bool in
            guard tasks[identifier] != nil else { return false }
            tasks[identifier]!.body.append(contentsOf: data)
            return tasks[identifier]!.body.count > policy.maxBytes
        }
        if tooLarge {
            fail(identifier, SourceFailure(.tooLarge, "the document is larger than \(policy.maxBytes) bytes"))
            cancel(dataTask)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let identifier = task.taskIdentifier
        redirecting.withLock { _ = $0.cancelled.remove(identifier) }
        guard let finished = tasks.withLock({ $0.removeValue(forKey: identifier) }),
            let completion = finished.completion
        else { return }
        if let error {
            let code = (error as NSError).code
            let failure =
                code == NSURLErrorTimedOut
                ? SourceFailure(.timeout, "timed out after \(Self.seconds(policy.timeout))")
                : SourceFailure(.network, "the document could not be fetched (\(Self.reason(error)))")
            completion(.failure(failure))
            return
        }
        if let response = task.response as? HTTPURLResponse, !(200..<300).contains(response.statusCode) {
            // A redirect that was not followed ends here with its own status.
            completion(.failure(SourceFailure(.status, "the document answered HTTP \(response.statusCode)")))
            return
        }
        completion(.success(Fetched(body: finished.body, maxAge: finished.maxAge)))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // The server's certificate is checked as usual; no credential is ever offered. (The
        // constant's name is its value: swift-corelibs-foundation does not declare it.)
        if challenge.protectionSpace.authenticationMethod == "NSURLAuthenticationMethodServerTrust" {
            completionHandler(.performDefaultHandling, nil)
        } else {
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    /// A short, header-safe reason for a transport error.
    private static func reason(_ error: any Error) -> String {
        let text = (error as NSError).localizedDescription
        return RingService.headerSafe(String(text.prefix(80)))
    }

    /// `max-age` of a `Cache-Control` value, if it has one.
    static func maxAge(_ value: String) -> Int? {
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return seconds
            }
        }
        return nil
    }
}
