/// A parsed request head. Header fields stay as byte ranges into the head until asked for,
/// so a request costs a few allocations however many fields it has.
package struct HTTPRequest: Sendable {
    package var method: HTTPMethod
    /// The path of the target, with percent-encoded unreserved characters decoded
    /// (`/%72ing%2Esvg` is `/ring.svg`, RFC 3986 §6.2.2.2); every other escape stays as sent.
    package var path: String
    /// The query of the target without `?`, as sent; empty when there is none.
    package var query: String
    /// HTTP minor version: 0 or 1 (larger minors are treated as 1).
    package var minorVersion: Int
    /// Whether the connection stays open after the response (RFC 9112 §9.3).
    package var keepAlive: Bool
    /// The event loop (0..<`ServerConfiguration.eventLoops`) answering this request. Responders
    /// can keep per-loop state under it that no other thread contends for.
    package var eventLoop = 0
    /// The address of the connection's peer (``ClientAddress/unknown`` for a request made in
    /// process).
    package var client = ClientAddress.unknown
    /// Whether any `If-…` field is present, so a responder can skip evaluating preconditions
    /// on the common request that has none without looking at every field.
    package let hasPreconditions: Bool

    let head: [UInt8]
    let fields: [Field]
    /// The first `X-Request-Id` field's value, found while parsing: a responder asks for it on
    /// every request, and a search by name would cost each one.
    private let requestIDField: Range<Int>?

    /// The value of the first `X-Request-Id` field.
    package var requestID: String? { requestIDField.map { String(decoding: head[$0], as: UTF8.self) } }

    struct Field: Sendable {
        var name: Range<Int>
        var value: Range<Int>
    }

    init(
        method: HTTPMethod, path: String, query: String, minorVersion: Int, keepAlive: Bool,
        hasPreconditions: Bool, requestID: Range<Int>? = nil, head: [UInt8], fields: [Field]
    ) {
        self.requestIDField = requestID
        self.method = method
        self.path = path
        self.query = query
        self.minorVersion = minorVersion
        self.keepAlive = keepAlive
        self.hasPreconditions = hasPreconditions
        self.head = head
        self.fields = fields
    }

    /// The request that `head` (a request line, fields and the blank line) parses to with the
    /// default limits: for testing responders in process, without a socket.
    ///
    /// ```swift
    /// let request = try HTTPRequest(parsing: "GET /ring.svg?p=72 HTTP/1.1\r\nHost: x\r\n\r\n")
    /// ```
    package init(parsing head: String) throws(HTTPParseError) {
        var parser = HTTPRequestParser(limits: HTTPRequestParser.Limits(ServerConfiguration()))
        var bytes = Array(head.utf8)
        bytes.withUnsafeMutableBytes { parser.append(UnsafeRawBufferPointer($0)) }
        guard let request = try parser.next() else { throw .badRequest("incomplete request head") }
        self = request
    }

    /// The value of the first field called `name` (ASCII case-insensitive), without
    /// surrounding whitespace.
    package func header(_ name: String) -> String? {
        let wanted = Array(name.utf8)
        for field in fields where field.name.count == wanted.count && matches(field.name, wanted) {
            return String(decoding: head[field.value], as: UTF8.self)
        }
        return nil
    }

    /// The values of every field called `name`, in order: a list field such as
    /// `X-Forwarded-For` may be sent in several lines.
    package func headerValues(_ name: String) -> [String] {
        let wanted = Array(name.utf8)
        return fields.filter { $0.name.count == wanted.count && matches($0.name, wanted) }.map {
            String(decoding: head[$0.value], as: UTF8.self)
        }
    }

    /// The request target as the client sent it, before any decoding: what an access log
    /// records.
    package var target: String {
        guard let first = head.firstIndex(of: UInt8(ascii: " ")) else { return "" }
        let start = first + 1
        let end = head[start...].firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == 0x0D }) ?? head.endIndex
        return String(decoding: head[start..<end], as: UTF8.self)
    }

    private func matches(_ range: Range<Int>, _ wanted: [UInt8]) -> Bool {
        var offset = 0
        for index in range {
            guard Self.lowercase(head[index]) == Self.lowercase(wanted[offset]) else { return false }
            offset += 1
        }
        return true
    }

    /// Every field as (name, value), in order.
    package var headers: [(name: String, value: String)] {
        fields.map { (String(decoding: head[$0.name], as: UTF8.self), String(decoding: head[$0.value], as: UTF8.self)) }
    }

    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
