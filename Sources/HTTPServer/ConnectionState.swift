/// Where a connection is in its life. The event loop performs the I/O and reports what it
/// saw (``Event``); the state says what comes next (``Action``), which readiness it waits for,
/// and which deadline applies.
///
/// ```
///          last response queued                 flushed: send FIN
///   open ────────────────────────▶ closing ──────────────────────────▶ lingering ──▶ (closed)
///    │                              ▲   │ flushed, peer gone: close      │ EOF or the linger
///    │ peer sent FIN                │   ▼                                │ deadline: close
///    └──────────▶ peerClosed ───────┘ (closed)
///                  last response queued, or flushed with nothing left: close
/// ```
///
/// Orthogonal to these, output that the socket does not take is waited for as writable, under
/// the write deadline (back-pressure); answering requests happens within one event, pipelined
/// requests in order, so it is a step, not a resting state. Not `Sendable`: it belongs to one
/// connection on one loop.
enum ConnectionState: Equatable {
    /// Reading requests and answering them as they complete.
    case open
    /// The peer sent FIN: the next answer is the last, then the connection closes.
    case peerClosed
    /// No request is answered any more: the output is flushed, then FIN is sent (or, when the
    /// peer has closed too, the connection is closed).
    case closing(peerClosed: Bool)
    /// Our FIN is sent; input is read and dropped, so unread request bytes do not make the
    /// kernel reset the connection before the client has read the response.
    case lingering(since: Double)

    enum Event: Equatable {
        /// A response that ends the connection was queued: `Connection: close`, an answer to a
        /// malformed request, or an answer given before a body that will not be read.
        case lastResponseQueued
        /// The peer sent FIN while work was pending.
        case peerFinished
        /// Everything queued has been sent.
        case flushed(at: Double)
    }

    enum Action: Equatable {
        case none
        /// Answer requests that were held back while the output was backed up.
        case answerBuffered
        /// Shut down the sending side and linger.
        case sendFIN
        case close
    }

    /// The state after `event`, and what the loop must do.
    func next(on event: Event) -> (ConnectionState, Action) {
        switch (self, event) {
        case (.open, .lastResponseQueued): (.closing(peerClosed: false), .none)
        case (.peerClosed, .lastResponseQueued): (.closing(peerClosed: true), .none)
        case (.closing, .lastResponseQueued), (.lingering, .lastResponseQueued): (self, .none)
        case (.open, .peerFinished): (.peerClosed, .none)
        case (.closing, .peerFinished): (.closing(peerClosed: true), .none)
        case (.peerClosed, .peerFinished): (self, .none)
        case (.lingering, .peerFinished): (self, .close)
        case (.open, .flushed), (.peerClosed, .flushed): (self, .answerBuffered)
        case (.closing(peerClosed: false), .flushed(let now)): (.lingering(since: now), .sendFIN)
        case (.closing(peerClosed: true), .flushed): (self, .close)
        case (.lingering, .flushed): (self, .none)
        }
    }

    /// Whether buffered requests may still be answered.
    var answersRequests: Bool { self == .open || self == .peerClosed }

    /// Whether the next response must say `Connection: close`.
    var nextResponseIsLast: Bool { self == .peerClosed }

    /// Whether bytes that arrive are thrown away.
    var discardsInput: Bool {
        if case .lingering = self { true } else { false }
    }

    /// What to wait for: readable while requests are read (unless the output is backed up) or
    /// input is discarded; writable while output is pending.
    func interest(hasPendingOutput: Bool, backedUp: Bool) -> PollInterest {
        var wanted: PollInterest = []
        switch self {
        case .open where !backedUp, .lingering: wanted.insert(.readable)
        case .open, .peerClosed, .closing: break
        }
        if hasPendingOutput { wanted.insert(.writable) }
        return wanted
    }

    /// The moment this connection is given up, and whether that counts as a timeout (lingering
    /// after our FIN is the normal end, not one).
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
