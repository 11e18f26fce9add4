import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server: one event loop per core, each with its own listening socket
/// (`SO_REUSEPORT`), all calling one ``HTTPResponder``.
///
/// ```swift
/// let server = Server(configuration: configuration, responder: MyResponder())
/// let port = try server.start()
/// server.shutdownOnSignals()
/// server.wait()
/// ```
public final class Server: Sendable {
    public let configuration: ServerConfiguration
    public let statistics: ServerStatistics
    private let responder: any HTTPResponder
    private let state = Locked(State())
    private let finished = DispatchGroup()

    private struct State: @unchecked Sendable {  // event loops are thread-safe where shared
        var loops: [EventLoop] = []
        var port: Int?
        var signalSources: [any DispatchSourceSignal] = []
    }

    public init(
        configuration: ServerConfiguration, responder: any HTTPResponder,
        statistics: ServerStatistics = ServerStatistics()
    ) {
        self.configuration = configuration
        self.responder = responder
        self.statistics = statistics
    }

    /// The bound port once started.
    public var port: Int? { state.withLock { $0.port } }

    /// Binds, starts the event loops and returns the port. Ignores `SIGPIPE` (writes use
    /// `MSG_NOSIGNAL` too) and raises the soft descriptor limit to the hard one.
    @discardableResult
    public func start() throws(SocketError) -> Int {
        signal(SIGPIPE, SIG_IGN)
        Self.raiseDescriptorLimit()
        let count = max(1, configuration.eventLoops)
        let (fds, port) = try Listener.open(
            host: configuration.host, port: configuration.port, count: count, backlog: configuration.backlog)
        var loops: [EventLoop] = []
        for (index, fd) in fds.enumerated() {
            do {
                loops.append(
                    try EventLoop(
                        index: index, listener: fd, configuration: configuration, responder: responder,
                        statistics: statistics))
            } catch {
                for fd in fds { close(fd) }
                throw error
            }
        }
        // start() returns once every loop runs on its own, named thread.
        let running = DispatchGroup()
        for loop in loops {
            finished.enter()
            running.enter()
            let thread = Thread { [finished] in
                loop.run(started: { running.leave() })
                finished.leave()
            }
            thread.start()
        }
        running.wait()
        state.withLock {
            $0.loops = loops
            $0.port = port
        }
        return port
    }

    /// Stops accepting, lets in-flight responses finish, closes idle connections; the loops
    /// exit when drained or after `drainTimeout`. Safe to call from any thread, more than once.
    public func shutdown() {
        for loop in state.withLock({ $0.loops }) { loop.requestStop() }
    }

    /// Blocks until every event loop has exited.
    public func wait() {
        finished.wait()
    }

    /// Calls ``shutdown()`` on SIGTERM or SIGINT, through Dispatch signal sources. Call it
    /// before ``start()``: the sources need a descriptor, which a flood of connections could
    /// otherwise have taken.
    public func shutdownOnSignals(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)  // let Dispatch see it instead of the default action
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { @Sendable [weak self] in self?.shutdown() }
            source.resume()
            sources.append(source)
        }
        state.withLock { $0.signalSources += sources }
    }

    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
