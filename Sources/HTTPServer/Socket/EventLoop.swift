import CSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One poller, one listening socket: accepts, reads, parses, calls the responder and writes,
/// never blocking, one event at a time on the poller's serial context (the loop's own thread
/// with epoll, a private serial queue with Dispatch).
///
/// Level-triggered readiness keeps the system calls per request at about two with epoll (one
/// `recv`, one `send`, plus a share of the poller's wait); interest changes only when a write
/// blocks or a connection stops reading. Deadlines are checked on a coarse sweep that the
/// server's Dispatch timer requests and the loop performs in its own context, since the
/// connection state belongs to it; the loop keeps no clock of its own and sleeps in the poller
/// until there is work.
///
/// `@unchecked Sendable`: everything but `stopRequested`, `sweepRequested` and the poller's
/// `wake()` is touched only in the poller's serial context.
final class EventLoop: PollHandler, @unchecked Sendable {
    /// This loop's position, 0..<eventLoops; requests carry it to the responder.
    private let index: Int
    private let configuration: ServerConfiguration
    private let limits: HTTPRequestParser.Limits
    private let responder: any HTTPResponder
    private let statistics: ServerStatistics
    private let poller: any Poller
    private var listener: Int32?
    private var connections: [Int32: Connection] = [:]
    private var date = HTTPDate()
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let stopRequested = Atomic<Bool>(false)
    private let sweepRequested = Atomic<Bool>(false)
    private var draining = false
    private var drainDeadline = Double.infinity
    private var acceptPausedUntil: Double?

    private static let lingerTimeout = 2.0

    init(
        index: Int, listener: Int32, configuration: ServerConfiguration, responder: any HTTPResponder,
        statistics: ServerStatistics
    ) throws(SocketError) {
        self.index = index
        self.configuration = configuration
        self.limits = HTTPRequestParser.Limits(configuration)
        self.responder = responder
        self.statistics = statistics
        switch configuration.io {
        #if os(Linux)
            case .epoll: poller = try EpollPoller()
        #endif
        case .dispatch: poller = DispatchPoller(label: "ring-loop-\(index)")
        }
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        self.listener = listener
        guard poller.add(listener, .readable) else { throw SocketError("poller add") }
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Asks the loop, from any thread, to stop accepting and drain.
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        poller.wake()
    }

    /// Asks the loop, from any thread, to check its connections' deadlines on its own thread.
    /// The server's Dispatch timer calls this every `deadlineCheckInterval`.
    func requestSweep() {
        sweepRequested.store(true, ordering: .releasing)
        poller.wake()
    }

    /// Whether ``run(finished:)`` needs a thread of its own: with epoll it blocks there; with
    /// Dispatch the events are handled on the poller's serial queue and it returns at once.
    var needsThread: Bool { poller.needsThread }

    /// Runs until stopped and drained, then calls `finished`; calls `started` once set up.
    func run(started: () -> Void, finished: @escaping @Sendable () -> Void) {
        if needsThread {
            // Named for `top -H`, `ps -L` and tests: "ring-loop-0", "ring-loop-1", ….
            _ = csystem_set_thread_name("ring-loop-\(index)")
        }
        started()
        poller.run(self, finished: finished)
    }

    /// The time of the batch being handled, read once at its first event.
    private var batchClock: Double?

    func handle(_ event: PollEvent) {
        let now = batchClock ?? MonotonicClock.now()
        batchClock = now
        if event.fd == listener {
            acceptConnections(now: now)
        } else if let connection = connections[event.fd] {
            service(connection, event, now: now)
        }
    }

    func batchFinished(events: Int) -> Bool {
        let now = batchClock ?? MonotonicClock.now()
        batchClock = nil
        // After a big batch, let other runnable threads on this core go first: clients,
        // proxies or load generators on the same host answer sooner instead of waiting a
        // whole scheduler slice (docs/performance.md has the measurements).
        if configuration.yieldAfterEvents > 0, events > configuration.yieldAfterEvents { sched_yield() }
        if stopRequested.load(ordering: .acquiring), !draining { beginDrain(now: now) }
        if sweepRequested.exchange(false, ordering: .acquiringAndReleasing) { sweep(now: now) }
        if draining {
            if connections.isEmpty { return false }
            if now >= drainDeadline {
                for connection in Array(connections.values) { closeConnection(connection) }
                return false
            }
        }
        return true
    }

