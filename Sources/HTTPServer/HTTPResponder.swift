/// What the server asks of the application: a response for each request.
///
/// Called on an event-loop thread, synchronously, in request order per connection; it must
/// not block, and it must be cheap: every other connection on the loop waits while it runs.
/// Work that is not cheap goes elsewhere: keep the ``HTTPReply``, return nil, and send the
/// response through the reply once it is ready. The server handles framing,
/// `Content-Length`, `Date`, `Connection`, HEAD (GET's headers without the body) and every
/// protocol error before a responder sees a request.
///
/// ```swift
/// struct Hello: HTTPResponder {
///     func respond(to request: HTTPRequest) -> HTTPResponse {
///         .text(.ok, "hello")
///     }
/// }
/// ```
package protocol HTTPResponder: Sendable {
    /// The response to `request`, made at once.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The response now, or nil after keeping `reply` to answer later from any thread. What
    /// the server calls; by default ``respond(to:)``.
    func respond(to request: HTTPRequest, reply: HTTPReply) -> HTTPResponse?

    /// The server has begun to drain: work not yet started may be answered at once (a 503,
    /// say) instead of done. Called once, from the thread that asked the server to stop.
    func drainBegan()

    /// An event loop has handled a batch of ready descriptors: the responder may do bounded
    /// pieces of the work it deferred (answering through its ``HTTPReply``s), on the loop's
    /// thread, instead of handing them to threads of its own, beginning none once `budget`
    /// seconds (the loop's `--write-delay-us`) have passed since the first ended. Returns whether it
    /// did any; the loop then writes their answers together, handles whatever became ready
    /// meanwhile and offers another spare turn. With nothing to do it must return at once: the
    /// loop asks after every batch.
    ///
    /// Called from every loop, at once; by default it does nothing. Every connection on the
    /// loop waits while it runs, so each piece must stay as cheap as the responder promises.
    func spareTurn(for budget: Double) -> Bool
}

extension HTTPResponder {
    package func respond(to request: HTTPRequest, reply: HTTPReply) -> HTTPResponse? {
        respond(to: request)
    }

    package func drainBegan() {}

    package func spareTurn(for budget: Double) -> Bool { false }
}
