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
/// `recv`, one `sendmsg`, plus a share of the poller's wait); interest changes only when a write
/// blocks, a connection waits for a deferred response or its next turn, or stops reading.
/// Deadlines are checked on a coarse sweep that the server's Dispatch timer requests and the
/// loop performs in its own context, since the connection state belongs to it; the loop keeps
/// no clock of its own and sleeps in the poller until there is work.
///
/// **Fair turns.** A connection answers at most `maxRequestsPerTurn` requests each time it is
/// served; with more complete requests buffered it waits for the next turn, after every other
/// ready connection of the loop has had one, and reads nothing more meanwhile.
///
/// **Deferred responses.** A responder may keep an ``HTTPReply`` instead of answering; the
/// connection then answers nothing else until the response comes back through the loop's
/// mailbox, so pipelined answers stay in order.
///
/// **One lifecycle.** Every change of a connection's life goes through ``ConnectionState``:
/// the loop reports an event, and carries out the action the transition returns.
///
/// `@unchecked Sendable`: everything but `stopRequested`, `sweepRequested`, the mailbox and the
/// poller's `wake()` is touched only in the poller's serial context.
final class EventLoop: PollHandler, @unchecked Sendable {
    /// This loop's position, 0..<eventLoops; requests carry it to the responder.
    private let index: Int
    private let configuration: ServerConfiguration
    private let limits: HTTPRequestParser.Limits
    private let responder: any HTTPResponder
    private let statistics: ServerStatistics
    private let poller: any Poller
    private let mailbox: ReplyMailbox
    private var listener: Int32?
    /// The listening descriptor as made, for ``requestStop()`` to shut down from any thread.
    private let listenerDescriptor: Int32
    private let listenerShutDown = Atomic<Bool>(false)
    private var connections: [Int32: Connection] = [:]
    private var nextSerial: UInt64 = 0
    /// Connections with complete requests left for another turn, in the order they ran out.
    private var turns: [Connection] = []
    private var date = HTTPDate()
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let stopRequested = Atomic<Bool>(false)
    private let sweepRequested = Atomic<Bool>(false)
    private var draining = false
    private var drainDeadline = Double.infinity
    private var acceptPausedUntil: Double?

    init(
        index: Int, listener: Int32, configuration: ServerConfiguration, responder: any HTTPResponder,
        statistics: ServerStatistics
    ) throws(SocketError) {
        self.index = index
        self.configuration = configuration
        self.limits = HTTPRequestParser.Limits(configuration)
        self.responder = responder
        self.statistics = statistics
        let poller: any Poller
        switch configuration.io {
        #if os(Linux)
            case .epoll: poller = try EpollPoller()
        #endif
        case .dispatch: poller = DispatchPoller(label: "ring-loop-\(index)")
        }
        self.poller = poller
        mailbox = ReplyMailbox(wake: { poller.wake() })
        readBuffer = .allocate(byteCount: configuration.readBufferBytes, alignment: 16)
        self.listener = listener
        listenerDescriptor = listener
        guard poller.add(listener, .readable) else { throw SocketError("poller add") }
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Shuts the listening socket down, from any thread, so that a connection attempted from
    /// now on is refused at once instead of waiting in the backlog; the loop closes the
    /// descriptor later, on its own thread, and only after ``requestStop()``. Call it before
    /// that, so it never meets a closed (or reused) descriptor; later calls do nothing.
    ///
    /// Not on the Dispatch backend: there, libdispatch must stop watching the socket before it
    /// changes under it. A listener shut down while its sources were registered reported a
    /// hang-up to libdispatch's manager thread, which then crashed on a freed note in about 1
    /// of 40 shutdowns (docs/reliability.md). The loop's drain, a moment later, cancels the
    /// sources and closes the socket once they are gone, which refuses new connections too.
    func shutDownListener() {
        guard !listenerShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard configuration.io != .dispatch else { return }
        _ = shutdown(listenerDescriptor, Int32(SHUT_RDWR))
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
        deliverReplies(now: now)
        runTurns(now: now)
        if stopRequested.load(ordering: .acquiring), !draining { beginDrain(now: now) }
        if sweepRequested.exchange(false, ordering: .acquiringAndReleasing) { sweep(now: now) }
        if draining {
            if connections.isEmpty { return false }
            if now >= drainDeadline {
                for connection in Array(connections.values) { apply(.deadlinePassed, to: connection, now: now) }
                return false
            }
        }
        // Turns left: come back at once, after whatever else is ready.
        if !turns.isEmpty { poller.wake() }
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
                    acceptPausedUntil = now + configuration.acceptBackoff
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
            nextSerial &+= 1
            connections[fd] = Connection(fd: fd, serial: nextSerial, limits: limits, now: now, interest: .readable)
        }
    }

    // MARK: Serving a connection

