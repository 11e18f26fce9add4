import Testing

@testable import HTTPServer

/// The connection lifecycle as a table, without sockets: every state against every event.
@Suite struct ConnectionStateTests {
    typealias State = ConnectionState

    static let states: [State] = [
        .open, .draining, .peerClosed, .closing(peerClosed: false), .closing(peerClosed: true),
        .lingering(since: 1), .closed,
    ]
    static let events: [State.Event] = [
        .lastResponseQueued, .endOfInput(idle: true), .endOfInput(idle: false), .flushed(at: 5), .ioFailed,
        .deadlinePassed, .drain(idle: true), .drain(idle: false),
    ]

    /// Every state against every event, written out: (state, event, next state, action).
    static let transitions: [(State, State.Event, State, State.Action)] = [
        (.open, .lastResponseQueued, .closing(peerClosed: false), .none),
        (.open, .endOfInput(idle: true), .closed, .close),
        (.open, .endOfInput(idle: false), .peerClosed, .none),
        (.open, .flushed(at: 5), .open, .answerBuffered),
        (.open, .ioFailed, .closed, .close),
        (.open, .deadlinePassed, .closed, .close),
        (.open, .drain(idle: true), .closed, .close),
        (.open, .drain(idle: false), .draining, .none),

        (.draining, .lastResponseQueued, .closing(peerClosed: false), .none),
        (.draining, .endOfInput(idle: true), .closed, .close),
        (.draining, .endOfInput(idle: false), .peerClosed, .none),
        (.draining, .flushed(at: 5), .draining, .answerBuffered),
        (.draining, .ioFailed, .closed, .close),
        (.draining, .deadlinePassed, .closed, .close),
        (.draining, .drain(idle: true), .closed, .close),
        (.draining, .drain(idle: false), .draining, .none),

        (.peerClosed, .lastResponseQueued, .closing(peerClosed: true), .none),
        (.peerClosed, .endOfInput(idle: true), .closed, .close),
        (.peerClosed, .endOfInput(idle: false), .peerClosed, .none),
        (.peerClosed, .flushed(at: 5), .peerClosed, .answerBuffered),
        (.peerClosed, .ioFailed, .closed, .close),
        (.peerClosed, .deadlinePassed, .closed, .close),
        (.peerClosed, .drain(idle: true), .closed, .close),
        (.peerClosed, .drain(idle: false), .peerClosed, .none),

        (.closing(peerClosed: false), .lastResponseQueued, .closing(peerClosed: false), .none),
        (.closing(peerClosed: false), .endOfInput(idle: true), .closed, .close),
        (.closing(peerClosed: false), .endOfInput(idle: false), .closing(peerClosed: true), .none),
        (.closing(peerClosed: false), .flushed(at: 5), .lingering(since: 5), .sendFIN),
        (.closing(peerClosed: false), .ioFailed, .closed, .close),
        (.closing(peerClosed: false), .deadlinePassed, .closed, .close),
        (.closing(peerClosed: false), .drain(idle: true), .closing(peerClosed: false), .none),
        (.closing(peerClosed: false), .drain(idle: false), .closing(peerClosed: false), .none),

        (.closing(peerClosed: true), .lastResponseQueued, .closing(peerClosed: true), .none),
        (.closing(peerClosed: true), .endOfInput(idle: true), .closed, .close),
        (.closing(peerClosed: true), .endOfInput(idle: false), .closing(peerClosed: true), .none),
        (.closing(peerClosed: true), .flushed(at: 5), .closed, .close),
        (.closing(peerClosed: true), .ioFailed, .closed, .close),
        (.closing(peerClosed: true), .deadlinePassed, .closed, .close),
        (.closing(peerClosed: true), .drain(idle: true), .closing(peerClosed: true), .none),
        (.closing(peerClosed: true), .drain(idle: false), .closing(peerClosed: true), .none),

        (.lingering(since: 1), .lastResponseQueued, .lingering(since: 1), .none),
        (.lingering(since: 1), .endOfInput(idle: true), .closed, .close),
        (.lingering(since: 1), .endOfInput(idle: false), .closed, .close),
        (.lingering(since: 1), .flushed(at: 5), .lingering(since: 1), .none),
        (.lingering(since: 1), .ioFailed, .closed, .close),
        (.lingering(since: 1), .deadlinePassed, .closed, .close),
        (.lingering(since: 1), .drain(idle: true), .lingering(since: 1), .none),
        (.lingering(since: 1), .drain(idle: false), .lingering(since: 1), .none),

        (.closed, .lastResponseQueued, .closed, .none),
        (.closed, .endOfInput(idle: true), .closed, .none),
        (.closed, .endOfInput(idle: false), .closed, .none),
        (.closed, .flushed(at: 5), .closed, .none),
        (.closed, .ioFailed, .closed, .none),
        (.closed, .deadlinePassed, .closed, .none),
        (.closed, .drain(idle: true), .closed, .none),
        (.closed, .drain(idle: false), .closed, .none),
    ]

    @Test func everyStateAgainstEveryEvent() {
        for (state, event, expectedState, expectedAction) in Self.transitions {
            let (next, action) = state.next(on: event)
            #expect(next == expectedState, "\(state) on \(event)")
            #expect(action == expectedAction, "\(state) on \(event)")
        }
        // The table is complete: every state against every event, once.
        #expect(Self.transitions.count == Self.states.count * Self.events.count)
        for state in Self.states {
            for event in Self.events {
                #expect(
                    Self.transitions.filter { $0.0 == state && $0.1 == event }.count == 1, "\(state) on \(event)")
            }
        }
    }

    /// Closing is the only way out, and nothing comes back from it.
    @Test func closeIsTheOnlyWayToClosed() {
        for (state, event, next, action) in Self.transitions where state != .closed {
            #expect((next == .closed) == (action == .close), "\(state) on \(event)")
        }
    }

    @Test(
        arguments: [
            // (state, pending output, backed up, holds requests, interest)
            (State.open, false, false, false, PollInterest.readable),
            (.open, true, false, false, [.readable, .writable]),
            (.open, true, true, false, .writable),
            (.open, false, false, true, []),
            (.open, true, false, true, .writable),
            (.draining, false, false, false, .readable),
            (.draining, false, false, true, []),
            (.peerClosed, false, false, false, []),
            (.peerClosed, true, false, false, .writable),
            (.closing(peerClosed: false), true, false, false, .writable),
            (.closing(peerClosed: true), true, true, false, .writable),
            (.lingering(since: 0), false, false, false, .readable),
            (.closed, true, false, false, []),
        ] as [(State, Bool, Bool, Bool, PollInterest)])
    func interestFollowsTheState(state: State, pending: Bool, backedUp: Bool, holds: Bool, interest: PollInterest) {
        #expect(state.interest(hasPendingOutput: pending, backedUp: backedUp, holds: holds) == interest)
    }

    @Test func whatEachStateAllows() {
        #expect(State.open.answersRequests && !State.open.nextResponseIsLast && !State.open.discardsInput)
        #expect(State.draining.answersRequests && State.draining.nextResponseIsLast)
        #expect(State.peerClosed.answersRequests && State.peerClosed.nextResponseIsLast)
        #expect(!State.closing(peerClosed: false).answersRequests)
        #expect(State.lingering(since: 0).discardsInput && !State.lingering(since: 0).answersRequests)
        #expect(!State.closed.answersRequests && !State.closed.discardsInput)
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
