/// One client connection, owned by the event loop that accepted it. Not `Sendable`: only that
/// loop's thread touches it.
final class Connection {
    let fd: Int32
    /// Unique on its loop for the loop's life: a deferred reply names the connection by
    /// descriptor and serial, so a reply for a closed connection never reaches a new one that
    /// was given the same descriptor.
    let serial: UInt64
    /// The peer's address, given to each of its requests.
    let client: ClientAddress
    var parser: HTTPRequestParser
    /// Serialized responses not yet sent.
    var output = OutputQueue()
    /// When the current partial request's first byte arrived (for the header deadline).
    var requestStartedAt: Double?
    /// Last time a request completed or the connection opened (for the idle deadline).
    var lastActivity: Double
    /// When the pending output first blocked, or the awaited response was asked for (for the
    /// write deadline).
    var writeBlockedSince: Double?
    /// Where it is in its life: open, draining, half-closed by the peer, closing, lingering.
    var state = ConnectionState.open
    /// What the poller currently watches this connection for.
    var interest: PollInterest
    /// The request whose response a responder will send later (``HTTPReply``); nothing after
    /// it is answered until then.
    var awaited: AwaitedRequest?
    /// Whether it is queued for another turn of its loop, with complete requests left over.
    var waitingForTurn = false
    /// Whether its answers are held until its loop's batch ends (``EventLoop/holdWrites(_:)``).
    var writesHeld = false
    /// Whether input read in its loop's batch waits for the batch's reads to end before it is
    /// answered (``EventLoop/answerAfterReads(_:)``).
    var answerPending = false

    /// What the serializer needs of a request answered later.
    struct AwaitedRequest {
        var headOnly: Bool
        var keepAlive: Bool
        var minorVersion: Int
    }

    init(
        fd: Int32, serial: UInt64, client: ClientAddress, limits: HTTPRequestParser.Limits, now: Double,
        interest: PollInterest
    ) {
        self.fd = fd
        self.serial = serial
        self.client = client
        self.parser = HTTPRequestParser(limits: limits)
        self.lastActivity = now
        self.interest = interest
    }

    var hasPendingOutput: Bool { !output.isEmpty }

    /// Nothing to send, nothing buffered, nothing awaited.
    var isIdle: Bool { output.isEmpty && !parser.hasPartialRequest && awaited == nil }

    /// Requests it has taken in and not answered yet stop it reading more.
    var holdsRequests: Bool { awaited != nil || waitingForTurn }
}
