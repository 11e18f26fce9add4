import Dispatch
import Foundation
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 server: one event loop per core, each with its own listening socket
/// (`SO_REUSEPORT`), all calling one ``HTTPResponder``.
///
/// ```swift
/// let server = Server(configuration: configuration, responder: MyResponder())
/// server.shutdownOnSignals()  // first: libdispatch opens its signal descriptor lazily
/// let port = try server.start()
/// server.wait()
/// ```
package final class Server: Sendable {
    package let configuration: ServerConfiguration
    package let statistics: ServerStatistics
    private let responder: any HTTPResponder
    private let state = Locked(State())
    private let finished = DispatchGroup()
    /// Where the deadline timer and the signal sources run. A private serial queue, never a
    /// global one: on Linux, libdispatch checks the workers of its global concurrent queues once
    /// a second by opening `/proc/<tid>/stat`, and aborts the process if that open fails — as it
    /// does when a connection flood has taken every descriptor. Serial queues run on
    /// "overcommit" workers, which it does not check (see docs/architecture.md).
    private let events = DispatchQueue(label: "http-server.events")

    private struct State: @unchecked Sendable {  // event loops are thread-safe where shared
        var loops: [EventLoop] = []
        var port: Int?
        var signalSources: [any DispatchSourceSignal] = []
        var deadlineTimer: (any DispatchSourceTimer)?
        var stopping = false
    }

    package init(
        configuration: ServerConfiguration, responder: any HTTPResponder,
        statistics: ServerStatistics = ServerStatistics()
    ) {
        self.configuration = configuration
        self.responder = responder
        self.statistics = statistics
    }

    deinit {
        state.withLock { state in
            state.deadlineTimer?.cancel()
            for source in state.signalSources { source.cancel() }
        }
    }

    /// The bound port once started.
    package var port: Int? { state.withLock { $0.port } }

    /// Binds, starts the event loops and returns the port. Ignores `SIGPIPE` (writes use
    /// `MSG_NOSIGNAL` too) and raises the soft descriptor limit to the hard one.
    @discardableResult
    package func start() throws(SocketError) -> Int {
        signal(SIGPIPE, SIG_IGN)
        SocketCalls.raiseDescriptorLimit()
        try startDeadlineTimer()
        let loops: [EventLoop]
        let port: Int
        do {
            (loops, port) = try openLoops()
        } catch {
            state.withLock { $0.deadlineTimer?.cancel() }
            throw error
        }
        // start() returns once every loop runs: on its own, named thread (epoll), or on its
        // Dispatch queue (which needs no thread of the server's).
        let running = DispatchGroup()
        for loop in loops {
            finished.enter()
            let done: @Sendable () -> Void = { [finished] in finished.leave() }
            guard loop.needsThread else {
                loop.run(started: {}, finished: done)
                continue
            }
            running.enter()
            let thread = Thread { loop.run(started: { running.leave() }, finished: done) }
            thread.start()
        }
        running.wait()
        // A shutdown that came while the loops started (a SIGTERM right after the first answer)
        // found none to stop: they are stopped now.
        let stopping = state.withLock { state -> Bool in
            state.loops = loops
            state.port = port
            return state.stopping
        }
        if stopping {
            for loop in loops { loop.shutDownListener() }
            for loop in loops { loop.requestStop() }
        }
        return port
    }

    /// One listening socket and one event loop per configured loop.
    private func openLoops() throws(SocketError) -> ([EventLoop], Int) {
        let (fds, port) = try Listener.open(
            host: configuration.host, port: configuration.port, count: configuration.eventLoopCount,
            backlog: configuration.backlog)
        var loops: [EventLoop] = []
        let clients = ClientConnections(
            limit: configuration.connectionsPerClient, unlimited: configuration.unlimitedClients)
        for (index, fd) in fds.enumerated() {
            do {
                loops.append(
                    try EventLoop(
                        index: index, listener: fd, configuration: configuration, responder: responder,
                        statistics: statistics, clients: clients))
            } catch {
                for fd in fds { close(fd) }
                throw error
            }
        }
        return (loops, port)
    }

    /// Stops accepting at once (a new connection is refused), tells the responder, lets
    /// in-flight responses finish and closes idle connections; the loops exit when drained or
    /// after `drainTimeout`, whatever is left. Safe to call from any thread, more than once.
    package func shutdown() {
        let (loops, first) = state.withLock { state -> ([EventLoop], Bool) in
            defer { state.stopping = true }
            return (state.loops, !state.stopping)
        }
        for loop in loops { loop.shutDownListener() }
        if first { responder.drainBegan() }
        for loop in loops { loop.requestStop() }
    }

    /// Blocks until every event loop has exited.
    package func wait() {
        finished.wait()
        state.withLock { $0.deadlineTimer?.cancel() }
    }

    /// Dispatch keeps the server's clock: every `deadlineCheckInterval` a timer asks each loop
    /// to check its connections' deadlines (header, idle, write, linger, drain) and to resume
    /// accepting after a back-off. The check runs on the loop's own thread, which owns the
    /// connection state; the loops themselves sleep in `epoll_wait` with no timeout.
    ///
    /// The timer starts, and its first tick is awaited, before any socket is opened:
    /// libdispatch creates its epoll set and timer descriptor the first time a timer is armed
    /// and keeps them for the life of the process, so once this returns no descriptor is needed
    /// to keep time — not even when a connection flood has taken every one the process may open.
    private func startDeadlineTimer() throws(SocketError) {
        let timer = DispatchSource.makeTimerSource(queue: events)
        let interval = DispatchTimeInterval.microseconds(Int(configuration.deadlineCheckInterval * 1_000_000))
        // The first tick at once, without leeway: with the sweeps' 10 ms it came up to 10 ms
        // late, and the listeners open only after it (a cold start waited 11 ms here).
        timer.schedule(deadline: .now(), leeway: .nanoseconds(0))
        let firstTick = DispatchSemaphore(value: 0)
        timer.setEventHandler { firstTick.signal() }
        timer.resume()
        guard firstTick.wait(timeout: .now() + 10) == .success else {
            timer.cancel()
            throw SocketError("Dispatch deadline timer did not start", errorNumber: ETIMEDOUT)
        }
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler { @Sendable [weak self] in
            guard let self else { return }
            for loop in self.state.withLock({ $0.loops }) { loop.requestSweep() }
        }
        state.withLock { $0.deadlineTimer = timer }
    }

    /// Calls ``shutdown()`` on SIGTERM or SIGINT, through Dispatch signal sources. Call it
    /// before ``start()``: the sources need a descriptor, which a flood of connections could
    /// otherwise have taken.
    package func shutdownOnSignals(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        for number in signals {
            onSignal(number) { [weak self] in self?.shutdown() }
        }
    }

    /// Calls `handler` on the server's event queue each time signal `number` arrives, instead
    /// of the signal's default action (which, for SIGHUP, SIGUSR1 and SIGUSR2, ends the
    /// process). Call it before ``start()``, as ``shutdownOnSignals(_:)``.
    package func onSignal(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)  // let Dispatch see it instead of the default action
        let source = DispatchSource.makeSignalSource(signal: number, queue: events)
        source.setEventHandler(handler: handler)
        // Registered before this returns: libdispatch arms a source later, on its manager
        // thread, and a signal that came between `SIG_IGN` and then would be lost.
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.resume()
        _ = registered.wait(timeout: .now() + 5)
        state.withLock { $0.signalSources.append(source) }
    }
}
