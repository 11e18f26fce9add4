/// What a descriptor is waited on for.
struct PollInterest: OptionSet, Sendable, Equatable {
    let rawValue: UInt8
    static let readable = PollInterest(rawValue: 1)
    static let writable = PollInterest(rawValue: 2)
}

/// One ready descriptor, as a poller reports it.
struct PollEvent {
    var fd: Int32
    var readable: Bool
    var writable: Bool
    /// An error or hang-up with nothing left to read: the connection is over.
    var failed: Bool
    /// Read until the socket would block: this may be the last report for the descriptor.
    /// libdispatch reports a hang-up once, with whatever data came before it, and then stops
    /// watching the descriptor; epoll reports it for as long as it lasts.
    var readToEnd: Bool
}

/// What a handler wants after a batch.
enum PollNext: Equatable {
    /// Wait until a descriptor is ready or the poller is woken.
    case wait
    /// Report whatever is ready now, without waiting, and end that batch at once: the handler
    /// has work left of its own (turns, a spare render), and descriptors go first.
    case poll
    /// End the run.
    case stop
}

/// What a poller drives: the event loop. Every call comes from the poller's one serial context
/// (the epoll loop's thread, or the Dispatch backend's serial queue), never two at once.
protocol PollHandler: AnyObject, Sendable {
    /// One ready descriptor.
    func handle(_ event: PollEvent)
    /// Called after each batch of `events` ready descriptors, and with 0 after each
    /// ``Poller/wake()`` or `.poll` that found nothing; `.stop` ends ``Poller/run(_:finished:)``.
    func batchFinished(events: Int) -> PollNext
}

/// Waits until descriptors are ready and tells a ``PollHandler``: all an event loop needs from
/// the operating system besides the sockets themselves. Each backend lives in one file
/// (`EpollPoller`, `DispatchPoller`), and nothing else names its system calls or constants.
///
/// Interest is level-triggered: a descriptor is reported again after each batch for as long as
/// it is ready for what it is registered for. The poller owns the end of a descriptor's life
/// (``close(_:)``), because a backend may still watch it for a moment after it is forgotten, and
/// the kernel must not reuse its number until then.
///
/// Apart from ``wake()``, call a poller before ``run(_:finished:)`` from the thread that made
/// it, and after that only from the handler's calls.
///
/// ```swift
/// let poller = try EpollPoller()
/// guard poller.add(socket, .readable) else { close(socket); return }
/// poller.run(loop) { print("drained") }  // loop.handle(event) for each ready descriptor
/// ```
protocol Poller: AnyObject, Sendable {
    /// Starts watching `fd`; false when the system refuses (no memory for the entry), and the
    /// descriptor is then not watched: the caller closes it.
    func add(_ fd: Int32, _ interest: PollInterest) -> Bool
    /// Changes what `fd` is watched for; false when the system refuses.
    func modify(_ fd: Int32, _ interest: PollInterest) -> Bool
    /// Stops watching `fd` and leaves it open (a listener pausing its accepts).
    func remove(_ fd: Int32)
    /// Stops watching `fd` and closes it once the backend no longer refers to it.
    func close(_ fd: Int32)
    /// Whether ``run(_:finished:)`` blocks the calling thread for the whole run (epoll: the loop's
    /// own thread), or runs on threads of its own (Dispatch: the queue's workers) and returns
    /// once it is under way, so the loop needs no thread of its own.
    var needsThread: Bool { get }
    /// Whether one wake-up reports many ready descriptors before its batch ends (epoll), or
    /// each event is a batch of its own (Dispatch): only the first gives answers others to be
    /// written with.
    var reportsBatches: Bool { get }
    /// Reports ready descriptors to `handler` until its ``PollHandler/batchFinished(events:)``
    /// returns `.stop`, then calls `finished`.
    func run(_ handler: any PollHandler, finished: @escaping @Sendable () -> Void)
    /// Makes the handler's ``PollHandler/batchFinished(events:)`` run soon with 0 events, on
    /// the poller's serial context. Safe from any thread, and before ``run(_:finished:)``.
    func wake()
}
