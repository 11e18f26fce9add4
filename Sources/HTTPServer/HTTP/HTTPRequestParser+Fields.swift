import ByteGrammar

/// The head's header fields: their syntax, the ones framing depends on (Host, Content-Length,
/// Transfer-Encoding, Connection, Expect), and the Host's grammar.
extension HTTPRequestParser {
    struct Head {
        var request: HTTPRequest
        var contentLength: Int
        /// `Expect: 100-continue` with a body to come.
        var expectsContinue: Bool
    }

    /// Parses a complete head: one copy of its bytes, then index arithmetic over them. This is
    /// on every request's path, so it avoids `split` and other collection helpers that allocate.
    func parseHead(_ range: Range<Int>) throws(HTTPParseError) -> Head {
        let head = Array(buffer[range])
        guard let firstLineFeed = head.firstIndex(of: lineFeed) else { throw .badRequest("empty request") }
        var requestLineEnd = firstLineFeed
        if requestLineEnd > 0, head[requestLineEnd - 1] == carriageReturn { requestLineEnd -= 1 }
        guard requestLineEnd <= limits.maxRequestLineBytes else { throw .uriTooLong }
        let line = try RequestLine(head, 0..<requestLineEnd)

        var fields: [HTTPRequest.Field] = []
        fields.reserveCapacity(8)
        var host: Range<Int>?
        var contentLength: Int?
        var transferEncoding = false
        var connectionClose = false
        var connectionKeepAlive = false
        var expectsContinue = false
        var hasPreconditions = false
        var requestID: Range<Int>?
        var lineStart = firstLineFeed + 1
        while lineStart < head.count {
            var index = lineStart
            while head[index] != lineFeed {
                if head[index] == carriageReturn, head[index + 1] != lineFeed { throw .badRequest("bare CR") }
                index += 1
            }
            var lineEnd = index
            if lineEnd > lineStart, head[lineEnd - 1] == carriageReturn { lineEnd -= 1 }
            if lineEnd == lineStart { break }  // the blank line that ends the head
            guard fields.count < limits.maxHeaderCount else { throw .headerFieldsTooLarge }
            let field = try Self.field(head, lineStart..<lineEnd)
            switch field.name.count {
            case 4 where Self.equalsLowercase(head, field.name, "host"):
                guard host == nil else { throw .badRequest("more than one Host") }
                host = field.value
            case 14 where Self.equalsLowercase(head, field.name, "content-length"):
                guard contentLength == nil else { throw .badRequest("more than one Content-Length") }
                contentLength = try Self.contentLength(head, field.value)
            case 17 where Self.equalsLowercase(head, field.name, "transfer-encoding"):
                transferEncoding = true
            case 10 where Self.equalsLowercase(head, field.name, "connection"):
                Self.connectionTokens(head, field.value, close: &connectionClose, keepAlive: &connectionKeepAlive)
            case 12 where requestID == nil && Self.equalsLowercase(head, field.name, "x-request-id"):
                requestID = field.value
            case 6 where Self.equalsLowercase(head, field.name, "expect"):
                guard Self.equalsLowercase(head, field.value, "100-continue") else { throw .expectationFailed }
                expectsContinue = true
            default:
                if field.name.count > 3, Self.equalsLowercase(head, field.name.prefix(3), "if-") {
                    hasPreconditions = true
                }
            }
            fields.append(field)
            lineStart = index + 1
        }
        if transferEncoding {
            // Both framings at once is the classic smuggling vector: refuse it outright.
            if contentLength != nil { throw .badRequest("Transfer-Encoding with Content-Length") }
            throw .notImplemented("Transfer-Encoding is not supported")
        }
        if let host {
            guard Self.isValidHost(head[host]) else { throw .badRequest("invalid Host") }
        } else if line.minorVersion >= 1 {
            throw .badRequest("HTTP/1.1 request without Host")
        }
        let length = contentLength ?? 0
        guard length <= limits.maxBodyBytes else { throw .contentTooLarge }
        let keepAlive = !connectionClose && (line.minorVersion >= 1 || connectionKeepAlive)
        let request = HTTPRequest(
            method: line.method, path: line.path, query: line.query, minorVersion: line.minorVersion,
            keepAlive: keepAlive, hasPreconditions: hasPreconditions, requestID: requestID, head: head, fields: fields)
        return Head(request: request, contentLength: length, expectsContinue: expectsContinue && length > 0)
    }

