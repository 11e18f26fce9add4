import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The portable backend: a Dispatch read source and write source per descriptor, all on one
/// private serial queue per loop. The handler runs on that queue, one
/// event at a time, so the loop keeps its one-thread-at-a-time ownership of its connections.
///
/// - Level-triggered: a source keeps firing while its descriptor stays ready, so interest is a
///   source resumed (wanted) or suspended (not wanted), never re-armed by hand.
/// - Closing is deferred: a descriptor is closed in the cancel handler of its last source, after
///   libdispatch has stopped watching it. Closing earlier would let the kernel give the number
///   to a new connection that libdispatch still confuses with the old one.
/// - A private serial queue, never a global one: libdispatch aborts a process whose global
///   queues have work while it is out of descriptors (docs/architecture.md).
///
/// - A sweep once a second asks the kernel, in one `poll(2)` over every watched descriptor,
///   which have hung up or failed, and reports them in the directions still wanted. It is the
///   backstop for a hang-up libdispatch reports to a source that is not listening, which
///   otherwise leaves a reset connection open until its deadline (on CI, 2 of 200 reset
///   connections, about one run in three, before the sweep).
///
/// It costs more per request than epoll: libdispatch re-arms its own epoll entry and asks the
/// kernel how much there is to read each time a source fires (docs/performance.md).
///
/// Each source's handler holds the poller; cancelling the source, which every descriptor's end
/// does, lets it go.
///
/// `@unchecked Sendable`: its state is touched before ``run(_:finished:)`` by the thread that made it,
/// and after that only on `queue`; ``wake()`` only enqueues work on `queue`.
final class DispatchPoller: Poller, @unchecked Sendable {
    private let queue: DispatchQueue
    private var registrations: [Int32: Registration] = [:]
    private var handler: (any PollHandler)?
    private var running = false
    private var finished = false
    private var whenFinished: (@Sendable () -> Void)?
    private var sweep: (any DispatchSourceTimer)?
    /// Sweeps done: a test waits for the next instead of sleeping through one.
    let sweeps = Atomic<Int>(0)

    /// How often ``sweepHangUps()`` runs.
    static let sweepInterval = DispatchTimeInterval.seconds(1)

    /// One descriptor's sources. A source is made the first time its direction is wanted and
    /// then only suspended or resumed: Dispatch counts suspensions and traps on an unbalanced
    /// resume, so `readArmed`/`writeArmed` record which state each one is in.
    private final class Registration: @unchecked Sendable {  // touched only on the queue
        let fd: Int32
        var interest: PollInterest
        var read: (any DispatchSourceRead)?
        var write: (any DispatchSourceWrite)?
        var readArmed = false
        var writeArmed = false
        /// Sources made and not yet through their cancel handler.
        var liveSources = 0
        var closesDescriptor = false

        init(fd: Int32, interest: PollInterest) {
            self.fd = fd
            self.interest = interest
        }

        /// Runs in each source's cancel handler: the last one closes the descriptor, if asked.
        func sourceCancelled() {
            liveSources -= 1
            if liveSources == 0, closesDescriptor { _ = systemClose(fd) }
        }
    }

    /// Whether the sources' own events are reported; only a test of the sweep turns them off.
    private let reportsSourceEvents: Bool

    /// - Parameters:
    ///   - label: the queue's name, as debuggers and crash reports show it.
    ///   - reportsSourceEvents: false only to test that ``sweepHangUps()`` alone notices a
    ///     hang-up.
    init(label: String, reportsSourceEvents: Bool = true) {
        queue = DispatchQueue(label: label)
        self.reportsSourceEvents = reportsSourceEvents
    }

    func add(_ fd: Int32, _ interest: PollInterest) -> Bool {
        let registration = Registration(fd: fd, interest: interest)
        registrations[fd] = registration
        if running { arm(registration) }
        return true
    }

    func modify(_ fd: Int32, _ interest: PollInterest) -> Bool {
        guard let registration = registrations[fd] else { return false }
        registration.interest = interest
        if running { arm(registration) }
        return true
    }

    func remove(_ fd: Int32) {
        registrations.removeValue(forKey: fd).map { cancel($0, closing: false) }
    }

    func close(_ fd: Int32) {
        guard let registration = registrations.removeValue(forKey: fd) else {
            _ = systemClose(fd)
            return
        }
        cancel(registration, closing: true)
    }

    var needsThread: Bool { false }
    var reportsBatches: Bool { false }

