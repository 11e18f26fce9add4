/// One client connection, owned by the event loop that accepted it. Not `Sendable`: only that
/// loop's thread touches it.
final class Connection {
    let fd: Int32
    var parser: HTTPRequestParser
    /// Serialized responses not yet sent; `sent` bytes of it are already out.
    var output: [UInt8] = []
    var sent = 0
    /// When the current partial request's first byte arrived (for the header deadline).
    var requestStartedAt: Double?
    /// Last time a request completed or the connection opened (for the idle deadline).
    var lastActivity: Double
    /// When the pending output first blocked (for the write deadline).
    var writeBlockedSince: Double?
    /// Where it is in its life: open, half-closed by the peer, closing, lingering.
    var state = ConnectionState.open
    /// What the poller currently watches this connection for.
    var interest: PollInterest

    init(fd: Int32, limits: HTTPRequestParser.Limits, now: Double, interest: PollInterest) {
        self.fd = fd
        self.parser = HTTPRequestParser(limits: limits)
        self.lastActivity = now
        self.interest = interest
    }

    var hasPendingOutput: Bool { sent < output.count }
}
