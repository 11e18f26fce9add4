/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Sendable, Hashable {
    public var code: Int
    public var reason: String

    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    public static let ok = HTTPStatus(code: 200, reason: "OK")
    public static let notModified = HTTPStatus(code: 304, reason: "Not Modified")
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    public static let preconditionFailed = HTTPStatus(code: 412, reason: "Precondition Failed")
    public static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    public static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    public static let expectationFailed = HTTPStatus(code: 417, reason: "Expectation Failed")
    public static let headerFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    public static let badGateway = HTTPStatus(code: 502, reason: "Bad Gateway")
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    public static let versionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")

    /// Statuses whose responses never carry content (RFC 9110 §6.4.1).
    var forbidsContent: Bool { code == 204 || code == 304 || (100..<200).contains(code) }
}
