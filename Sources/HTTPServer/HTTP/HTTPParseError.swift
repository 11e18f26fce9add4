/// Why a request could not be read. Each error is answered with its status and the
/// connection is closed, since framing after a broken request cannot be trusted.
package enum HTTPParseError: Error, Sendable, Equatable {
    case badRequest(String)
    case uriTooLong
    case headerFieldsTooLarge
    case contentTooLarge
    case notImplemented(String)
    case versionNotSupported
    /// An `Expect` field asking for anything but `100-continue` (RFC 9110 §10.1.1).
    case expectationFailed

    /// The status that answers this error.
    package var status: HTTPStatus {
        switch self {
        case .badRequest: .badRequest
        case .uriTooLong: .uriTooLong
        case .headerFieldsTooLarge: .headerFieldsTooLarge
        case .contentTooLarge: .contentTooLarge
        case .notImplemented: .notImplemented
        case .versionNotSupported: .versionNotSupported
        case .expectationFailed: .expectationFailed
        }
    }

    /// A one-line explanation for the response body.
    package var reason: String {
        switch self {
        case .badRequest(let why): why
        case .uriTooLong: "request line too long"
        case .headerFieldsTooLarge: "header block too large"
        case .contentTooLarge: "request body too large"
        case .notImplemented(let why): why
        case .versionNotSupported: "only HTTP/1.x is supported"
        case .expectationFailed: "only the 100-continue expectation is supported"
        }
    }
}
