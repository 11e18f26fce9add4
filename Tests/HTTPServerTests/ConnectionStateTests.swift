import Testing

@testable import HTTPServer

/// The connection lifecycle as a table, without sockets: every state against every event.
@Suite struct ConnectionStateTests {
    typealias State = ConnectionState

    static let transitions: [(State, State.Event, State, State.Action)] = [
        (.open, .lastResponseQueued, .closing(peerClosed: false), .none),
        (.open, .peerFinished, .peerClosed, .none),
        (.open, .flushed(at: 5), .open, .answerBuffered),
        (.peerClosed, .lastResponseQueued, .closing(peerClosed: true), .none),
        (.peerClosed, .peerFinished, .peerClosed, .none),
        (.peerClosed, .flushed(at: 5), .peerClosed, .answerBuffered),
        (.closing(peerClosed: false), .lastResponseQueued, .closing(peerClosed: false), .none),
        (.closing(peerClosed: false), .peerFinished, .closing(peerClosed: true), .none),
        (.closing(peerClosed: false), .flushed(at: 5), .lingering(since: 5), .sendFIN),
        (.closing(peerClosed: true), .lastResponseQueued, .closing(peerClosed: true), .none),
        (.closing(peerClosed: true), .peerFinished, .closing(peerClosed: true), .none),
        (.closing(peerClosed: true), .flushed(at: 5), .closing(peerClosed: true), .close),
        (.lingering(since: 1), .lastResponseQueued, .lingering(since: 1), .none),
        (.lingering(since: 1), .peerFinished, .lingering(since: 1), .close),
        (.lingering(since: 1), .flushed(at: 5), .lingering(since: 1), .none),
    ]

    @Test func everyStateAgainstEveryEvent() {
        for (state, event, expectedState, expectedAction) in Self.transitions {
            let (next, action) = state.next(on: event)
            #expect(next == expectedState, "\(state) on \(event)")
            #expect(action == expectedAction, "\(state) on \(event)")
        }
        // The table is complete: 5 states × 3 events.
        #expect(Self.transitions.count == 15)
    }

    @Test(
        arguments: [
            // (state, pending output, backed up, interest)
            (State.open, false, false, PollInterest.readable),
            (.open, true, false, [.readable, .writable]),
            (.open, true, true, .writable),
            (.peerClosed, false, false, []),
            (.peerClosed, true, false, .writable),
            (.closing(peerClosed: false), true, false, .writable),
            (.closing(peerClosed: true), true, true, .writable),
            (.lingering(since: 0), false, false, .readable),
        ] as [(State, Bool, Bool, PollInterest)])
    func interestFollowsTheState(state: State, pending: Bool, backedUp: Bool, interest: PollInterest) {
        #expect(state.interest(hasPendingOutput: pending, backedUp: backedUp) == interest)
    }

    @Test func whatEachStateAllows() {
        #expect(State.open.answersRequests && !State.open.nextResponseIsLast && !State.open.discardsInput)
        #expect(State.peerClosed.answersRequests && State.peerClosed.nextResponseIsLast)
        #expect(!State.closing(peerClosed: false).answersRequests)
        #expect(State.lingering(since: 0).discardsInput && !State.lingering(since: 0).answersRequests)
    }

    /// The deadline that applies, in priority: linger (not a timeout), a blocked write, a
    /// request head in progress, then idleness.
    @Test func deadlinesInOrder() {
        let limits = State.Deadlines(header: 10, idle: 15, write: 7, linger: 2)
        func deadline(_ state: State, blocked: Double? = nil, started: Double? = nil, partial: Bool = false)
            -> (Double, Bool)
        {
            let result = state.deadline(
                writeBlockedSince: blocked, requestStartedAt: started, hasPartialRequest: partial, lastActivity: 100,
                limits: limits)
            return (result.at, result.isTimeout)
        }
        #expect(deadline(.lingering(since: 50), blocked: 60, started: 70, partial: true) == (52, false))
        #expect(deadline(.open, blocked: 60, started: 70, partial: true) == (67, true))
        #expect(deadline(.closing(peerClosed: false), blocked: 60) == (67, true))
        #expect(deadline(.open, started: 70, partial: true) == (80, true))
        #expect(deadline(.open, started: 70, partial: false) == (115, true))
        #expect(deadline(.peerClosed) == (115, true))
    }
}
