#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serving one connection: reading, parsing and answering its requests in turn, within the
/// loop's budget, and the replies that arrive from other threads.
extension EventLoop {
    func service(_ connection: Connection, _ event: PollEvent, now: Double) {
        if event.failed {
            apply(.ioFailed, to: connection, now: now)
            return
        }
        if event.writable {
            serve(connection, now: now)
            guard isCurrent(connection) else { return }
        }
        if event.readable {
            // More input while it holds requests: reading stops now (``updateInterest``).
            guard !connection.holdsRequests else { return updateInterest(connection, now: now, stopReading: true) }
            receive(connection, toEnd: event.readToEnd, now: now)
        }
    }

    func isCurrent(_ connection: Connection) -> Bool { connections[connection.fd] === connection }

    /// Reads what arrived and answers it. With `toEnd`, reads until the socket would block, the
    /// connection ends, or it stops reading (output backed up, a response awaited, turn over).
    ///
    /// One turn's budget covers everything read here: with `toEnd` (Dispatch), a client that
    /// sends its next request as soon as it has an answer would otherwise be served again and
    /// again within one event while every other connection of the loop waited.
    func receive(_ connection: Connection, toEnd: Bool, now: Double) {
        var budget = max(1, configuration.maxRequestsPerTurn)
        while true {
            let count = recv(connection.fd, readBuffer.baseAddress, readBuffer.count, 0)
            if count > 0 {
                if connection.state.discardsInput {  // after our FIN
                    if toEnd { continue } else { return }
                }
                if !connection.parser.hasPartialRequest { connection.requestStartedAt = now }
                connection.parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
                if !toEnd, answerAfterReads(connection) { return }
                serve(connection, budget: &budget, now: now)
                guard toEnd, isCurrent(connection), connection.interest.contains(.readable),
                    !connection.holdsRequests
                else { return }
            } else if count == 0 {
                apply(.endOfInput(idle: connection.isIdle), to: connection, now: now)
                // Half-closed: answer what arrived; the last answer closes.
                if isCurrent(connection) { serve(connection, now: now) }
                return
            } else if errno == EINTR {
                continue
            } else {
                if errno != EAGAIN, errno != EWOULDBLOCK { apply(.ioFailed, to: connection, now: now) }  // ECONNRESET…
                return
            }
        }
    }

    /// One turn of a connection: writes what is queued and, each time the output is out,
    /// answers buffered requests, up to `maxRequestsPerTurn` of them; then settles interest.
    func serve(_ connection: Connection, now: Double) {
        var budget = max(1, configuration.maxRequestsPerTurn)
        serve(connection, budget: &budget, now: now)
    }

    /// Part of a turn whose requests are counted in `budget`; a connection that spends it with
    /// requests left waits for its next turn.
    func serve(_ connection: Connection, budget: inout Int, now: Double) {
        while true {
            while connection.hasPendingOutput {
                let count = connection.output.send(to: connection.fd)
                if count > 0 { continue }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    if connection.writeBlockedSince == nil { connection.writeBlockedSince = now }
                    updateInterest(connection, now: now)
                    return
                }
                apply(.ioFailed, to: connection, now: now)  // EPIPE, ECONNRESET
                return
            }
            if connection.awaited == nil { connection.writeBlockedSince = nil }
            let (state, action) = connection.state.next(on: .flushed(at: now))
            connection.state = state
            guard action == .answerBuffered else {
                perform(action, on: connection, now: now)
                return
            }
            if connection.parser.hasPartialRequest {
                answerRequests(connection, budget: &budget, now: now)
                guard isCurrent(connection) else { return }
            }
            if connection.hasPendingOutput {
                if holdWrites(connection) { return }
                continue
            }
            if connection.state == .peerClosed, !connection.holdsRequests {
                // Nothing left to answer: what remains buffered is a head that can never end.
                apply(.endOfInput(idle: true), to: connection, now: now)
            } else {
                updateInterest(connection, now: now)
            }
            return
        }
    }

    /// Answers complete buffered requests, in order, until the output backs up, a response is
    /// deferred, or `budget` is spent; a connection with requests left waits for a turn.
    func answerRequests(_ connection: Connection, budget: inout Int, now: Double) {
        while connection.state.answersRequests, connection.awaited == nil, !connection.waitingForTurn,
            connection.output.pending < configuration.maxPendingOutputBytes
        {
            guard budget > 0 else {
                if connection.parser.hasPartialRequest {
                    connection.waitingForTurn = true
                    turns.append(connection)
                }
                return
            }
            var request: HTTPRequest
            do {
                guard let next = try connection.parser.next() else { return }
                request = next
                request.eventLoop = index
                request.client = connection.client
            } catch {
                statistics.errors.add(1, ordering: .relaxed)
                let response = HTTPResponse.text(error.status, error.reason + "\n")
                queue(response, headOnly: false, keepAlive: false, minorVersion: 1, on: connection, now: now)
                return
            }
            budget -= 1
            let reply = HTTPReply(mailbox: mailbox, fd: connection.fd, serial: connection.serial)
            guard let response = responder.respond(to: request, reply: reply) else {
                connection.awaited = .init(
                    headOnly: request.method == .head, keepAlive: request.keepAlive,
                    minorVersion: request.minorVersion)
                connection.writeBlockedSince = now  // the write deadline runs while it waits
                return
            }
            queue(
                response, headOnly: request.method == .head, keepAlive: request.keepAlive,
                minorVersion: request.minorVersion, on: connection, now: now)
        }
        // Interest is settled by `serve`, which always follows: changing it here would cost two
        // interest changes per request (add writable, then drop it once the write succeeds).
    }

    /// Serializes one answer into the connection's output; one that ends the connection moves
    /// it on to closing.
    func queue(
        _ response: HTTPResponse, headOnly: Bool, keepAlive: Bool, minorVersion: Int, on connection: Connection,
        now: Double
    ) {
        let keepAlive = keepAlive && !connection.state.nextResponseIsLast
        ResponseSerializer.append(
            response, headOnly: headOnly, keepAlive: keepAlive, minorVersion: minorVersion, date: date.current(),
            to: &connection.output)
        connection.lastActivity = now
        connection.requestStartedAt = connection.parser.hasPartialRequest ? now : nil
        if !keepAlive { apply(.lastResponseQueued, to: connection, now: now) }
    }

    /// Writes the deferred responses that came back since the last batch.
    func deliverReplies(now: Double) {
        for delivery in mailbox.take() {
            guard let connection = connections[delivery.fd], connection.serial == delivery.serial,
                let awaited = connection.awaited
            else { continue }  // gone, or answered already
            connection.awaited = nil
            connection.writeBlockedSince = nil
            queue(
                delivery.response, headOnly: awaited.headOnly, keepAlive: awaited.keepAlive,
                minorVersion: awaited.minorVersion, on: connection, now: now)
            serve(connection, now: now)
        }
    }

    /// Gives each connection that ran out of turn its next one.
    func runTurns(now: Double) {
        guard !turns.isEmpty else { return }
        var due: [Connection] = []
        swap(&due, &turns)
        for connection in due where isCurrent(connection) {
            connection.waitingForTurn = false
            serve(connection, now: now)
        }
    }

}
