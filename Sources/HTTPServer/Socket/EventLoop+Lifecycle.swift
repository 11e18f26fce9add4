#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connection's lifecycle on the loop: its state machine's actions, its poller interest, its
/// deadlines, and the drain at shutdown.
extension EventLoop {
    /// Moves `connection` on by `event` and carries out what the transition asks.
    func apply(_ event: ConnectionState.Event, to connection: Connection, now: Double) {
        let (state, action) = connection.state.next(on: event)
        connection.state = state
        perform(action, on: connection, now: now)
    }

    func perform(_ action: ConnectionState.Action, on connection: Connection, now: Double) {
        switch action {
        case .none:
            break  // the caller serves the connection next, which settles its interest
        case .answerBuffered:
            serve(connection, now: now)
        case .sendFIN:
            if shutdown(connection.fd, Int32(SHUT_WR)) == 0 {
                updateInterest(connection, now: now)
            } else {
                apply(.ioFailed, to: connection, now: now)  // ENOTCONN: the peer is gone already
            }
        case .close:
            guard connections.removeValue(forKey: connection.fd) != nil else { return }
            poller.close(connection.fd)
            statistics.open.subtract(1, ordering: .relaxed)
            clients.release(connection.client)
        }
    }

    /// Settles `connection`'s poller interest. A connection that holds requests (one awaited,
    /// or more waiting for a turn) reads no more, but a client rarely sends again before its
    /// answer: unless `stopReading`, a readable interest is left on until it fires
    /// (``service(_:_:now:)`` then calls back with `stopReading`), which saves the two
    /// `epoll_ctl` calls a deferred answer would otherwise cost (two of the five system calls a
    /// new PNG made; docs/performance.md).
    func updateInterest(_ connection: Connection, now: Double, stopReading: Bool = false) {
        let backedUp = connection.output.pending >= configuration.maxPendingOutputBytes
        let state = connection.state
        var wanted = state.interest(
            hasPendingOutput: connection.hasPendingOutput, backedUp: backedUp, holds: connection.holdsRequests)
        if !stopReading, connection.interest.contains(.readable), connection.holdsRequests,
            state.interest(hasPendingOutput: connection.hasPendingOutput, backedUp: backedUp).contains(.readable)
        {
            wanted.insert(.readable)
        }
        guard wanted != connection.interest else { return }
        connection.interest = wanted
        statistics.interestChanged.add(1, ordering: .relaxed)
        // A connection whose interest cannot be changed would never be woken again, or never
        // stop being woken.
        if !poller.modify(connection.fd, wanted) { apply(.ioFailed, to: connection, now: now) }
    }

    // MARK: Deadlines and draining

    func sweep(now: Double) {
        if let until = acceptPausedUntil, now >= until, let listener {
            // Still out of memory for the poller's entry: try again at the next sweep.
            acceptPausedUntil = poller.add(listener, .readable) ? nil : now + configuration.acceptBackoff
        }
        let limits = ConnectionState.Deadlines(
            header: configuration.headerTimeout, idle: draining ? 0 : configuration.idleTimeout,
            write: configuration.writeTimeout, linger: configuration.lingerTimeout)
        for connection in Array(connections.values) {
            let (deadline, isTimeout) = connection.state.deadline(
                writeBlockedSince: connection.writeBlockedSince, requestStartedAt: connection.requestStartedAt,
                hasPartialRequest: connection.parser.hasPartialRequest, lastActivity: connection.lastActivity,
                limits: limits)
            if now > deadline {
                if isTimeout { statistics.timedOut.add(1, ordering: .relaxed) }
                apply(.deadlinePassed, to: connection, now: now)
            }
        }
    }

    /// Stops accepting, closes idle connections and lets the others finish the request they are
    /// reading or awaiting, as their last; ``batchFinished(events:)`` cuts what is left at the
    /// drain deadline.
    func beginDrain(now: Double) {
        draining = true
        drainDeadline = now + configuration.drainTimeout
        if let listener {
            poller.close(listener)
            self.listener = nil
        }
        for connection in Array(connections.values) {
            apply(.drain(idle: connection.isIdle), to: connection, now: now)
        }
    }
}
