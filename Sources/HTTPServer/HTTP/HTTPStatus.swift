/// An HTTP status code with its reason phrase.
package struct HTTPStatus: Sendable, Hashable {
    package var code: Int
    package var reason: String

    package init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    package static let ok = HTTPStatus(code: 200, reason: "OK")
    package static let notModified = HTTPStatus(code: 304, reason: "Not Modified")
    package static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    package static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    package static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    package static let preconditionFailed = HTTPStatus(code: 412, reason: "Precondition Failed")
    package static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    package static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    package static let expectationFailed = HTTPStatus(code: 417, reason: "Expectation Failed")
    package static let headerFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    package static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    package static let badGateway = HTTPStatus(code: 502, reason: "Bad Gateway")
    package static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    package static let versionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")

    /// Statuses whose responses never carry content (RFC 9110 §6.4.1).
    var forbidsContent: Bool { code == 204 || code == 304 || (100..<200).contains(code) }
}
