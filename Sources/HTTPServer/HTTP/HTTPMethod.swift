/// The request methods the server passes to its responder: those of RFC 9110 but CONNECT,
/// plus PATCH. Any other token, CONNECT among them, gets 501 from the server itself (RFC 9110
/// §15.6.2: a method it does not implement for any resource), so responders only decide between
/// serving and 405.
package enum HTTPMethod: String, Sendable, CaseIterable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
    case patch = "PATCH"
    case options = "OPTIONS"
    case trace = "TRACE"
}