    /// ASCII case-insensitive comparison of `head[range]` with a lowercase literal.
    static func equalsLowercase(_ head: [UInt8], _ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        let literal = lowercase.utf8Start
        var offset = 0
        for index in range {
            guard HTTPRequest.lowercase(head[index]) == literal[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Reads the `close` and `keep-alive` options of a Connection field.
    private static func connectionTokens(_ head: [UInt8], _ value: Range<Int>, close: inout Bool, keepAlive: inout Bool)
    {
        var tokenStart = value.lowerBound
        for index in value.lowerBound...value.upperBound where index == value.upperBound || head[index] == 0x2C {
            var low = tokenStart
            var high = index
            while low < high, ByteClass.whitespace.contains(head[low]) { low += 1 }
            while high > low, ByteClass.whitespace.contains(head[high - 1]) { high -= 1 }
            if equalsLowercase(head, low..<high, "close") { close = true }
            if equalsLowercase(head, low..<high, "keep-alive") { keepAlive = true }
            tokenStart = index + 1
        }
    }

    /// `name ":" OWS value OWS`; the name a token, the value visible characters, spaces, tabs
    /// and obs-text. A line starting with whitespace (obs-fold) is refused.
    private static func field(_ head: [UInt8], _ line: Range<Int>) throws(HTTPParseError) -> HTTPRequest.Field {
        guard let colon = head[line].firstIndex(of: UInt8(ascii: ":")) else {
            throw .badRequest("header line without colon")
        }
        let name = line.lowerBound..<colon
        guard !name.isEmpty, head[name].allSatisfy({ ByteClass.token.contains($0) }) else {
            throw .badRequest(
                name.isEmpty || ByteClass.whitespace.contains(head[line.lowerBound])
                    ? "obs-fold or whitespace" : "invalid header name")
        }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd, ByteClass.whitespace.contains(head[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, ByteClass.whitespace.contains(head[valueEnd - 1]) { valueEnd -= 1 }
        for byte in head[valueStart..<valueEnd] where !(byte == 0x09 || byte >= 0x20 && byte != 0x7F) {
            throw .badRequest("invalid character in header value")
        }
        return HTTPRequest.Field(name: name, value: valueStart..<valueEnd)
    }

    /// 1*DIGIT, at most 18 digits so it cannot overflow.
    private static func contentLength(_ head: [UInt8], _ range: Range<Int>) throws(HTTPParseError) -> Int {
        guard !range.isEmpty, range.count <= 18 else { throw .badRequest("invalid Content-Length") }
        var value = 0
        for index in range {
            let byte = head[index]
            guard byte >= 0x30, byte <= 0x39 else { throw .badRequest("invalid Content-Length") }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// `uri-host [":" port]` with no userinfo, path, list or whitespace (RFC 9112 §3.2).
    static func isValidHost(_ value: ArraySlice<UInt8>) -> Bool {
        guard !value.isEmpty else { return false }
        var hostPart = value
        var port: ArraySlice<UInt8> = []
        if value.first == UInt8(ascii: "[") {
            guard let close = value.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = value[value.index(after: value.startIndex)..<close]
            guard !literal.isEmpty,
                literal.allSatisfy({
                    ByteClass.hexDigit.contains($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
                })
            else { return false }
            let rest = value[value.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else { return false }
                port = rest.dropFirst()
            }
            hostPart = []
        } else if let colon = value.firstIndex(of: UInt8(ascii: ":")) {
            hostPart = value[..<colon]
            port = value[value.index(after: colon)...]
            guard !hostPart.isEmpty else { return false }
        }
        // reg-name: unreserved characters and percent-escapes (sub-delims are no part of a
        // host a client of ours sends).
        for byte in hostPart where !(ByteClass.unreserved.contains(byte) || byte == UInt8(ascii: "%")) {
            return false
        }
        return port.count <= 5 && port.allSatisfy { ByteClass.digit.contains($0) }
    }
}