    private func service(_ connection: Connection, _ event: PollEvent, now: Double) {
        if event.failed {
            apply(.ioFailed, to: connection, now: now)
            return
        }
        if event.writable {
            serve(connection, now: now)
            guard isCurrent(connection) else { return }
        }
        if event.readable {
            receive(connection, toEnd: event.readToEnd, now: now)
        }
    }

    private func isCurrent(_ connection: Connection) -> Bool { connections[connection.fd] === connection }

    /// Reads what arrived and answers it. With `toEnd`, reads until the socket would block, the
    /// connection ends, or it stops reading (output backed up, a response awaited, turn over).
    ///
    /// One turn's budget covers everything read here: with `toEnd` (Dispatch), a client that
    /// sends its next request as soon as it has an answer would otherwise be served again and
    /// again within one event while every other connection of the loop waited.
    private func receive(_ connection: Connection, toEnd: Bool, now: Double) {
        var budget = max(1, configuration.maxRequestsPerTurn)
        while true {
            let count = recv(connection.fd, readBuffer.baseAddress, readBuffer.count, 0)
            if count > 0 {
                if connection.state.discardsInput {  // after our FIN
                    if toEnd { continue } else { return }
                }
                if !connection.parser.hasPartialRequest { connection.requestStartedAt = now }
                connection.parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
                serve(connection, budget: &budget, now: now)
                guard toEnd, isCurrent(connection), connection.interest.contains(.readable) else { return }
            } else if count == 0 {
                apply(.endOfInput(idle: connection.isIdle), to: connection, now: now)
                // Half-closed: answer what arrived; the last answer closes.
                if isCurrent(connection) { serve(connection, now: now) }
                return
            } else if errno == EINTR {
                continue
            } else {
                if errno != EAGAIN, errno != EWOULDBLOCK { apply(.ioFailed, to: connection, now: now) }  // ECONNRESET…
                return
            }
        }
    }

    /// One turn of a connection: writes what is queued and, each time the output is out,
    /// answers buffered requests, up to `maxRequestsPerTurn` of them; then settles interest.
    private func serve(_ connection: Connection, now: Double) {
        var budget = max(1, configuration.maxRequestsPerTurn)
        serve(connection, budget: &budget, now: now)
    }

