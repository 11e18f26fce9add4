/// Where a connection is in its life, from accept to close. The event loop performs the I/O
/// and reports what it saw (``Event``); the state says what comes next (``Action``), which
/// readiness it waits for, and which deadline applies. The loop never closes, shuts down or
/// answers a connection on its own: it carries out the action of a transition.
///
/// ```
///                    last response queued                flushed: send FIN
///   open ──────────────────────────────────▶ closing ─────────────────────▶ lingering
///    │ │ drain, busy          last response ▲  ▲ │ flushed, peer gone          │ end of input,
///    │ └───────▶ draining ───────queued─────┘  │ │ : close                     │ or linger
///    │ end of input, busy │ end of input, busy │ ▼                             ▼ deadline
///    └───────────▶ peerClosed ─────────────────┘ closed ◀──────────────────────┘
///
///   Every state but closed: I/O failure or a deadline → closed (close). open or draining,
///   idle: end of input or drain → closed (close). peerClosed, once idle → closed (close).
/// ```
///
/// Orthogonal to these, a connection may be waiting for its output to drain (back-pressure,
/// under the write deadline), for a deferred response (``HTTPReply``, under the write deadline
/// too), or for its next turn on the loop; answering requests happens within one event, in
/// order, so it is a step, not a resting state. Not `Sendable`: it belongs to one connection
/// on one loop.
enum ConnectionState: Equatable {
    /// Reading requests and answering them as they complete.
    case open
    /// The server is draining: the request being read or awaited is answered, as the last
    /// one; nothing after it is.
    case draining
    /// The peer sent FIN: the next answer is the last, then the connection closes.
    case peerClosed
    /// No request is answered any more: the output is flushed, then FIN is sent (or, when the
    /// peer has closed too, the connection is closed).
    case closing(peerClosed: Bool)
    /// Our FIN is sent; input is read and dropped, so unread request bytes do not make the
    /// kernel reset the connection before the client has read the response.
    case lingering(since: Double)
    /// Closed: nothing happens to it any more.
    case closed

    enum Event: Equatable {
        /// A response that ends the connection was queued: `Connection: close`, an answer to a
        /// malformed request, or an answer given before a body that will not be read.
        case lastResponseQueued
        /// The peer sent FIN (end of input). `idle`: nothing is pending, buffered or awaited.
        case endOfInput(idle: Bool)
        /// Everything queued has been sent.
        case flushed(at: Double)
        /// A read, write or poller call failed (a reset, an unreachable peer).
        case ioFailed
        /// The deadline that applies (``deadline(writeBlockedSince:requestStartedAt:hasPartialRequest:lastActivity:limits:)``) passed.
        case deadlinePassed
        /// The server began to drain. `idle`: nothing is pending, buffered or awaited.
        case drain(idle: Bool)
    }

    enum Action: Equatable {
        case none
        /// Answer requests that were held back while the output was backed up, or finish the
        /// connection if nothing is left.
        case answerBuffered
        /// Shut down the sending side and linger.
        case sendFIN
        /// Close the descriptor and forget the connection.
        case close
    }

    /// The state after `event`, and what the loop must do.
    func next(on event: Event) -> (ConnectionState, Action) {
        switch (self, event) {
        case (.closed, _): (.closed, .none)
        case (_, .ioFailed), (_, .deadlinePassed): (.closed, .close)

        case (.open, .lastResponseQueued), (.draining, .lastResponseQueued): (.closing(peerClosed: false), .none)
        case (.peerClosed, .lastResponseQueued): (.closing(peerClosed: true), .none)
        case (.closing, .lastResponseQueued), (.lingering, .lastResponseQueued): (self, .none)

        case (.open, .endOfInput(idle: true)), (.draining, .endOfInput(idle: true)),
            (.peerClosed, .endOfInput(idle: true)), (.lingering, .endOfInput):
            (.closed, .close)
        case (.open, .endOfInput(idle: false)), (.draining, .endOfInput(idle: false)),
            (.peerClosed, .endOfInput(idle: false)):
            (.peerClosed, .none)
        case (.closing, .endOfInput(idle: true)): (.closed, .close)
        case (.closing, .endOfInput(idle: false)): (.closing(peerClosed: true), .none)

        case (.open, .flushed), (.draining, .flushed), (.peerClosed, .flushed): (self, .answerBuffered)
        case (.closing(peerClosed: false), .flushed(let now)): (.lingering(since: now), .sendFIN)
        case (.closing(peerClosed: true), .flushed): (.closed, .close)
        case (.lingering, .flushed): (self, .none)

        case (.open, .drain(idle: true)), (.draining, .drain(idle: true)), (.peerClosed, .drain(idle: true)):
            (.closed, .close)
        case (.open, .drain(idle: false)): (.draining, .none)
        case (.draining, .drain(idle: false)), (.peerClosed, .drain(idle: false)), (.closing, .drain),
            (.lingering, .drain):
            (self, .none)
        }
    }

    /// Whether buffered requests may still be answered.
    var answersRequests: Bool { self == .open || self == .draining || self == .peerClosed }

    /// Whether the next response must say `Connection: close`.
    var nextResponseIsLast: Bool { self == .peerClosed || self == .draining }

    /// Whether bytes that arrive are thrown away.
    var discardsInput: Bool {
        if case .lingering = self { true } else { false }
    }

    /// What to wait for: readable while requests are read (unless the output is backed up or
    /// the connection `holds` requests it has not answered yet: one awaited, or more waiting for
    /// a turn) or input is discarded; writable while output is pending.
    func interest(hasPendingOutput: Bool, backedUp: Bool, holds: Bool = false) -> PollInterest {
        var wanted: PollInterest = []
        switch self {
        case .open where !backedUp && !holds, .draining where !backedUp && !holds, .lingering:
            wanted.insert(.readable)
        case .open, .draining, .peerClosed, .closing, .closed: break
        }
        if hasPendingOutput, self != .closed { wanted.insert(.writable) }
        return wanted
    }

    /// The moment this connection is given up, and whether that counts as a timeout (lingering
    /// after our FIN is the normal end, not one). A connection awaiting a deferred response
    /// waits under the write deadline from the moment it asked (`writeBlockedSince`).
    func deadline(
        writeBlockedSince: Double?, requestStartedAt: Double?, hasPartialRequest: Bool, lastActivity: Double,
        limits: Deadlines
    ) -> (at: Double, isTimeout: Bool) {
        if case .lingering(let since) = self { return (since + limits.linger, false) }
        if let blocked = writeBlockedSince { return (blocked + limits.write, true) }
        if let started = requestStartedAt, hasPartialRequest { return (started + limits.header, true) }
        return (lastActivity + limits.idle, true)
    }

    /// How long each kind of wait may last, seconds.
    struct Deadlines: Equatable {
        var header: Double
        var idle: Double
        var write: Double
        var linger: Double
    }
}