    // MARK: Accepting

    private func acceptConnections(now: Double) {
        guard let listener else { return }
        while true {
            let fd = SocketCalls.acceptNonBlocking(listener)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: stop accepting for a moment instead of
                    // spinning on a listener that stays readable (SwiftNIO's AcceptBackoffHandler).
                    poller.remove(listener)
                    acceptPausedUntil = now + 0.1
                    return
                default: return  // EAGAIN: no more pending connections
                }
            }
            statistics.accepted.add(1, ordering: .relaxed)
            guard statistics.open.load(ordering: .relaxed) < configuration.maxConnections else {
                statistics.refused.add(1, ordering: .relaxed)
                close(fd)
                continue
            }
            // Responses go out at once, not held back to coalesce (Nagle). A socket that
            // refuses the option or the poller is broken: it is closed, not served.
            var on: Int32 = 1
            guard setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0,
                poller.add(fd, .readable)
            else {
                close(fd)
                continue
            }
            statistics.open.add(1, ordering: .relaxed)
            connections[fd] = Connection(fd: fd, limits: limits, now: now, interest: .readable)
        }
    }

    // MARK: Serving a connection

    private func service(_ connection: Connection, _ event: PollEvent, now: Double) {
        if event.failed {
            closeConnection(connection)
            return
        }
        if event.writable {
            flush(connection, now: now)
            guard connections[connection.fd] != nil else { return }
        }
        if event.readable {
            receive(connection, toEnd: event.readToEnd, now: now)
        }
    }

    /// Reads what arrived and answers it. With `toEnd`, reads until the socket would block, the
    /// connection ends, or its output backs up.
    private func receive(_ connection: Connection, toEnd: Bool, now: Double) {
        while true {
            let count = recv(connection.fd, readBuffer.baseAddress, readBuffer.count, 0)
            if count > 0 {
                if connection.state.discardsInput {  // after our FIN
                    if toEnd { continue } else { return }
                }
                if !connection.parser.hasPartialRequest { connection.requestStartedAt = now }
                connection.parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
                answerRequests(connection, now: now)
                flush(connection, now: now)
                guard toEnd, connections[connection.fd] === connection, connection.interest.contains(.readable)
                else { return }
            } else if count == 0 {
                if connection.state.discardsInput
                    || (!connection.hasPendingOutput && !connection.parser.hasPartialRequest)
                {
                    closeConnection(connection)
                    return
                }
                // Half-closed: answer what arrived, then close.
                connection.state = connection.state.next(on: .peerFinished).0
                answerRequests(connection, now: now)
                flush(connection, now: now)
                return
            } else if errno == EINTR {
                continue
            } else {
                if errno != EAGAIN, errno != EWOULDBLOCK { closeConnection(connection) }  // ECONNRESET…
                return
            }
        }
    }

    /// Answers every complete buffered request, in order, until the output backs up.
    private func answerRequests(_ connection: Connection, now: Double) {
        while connection.state.answersRequests,
            connection.output.count - connection.sent < configuration.maxPendingOutputBytes
        {
            var request: HTTPRequest
            do {
                guard let next = try connection.parser.next() else { break }
                request = next
                request.eventLoop = index
            } catch {
                statistics.errors.add(1, ordering: .relaxed)
                let response = HTTPResponse.text(error.status, error.reason + "\n")
                ResponseSerializer.append(
                    response, headOnly: false, keepAlive: false, minorVersion: 1, date: date.current(),
                    to: &connection.output)
                connection.state = connection.state.next(on: .lastResponseQueued).0
                break
            }
            let response = responder.respond(to: request)
            let keepAlive = request.keepAlive && !draining && !connection.state.nextResponseIsLast
            ResponseSerializer.append(
                response, headOnly: request.method == .head, keepAlive: keepAlive,
                minorVersion: request.minorVersion, date: date.current(), to: &connection.output)
            connection.lastActivity = now
            connection.requestStartedAt = connection.parser.hasPartialRequest ? now : nil
            if !keepAlive { connection.state = connection.state.next(on: .lastResponseQueued).0 }
        }
        // Interest is settled by `flush`, which always follows: changing it here would cost two
        // interest changes per request (add writable, then drop it once the write succeeds).
    }

    private func flush(_ connection: Connection, now: Double) {
        while connection.hasPendingOutput {
            let count = connection.output.withUnsafeBytes { bytes in
                send(
                    connection.fd, bytes.baseAddress! + connection.sent, bytes.count - connection.sent,
                    SocketCalls.sendFlags)
            }
            if count > 0 {
                connection.sent += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                if connection.writeBlockedSince == nil { connection.writeBlockedSince = now }
                updateInterest(connection)
                return
            } else {
                closeConnection(connection)  // EPIPE, ECONNRESET
                return
            }
        }
        connection.output.removeAll(keepingCapacity: connection.output.capacity <= 64 * 1024)
        connection.sent = 0
        connection.writeBlockedSince = nil
        let (state, action) = connection.state.next(on: .flushed(at: now))
        connection.state = state
        switch action {
        case .sendFIN:
            guard shutdown(connection.fd, Int32(SHUT_WR)) == 0 else {
                closeConnection(connection)  // ENOTCONN: the peer is gone already
                return
            }
            updateInterest(connection)
        case .close:
            closeConnection(connection)
        case .answerBuffered:
            // Requests held back while output was backed up.
            if connection.parser.hasPartialRequest {
                answerRequests(connection, now: now)
                if connection.hasPendingOutput || !connection.state.answersRequests {
                    flush(connection, now: now)
                    return
                }
            }
            if connection.state == .peerClosed {
                closeConnection(connection)  // nothing left to answer
            } else {
                updateInterest(connection)
            }
        case .none:
            updateInterest(connection)
        }
    }

    private func updateInterest(_ connection: Connection) {
        let backedUp = connection.output.count - connection.sent >= configuration.maxPendingOutputBytes
        let wanted = connection.state.interest(hasPendingOutput: connection.hasPendingOutput, backedUp: backedUp)
        guard wanted != connection.interest else { return }
        connection.interest = wanted
        // A connection whose interest cannot be changed would never be woken again, or never
        // stop being woken: close it.
        if !poller.modify(connection.fd, wanted) { closeConnection(connection) }
    }

    private func closeConnection(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.fd) != nil else { return }
        poller.close(connection.fd)
        statistics.open.subtract(1, ordering: .relaxed)
    }

    // MARK: Deadlines and draining

    private func sweep(now: Double) {
        if let until = acceptPausedUntil, now >= until, let listener {
            // Still out of memory for the poller's entry: try again at the next sweep.
            acceptPausedUntil = poller.add(listener, .readable) ? nil : now + 0.1
        }
        let limits = ConnectionState.Deadlines(
            header: configuration.headerTimeout, idle: draining ? 0 : configuration.idleTimeout,
            write: configuration.writeTimeout, linger: Self.lingerTimeout)
        for connection in Array(connections.values) {
            let (deadline, isTimeout) = connection.state.deadline(
                writeBlockedSince: connection.writeBlockedSince, requestStartedAt: connection.requestStartedAt,
                hasPartialRequest: connection.parser.hasPartialRequest, lastActivity: connection.lastActivity,
                limits: limits)
            if now > deadline {
                if isTimeout { statistics.timedOut.add(1, ordering: .relaxed) }
                closeConnection(connection)
            }
        }
    }

    private func beginDrain(now: Double) {
        draining = true
        drainDeadline = now + configuration.drainTimeout
        if let listener {
            poller.close(listener)
            self.listener = nil
        }
        for connection in Array(connections.values)
        where !connection.hasPendingOutput && !connection.parser.hasPartialRequest && !connection.state.discardsInput {
            closeConnection(connection)
        }
    }
}
