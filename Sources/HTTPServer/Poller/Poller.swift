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
}

/// Waits until descriptors are ready: all an event loop needs from the operating system
/// besides the sockets themselves. Each backend lives in one file (`EpollPoller`), and nothing
/// else names its system calls or constants.
///
/// Interest is level-triggered: a descriptor is reported on every wait for as long as it is
/// ready for what it is registered for.
///
/// ```swift
/// let poller = try EpollPoller()
/// guard poller.add(socket, .readable) else { close(socket); return }
/// poller.wait { event in if event.readable { read(event.fd) } }
/// ```
protocol Poller: AnyObject, Sendable {
    /// Starts watching `fd`; false when the system refuses (no memory for the entry).
    func add(_ fd: Int32, _ interest: PollInterest) -> Bool
    /// Changes what `fd` is watched for; false when the system refuses.
    func modify(_ fd: Int32, _ interest: PollInterest) -> Bool
    /// Stops watching `fd`. Closing a descriptor stops it too; this keeps the set exact.
    func remove(_ fd: Int32)
    /// Blocks until at least one descriptor is ready or ``wake()`` is called, calls `body` for
    /// each ready descriptor, and returns how many there were (0 after a bare wake-up).
    func wait(_ body: (PollEvent) -> Void) -> Int
    /// Makes a ``wait(_:)`` in progress, or the next one, return. Safe from any thread.
    func wake()
}
