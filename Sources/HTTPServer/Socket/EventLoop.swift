import CSystem
import Primitives
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One poller, one listening socket: accepts, reads, parses, calls the responder and writes,
/// never blocking, one event at a time on the poller's serial context (the loop's own thread
/// with epoll, a private serial queue with Dispatch). A batch of events (epoll) is read first
/// and answered at its end (``answerAfterReads(_:)``).
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
    let index: Int
    let configuration: ServerConfiguration
    private let limits: HTTPRequestParser.Limits
    let responder: any HTTPResponder
    let statistics: ServerStatistics
    /// Connections open per client address, shared by the loops.
    let clients: ClientConnections
    let poller: any Poller
    let mailbox: ReplyMailbox
    var listener: Int32?
    /// The listening descriptor as made, for ``requestStop()`` to shut down from any thread.
    private let listenerDescriptor: Int32
    private let listenerShutDown = Atomic<Bool>(false)
    var connections: [Int32: Connection] = [:]
    private var nextSerial: UInt64 = 0
    /// Connections with complete requests left for another turn, in the order they ran out.
    var turns: [Connection] = []
    /// Connections with answers held back until the batch ends (``writeDelay``), and when the
    /// first of them was held.
    private var heldWrites: [Connection] = []
    /// Connections whose input this batch read and has not answered yet.
    private var pendingAnswers: [Connection] = []
    private var heldSince = 0.0
    /// Whether the loop is inside a batch, where answers may be held back.
    private var inBatch = false
    private let writeDelay: Double
    var date = HTTPDate()
    let readBuffer: UnsafeMutableRawBufferPointer
    private let stopRequested = Atomic<Bool>(false)
    private let sweepRequested = Atomic<Bool>(false)
    var draining = false
    var drainDeadline = Double.infinity
    var acceptPausedUntil: Double?

    init(
        index: Int, listener: Int32, configuration: ServerConfiguration, responder: any HTTPResponder,
        statistics: ServerStatistics, clients: ClientConnections
    ) throws(SocketError) {
        self.index = index
        self.clients = clients
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
        // With Dispatch each event is its own batch: there is nothing to wait for.
        writeDelay = poller.reportsBatches ? Double(configuration.writeDelayMicroseconds) / 1e6 : 0
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
        let now: Double
        if let clock = batchClock {
            now = clock
        } else {
            now = MonotonicClock.now()
            batchClock = now
            mailbox.awake()
        }
        inBatch = writeDelay > 0
        if event.fd == listener {
            acceptConnections(now: now)
        } else if let connection = connections[event.fd] {
            service(connection, event, now: now)
        }
        writeHeldIfDue(now: now)
    }

    /// Writes the held answers once the first has waited ``writeDelay``.
    private func writeHeldIfDue(now: Double) {
        if !heldWrites.isEmpty, MonotonicClock.now() - heldSince >= writeDelay { writeHeld(now: now) }
    }

    /// Holds back `connection`'s queued answers until the batch ends or ``writeDelay`` has
    /// passed; false outside a batch, where the caller writes at once.
    func holdWrites(_ connection: Connection) -> Bool {
        guard inBatch else { return false }
        guard !connection.writesHeld else { return true }
        if heldWrites.isEmpty { heldSince = MonotonicClock.now() }
        connection.writesHeld = true
        heldWrites.append(connection)
        return true
    }

    /// Leaves `connection`'s input to be answered once the batch's reads are done; false
    /// outside a batch, where the caller answers at once. The answers then run back to back,
    /// not each between two system calls: 5–8 % less server CPU a new SVG
    /// (docs/performance.md, "Serving").
    func answerAfterReads(_ connection: Connection) -> Bool {
        guard inBatch else { return false }
        if !connection.answerPending {
            connection.answerPending = true
            pendingAnswers.append(connection)
        }
        return true
    }

    /// Answers what the batch read, each connection's turn as it would have been.
    private func answerPendingInput(now: Double) {
        var due: [Connection] = []
        swap(&due, &pendingAnswers)
        for connection in due {
            connection.answerPending = false
            if isCurrent(connection) { serve(connection, now: now) }
            writeHeldIfDue(now: now)
        }
        due.removeAll(keepingCapacity: true)
        swap(&due, &pendingAnswers)
    }

    /// Writes every held answer, each connection going on with its turn as it would have.
    private func writeHeld(now: Double) {
        let wasInBatch = inBatch
        inBatch = false
        var due: [Connection] = []
        swap(&due, &heldWrites)
        for connection in due {
            connection.writesHeld = false
            if isCurrent(connection) { serve(connection, now: now) }
        }
        due.removeAll(keepingCapacity: true)
        swap(&due, &heldWrites)  // nothing was held meanwhile: keeps the array's storage
        inBatch = wasInBatch
    }

    func batchFinished(events: Int) -> PollNext {
        let now = batchClock ?? MonotonicClock.now()
        if batchClock == nil { mailbox.awake() }
        batchClock = nil
        if !pendingAnswers.isEmpty { answerPendingInput(now: now) }
        if !heldWrites.isEmpty { writeHeld(now: now) }
        inBatch = false
        // After a big batch, let other runnable threads on this core go first: clients,
        // proxies or load generators on the same host answer sooner instead of waiting a
        // whole scheduler slice (docs/performance.md has the measurements).
        if configuration.yieldAfterEvents > 0, events > configuration.yieldAfterEvents { sched_yield() }
        deliverReplies(now: now)
        runTurns(now: now)
        if stopRequested.load(ordering: .acquiring), !draining { beginDrain(now: now) }
        if sweepRequested.exchange(false, ordering: .acquiringAndReleasing) { sweep(now: now) }
        if draining {
            if connections.isEmpty { return .stop }
            if now >= drainDeadline {
                for connection in Array(connections.values) { apply(.deadlinePassed, to: connection, now: now) }
                return .stop
            }
        }
        // One spare turn a batch for the responder's deferred work, within the write delay,
        // whose answers (often for this loop) are written together at its end: a client's
        // answers then arrive together and wake it once. Then back, without waiting, for
        // whatever became ready meanwhile. Under a flood of pipelined turns it still gets one a
        // batch.
        var more = !turns.isEmpty
        if !draining, responder.spareTurn(for: writeDelay) {
            deliverReplies(now: MonotonicClock.now())
            more = true
        }
        // Turns left or a spare turn taken: come back at once, after whatever else is ready.
        if more { return .poll }
        return mailbox.prepareToWait() ? .wait : .poll
    }

    // MARK: Accepting

    func acceptConnections(now: Double) {
        guard let listener else { return }
        var peer = sockaddr_storage()
        while true {
            let fd = SocketCalls.acceptNonBlocking(listener, peer: &peer)
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
            let address = ClientAddress(peer) ?? .unknown
            guard clients.admit(address) else {
                statistics.refusedClient.add(1, ordering: .relaxed)
                close(fd)
                continue
            }
            // Responses go out at once, not held back to coalesce (Nagle). A socket that
            // refuses the option or the poller is broken: it is closed, not served.
            var on: Int32 = 1
            guard setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0,
                poller.add(fd, .readable)
            else {
                clients.release(address)
                close(fd)
                continue
            }
            statistics.open.add(1, ordering: .relaxed)
            nextSerial &+= 1
            connections[fd] = Connection(
                fd: fd, serial: nextSerial, client: address, limits: limits, now: now, interest: .readable)
        }
    }
}