    /// Part of a turn whose requests are counted in `budget`; a connection that spends it with
    /// requests left waits for its next turn.
    private func serve(_ connection: Connection, budget: inout Int, now: Double) {
        while true {
            while connection.hasPendingOutput {
                let count = connection.output.send(to: connection.fd)
                if count > 0 { continue }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    if connection.writeBlockedSince == nil { connection.writeBlockedSince = now }
                    updateInterest(connection, now: now)
                    return
                }
                apply(.ioFailed, to: connection, now: now)  // EPIPE, ECONNRESET
                return
            }
            if connection.awaited == nil { connection.writeBlockedSince = nil }
            let (state, action) = connection.state.next(on: .flushed(at: now))
            connection.state = state
            guard action == .answerBuffered else {
                perform(action, on: connection, now: now)
                return
            }
            if connection.parser.hasPartialRequest {
                answerRequests(connection, budget: &budget, now: now)
                guard isCurrent(connection) else { return }
            }
            if connection.hasPendingOutput { continue }
            if connection.state == .peerClosed, !connection.holdsRequests {
                // Nothing left to answer: what remains buffered is a head that can never end.
                apply(.endOfInput(idle: true), to: connection, now: now)
            } else {
                updateInterest(connection, now: now)
            }
            return
        }
    }

    /// Answers complete buffered requests, in order, until the output backs up, a response is
    /// deferred, or `budget` is spent; a connection with requests left waits for a turn.
    private func answerRequests(_ connection: Connection, budget: inout Int, now: Double) {
        while connection.state.answersRequests, connection.awaited == nil, !connection.waitingForTurn,
            connection.output.pending < configuration.maxPendingOutputBytes
        {
            guard budget > 0 else {
                if connection.parser.hasPartialRequest {
                    connection.waitingForTurn = true
                    turns.append(connection)
                }
                return
            }
            var request: HTTPRequest
            do {
                guard let next = try connection.parser.next() else { return }
                request = next
                request.eventLoop = index
            } catch {
                statistics.errors.add(1, ordering: .relaxed)
                let response = HTTPResponse.text(error.status, error.reason + "\n")
                queue(response, headOnly: false, keepAlive: false, minorVersion: 1, on: connection, now: now)
                return
            }
            budget -= 1
            let reply = HTTPReply(mailbox: mailbox, fd: connection.fd, serial: connection.serial)
            guard let response = responder.respond(to: request, reply: reply) else {
                connection.awaited = .init(
                    headOnly: request.method == .head, keepAlive: request.keepAlive,
                    minorVersion: request.minorVersion)
                connection.writeBlockedSince = now  // the write deadline runs while it waits
                return
            }
            queue(
                response, headOnly: request.method == .head, keepAlive: request.keepAlive,
                minorVersion: request.minorVersion, on: connection, now: now)
        }
        // Interest is settled by `serve`, which always follows: changing it here would cost two
        // interest changes per request (add writable, then drop it once the write succeeds).
    }

    /// Serializes one answer into the connection's output; one that ends the connection moves
    /// it on to closing.
    private func queue(
        _ response: HTTPResponse, headOnly: Bool, keepAlive: Bool, minorVersion: Int, on connection: Connection,
        now: Double
    ) {
        let keepAlive = keepAlive && !connection.state.nextResponseIsLast
        ResponseSerializer.append(
            response, headOnly: headOnly, keepAlive: keepAlive, minorVersion: minorVersion, date: date.current(),
            to: &connection.output)
        connection.lastActivity = now
        connection.requestStartedAt = connection.parser.hasPartialRequest ? now : nil
        if !keepAlive { apply(.lastResponseQueued, to: connection, now: now) }
    }

    /// Writes the deferred responses that came back since the last batch.
    private func deliverReplies(now: Double) {
        for delivery in mailbox.take() {
            guard let connection = connections[delivery.fd], connection.serial == delivery.serial,
                let awaited = connection.awaited
            else { continue }  // gone, or answered already
            connection.awaited = nil
            connection.writeBlockedSince = nil
            queue(
                delivery.response, headOnly: awaited.headOnly, keepAlive: awaited.keepAlive,
                minorVersion: awaited.minorVersion, on: connection, now: now)
            serve(connection, now: now)
        }
    }

    /// Gives each connection that ran out of turn its next one.
    private func runTurns(now: Double) {
        guard !turns.isEmpty else { return }
        var due: [Connection] = []
        swap(&due, &turns)
        for connection in due where isCurrent(connection) {
            connection.waitingForTurn = false
            serve(connection, now: now)
        }
    }

    // MARK: The lifecycle

    /// Moves `connection` on by `event` and carries out what the transition asks.
    private func apply(_ event: ConnectionState.Event, to connection: Connection, now: Double) {
        let (state, action) = connection.state.next(on: event)
        connection.state = state
        perform(action, on: connection, now: now)
    }

    private func perform(_ action: ConnectionState.Action, on connection: Connection, now: Double) {
        switch action {
        case .none:
            break  // the caller serves the connection next, which settles its interest
        case .answerBuffered:
            serve(connection, now: now)
        case .sendFIN:
            if shutdown(connection.fd, Int32(SHUT_WR)) == 0 {
                updateInterest(connection, now: now)
            } else {
                apply(.ioFailed, to: connection, now: now)  // ENOTCONN: the peer is gone already
            }
        case .close:
            guard connections.removeValue(forKey: connection.fd) != nil else { return }
            poller.close(connection.fd)
            statistics.open.subtract(1, ordering: .relaxed)
        }
    }

    private func updateInterest(_ connection: Connection, now: Double) {
        let backedUp = connection.output.pending >= configuration.maxPendingOutputBytes
        let wanted = connection.state.interest(
            hasPendingOutput: connection.hasPendingOutput, backedUp: backedUp, holds: connection.holdsRequests)
        guard wanted != connection.interest else { return }
        connection.interest = wanted
        // A connection whose interest cannot be changed would never be woken again, or never
        // stop being woken.
        if !poller.modify(connection.fd, wanted) { apply(.ioFailed, to: connection, now: now) }
    }

    // MARK: Deadlines and draining

    private func sweep(now: Double) {
        if let until = acceptPausedUntil, now >= until, let listener {
            // Still out of memory for the poller's entry: try again at the next sweep.
            acceptPausedUntil = poller.add(listener, .readable) ? nil : now + configuration.acceptBackoff
        }
        let limits = ConnectionState.Deadlines(
            header: configuration.headerTimeout, idle: draining ? 0 : configuration.idleTimeout,
            write: configuration.writeTimeout, linger: configuration.lingerTimeout)
        for connection in Array(connections.values) {
            let (deadline, isTimeout) = connection.state.deadline(
                writeBlockedSince: connection.writeBlockedSince, requestStartedAt: connection.requestStartedAt,
                hasPartialRequest: connection.parser.hasPartialRequest, lastActivity: connection.lastActivity,
                limits: limits)
            if now > deadline {
                if isTimeout { statistics.timedOut.add(1, ordering: .relaxed) }
                apply(.deadlinePassed, to: connection, now: now)
            }
        }
    }

    /// Stops accepting, closes idle connections and lets the others finish the request they are
    /// reading or awaiting, as their last; ``batchFinished(events:)`` cuts what is left at the
    /// drain deadline.
    private func beginDrain(now: Double) {
        draining = true
        drainDeadline = now + configuration.drainTimeout
        if let listener {
            poller.close(listener)
            self.listener = nil
        }
        for connection in Array(connections.values) {
            apply(.drain(idle: connection.isIdle), to: connection, now: now)
        }
    }
}
