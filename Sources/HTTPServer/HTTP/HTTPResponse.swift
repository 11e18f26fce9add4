/// Header lines serialized once and shared by every response that uses them: a cache of
/// thousands of responses holds one copy of its constant headers, not thousands.
public struct HTTPHeaderBlock: Sendable {
    /// `Name: value\r\n` lines.
    public let bytes: [UInt8]

    /// Serializes `headers`; names and values lose any CR, LF or NUL, so a header can never be
    /// split or smuggled through a value.
    public init(_ headers: [(String, String)]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 })
        for (name, value) in headers {
            Self.appendSafe(name, to: &bytes)
            bytes.append(0x3A)  // ":"
            bytes.append(0x20)
            Self.appendSafe(value, to: &bytes)
            bytes.append(0x0D)
            bytes.append(0x0A)
        }
        self.bytes = bytes
    }

    /// One header line, the common case for per-response headers such as `ETag`.
    public init(name: String, value: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + value.utf8.count + 4)
        Self.appendSafe(name, to: &bytes)
        bytes.append(0x3A)
        bytes.append(0x20)
        Self.appendSafe(value, to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
        self.bytes = bytes
    }

    private static func appendSafe(_ text: String, to bytes: inout [UInt8]) {
        let start = bytes.count
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        for index in start..<bytes.count where bytes[index] == 0x0D || bytes[index] == 0x0A || bytes[index] == 0 {
            bytes[index] = 0x20
        }
    }
}

/// A response as a responder hands it to the server: status, header lines already
/// serialized, and the body. The server adds `Content-Length`, `Date` and `Connection`.
///
/// Holding headers as bytes lets a cache keep complete responses and serve them with a few
/// copies and no formatting.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    /// Header lines shared with other responses, written first.
    public var sharedHeaders: HTTPHeaderBlock
    /// This response's own header lines, written after the shared ones.
    public var headers: HTTPHeaderBlock
    public var body: [UInt8]

    public init(
        status: HTTPStatus, shared: HTTPHeaderBlock = .empty, headers: [(String, String)] = [], body: [UInt8] = []
    ) {
        self.status = status
        self.sharedHeaders = shared
        self.headers = HTTPHeaderBlock(headers)
        self.body = body
    }

    /// A response whose own header lines are already serialized.
    public init(status: HTTPStatus, shared: HTTPHeaderBlock = .empty, headers: HTTPHeaderBlock, body: [UInt8] = []) {
        self.status = status
        self.sharedHeaders = shared
        self.headers = headers
        self.body = body
    }

    /// A `text/plain` response.
    public static func text(_ status: HTTPStatus, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Array(text.utf8))
    }
}

extension HTTPHeaderBlock {
    /// No header lines.
    public static let empty = HTTPHeaderBlock([])
}