    func run(_ handler: any PollHandler, finished: @escaping @Sendable () -> Void) {
        queue.sync {
            self.handler = handler
            whenFinished = finished
            running = true
            for registration in registrations.values { arm(registration) }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + Self.sweepInterval, repeating: Self.sweepInterval)
            timer.setEventHandler { self.sweepHangUps() }
            timer.resume()
            sweep = timer
        }
        wake()  // a wake-up asked for before the run began is not lost
    }

    func wake() {
        queue.async { self.finishBatch(events: 0) }
    }

    // MARK: On the queue

    /// Reports one source's event, unless its direction is no longer wanted: a source may have
    /// fired just before it was suspended.
    private func deliver(_ registration: Registration, readable: Bool, fromSweep: Bool = false) {
        guard !finished, let handler, registration.read != nil, reportsSourceEvents || fromSweep,
            registration.interest.contains(readable ? .readable : .writable)
        else { return }
        handler.handle(
            PollEvent(fd: registration.fd, readable: readable, writable: !readable, failed: false, readToEnd: true))
        finishBatch(events: 1)
    }

    private func finishBatch(events: Int) {
        guard !finished, let handler else { return }
        switch handler.batchFinished(events: events) {
        case .wait: return
        case .poll:
            // Events already queued run first; then the handler has its turn again.
            queue.async { self.finishBatch(events: 0) }
            return
        case .stop: break
        }
        finished = true
        self.handler = nil
        sweep?.cancel()  // its handler holds the poller
        sweep = nil
        whenFinished?()
        whenFinished = nil
    }

    /// Reports every watched descriptor that has hung up or failed, in each direction its
    /// interest still wants; the loop's `recv` or `send` then meets the end or the error as it
    /// would from a source's event. A descriptor wanting nothing (waiting for a response or its
    /// turn) is reported when its interest returns, as ever.
    private func sweepHangUps() {
        defer { sweeps.add(1, ordering: .relaxed) }
        let watched = registrations.values.filter { $0.read != nil && !$0.interest.isEmpty }
        guard !finished, !watched.isEmpty else { return }
        var descriptors = watched.map { pollfd(fd: $0.fd, events: 0, revents: 0) }  // errors always report
        guard poll(&descriptors, nfds_t(descriptors.count), 0) > 0 else { return }
        for (registration, descriptor) in zip(watched, descriptors)
        where Int32(descriptor.revents) & (Int32(POLLHUP) | Int32(POLLERR)) != 0 {
            if registration.interest.contains(.readable) { deliver(registration, readable: true, fromSweep: true) }
            if registration.interest.contains(.writable) { deliver(registration, readable: false, fromSweep: true) }
        }
    }

    /// Makes the registration's sources match its interest, making them the first time.
    ///
    /// Both sources are made at once, even for a direction not wanted yet: once a descriptor
    /// hangs up, libdispatch delivers the hang-up to the sources it has and stops watching the
    /// descriptor, and a source made after that would never fire. A suspended source keeps the
    /// hang-up until it is resumed.
    private func arm(_ registration: Registration) {
        if registration.read == nil {
            let fd = registration.fd
            let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            read.setEventHandler { self.deliver(registration, readable: true) }
            read.setCancelHandler { registration.sourceCancelled() }
            let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            write.setEventHandler { self.deliver(registration, readable: false) }
            write.setCancelHandler { registration.sourceCancelled() }
            registration.read = read
            registration.write = write
            registration.liveSources = 2
            read.resume()
            write.resume()
            registration.readArmed = true
            registration.writeArmed = true
        }
        let wantsRead = registration.interest.contains(.readable)
        if let source = registration.read, wantsRead != registration.readArmed {
            if wantsRead { resume(source, registration, readable: true) } else { source.suspend() }
            registration.readArmed = wantsRead
        }
        let wantsWrite = registration.interest.contains(.writable)
        if let source = registration.write, wantsWrite != registration.writeArmed {
            if wantsWrite { resume(source, registration, readable: false) } else { source.suspend() }
            registration.writeArmed = wantsWrite
        }
    }

    /// Resumes a suspended source and reports its direction once, whatever the source does: a
    /// hang-up that came while it was suspended, or before libdispatch registered it, may never
    /// be reported again. A report with nothing to do costs the loop one `recv` or `send` that
    /// would block, and only after back-pressure.
    private func resume(_ source: any DispatchSourceProtocol, _ registration: Registration, readable: Bool) {
        source.resume()
        queue.async { self.deliver(registration, readable: readable) }
    }

    /// Cancels the registration's sources. A suspended source delivers its cancel handler only
    /// once resumed, so it is resumed after the cancel (which stops its event handler first).
    private func cancel(_ registration: Registration, closing: Bool) {
        registration.closesDescriptor = closing
        if let source = registration.read {
            source.cancel()
            if !registration.readArmed { source.resume() }
        }
        if let source = registration.write {
            source.cancel()
            if !registration.writeArmed { source.resume() }
        }
        registration.read = nil
        registration.write = nil
        if registration.liveSources == 0, closing { _ = systemClose(registration.fd) }
    }
}

/// The system's `close`, by a name no poller method shadows.
private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}
