/// What the server asks of the application: a response for each request.
///
/// Called on an event-loop thread, synchronously, in request order per connection; it must
/// not block. The server handles framing, `Content-Length`, `Date`, `Connection`, HEAD
/// (GET's headers without the body) and every protocol error before a responder sees a request.
///
/// ```swift
/// struct Hello: HTTPResponder {
///     func respond(to request: HTTPRequest) -> HTTPResponse {
///         .text(.ok, "hello")
///     }
/// }
/// ```
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}
