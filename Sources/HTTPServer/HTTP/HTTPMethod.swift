/// The request methods the server passes to its responder. Any other token gets 501 from the
/// server itself (RFC 9110 §9.1), so responders only decide between serving and 405.
public enum HTTPMethod: String, Sendable, CaseIterable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
    case patch = "PATCH"
    case options = "OPTIONS"
}
