#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads HTTP/1.1 requests from a byte stream, incrementally and strictly (RFC 9112).
///
/// Bytes may arrive in any split, down to one at a time; the search for the end of a head
/// resumes where it stopped, so a slow client costs linear time. Several requests in one
/// buffer (pipelining) come out one by one, in order. Whatever can be used to desynchronise
/// framing between this server and a proxy in front of it — conflicting lengths,
/// `Transfer-Encoding`, obs-fold, a bare CR, whitespace before a colon — is an error, after
/// which the caller must close the connection.
///
/// Not `Sendable`: one parser belongs to one connection on one event loop.
public struct HTTPRequestParser {
    /// The limits it enforces, taken from ``ServerConfiguration``.
    public struct Limits: Sendable {
        public var maxRequestLineBytes: Int
        public var maxHeaderBytes: Int
        public var maxHeaderCount: Int
        public var maxBodyBytes: Int

        public init(_ configuration: ServerConfiguration) {
            maxRequestLineBytes = configuration.maxRequestLineBytes
            maxHeaderBytes = configuration.maxHeaderBytes
            maxHeaderCount = configuration.maxHeaderCount
            maxBodyBytes = configuration.maxBodyBytes
        }
    }

    private let limits: Limits
    private var buffer: [UInt8] = []
    /// Bytes before this index belong to requests already returned.
    private var start = 0
    /// The search for the blank line that ends the head resumes here.
    private var scanned = 0
    /// A request was answered before its body arrived: nothing after it can be framed, so
    /// every later byte is dropped.
    private var finished = false

    public init(limits: Limits) {
        self.limits = limits
    }

    /// True when bytes of a request that is not complete yet are buffered.
    public var hasPartialRequest: Bool { !finished && start < buffer.count }

    /// Adds bytes received from the peer.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !finished else { return }
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        } else if start > 4096, start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request, nil if more bytes are needed.
    public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        guard !finished else { return nil }
        // RFC 9112 §2.2: ignore empty lines before the request line.
        while start < buffer.count, buffer[start] == carriageReturn || buffer[start] == lineFeed {
            if buffer[start] == carriageReturn {
                guard start + 1 < buffer.count else { return nil }
                guard buffer[start + 1] == lineFeed else { throw .badRequest("bare CR") }
            }
            start += buffer[start] == carriageReturn ? 2 : 1
        }
        scanned = max(scanned, start)
        try checkMethodPrefix()
        guard let headEnd = try findHeadEnd() else { return nil }
        var head = try parseHead(start..<headEnd)
        let total = headEnd + head.contentLength
        if buffer.count < total {
            // The body is still arriving, and it is discarded once it has. A client that sent
            // `Expect: 100-continue` waits for an answer before sending it (RFC 9110 §10.1.1):
            // answer at once and close, instead of waiting for a body nobody reads.
            guard head.expectsContinue else { return nil }
            head.request.keepAlive = false
            finished = true
            buffer = []
            return head.request
        }
        start = total
        scanned = total
        return head.request
    }

    private let carriageReturn = UInt8(ascii: "\r")
    private let lineFeed = UInt8(ascii: "\n")

    /// Refuses garbage (a TLS hello, binary noise) as soon as the method cannot be a token,
    /// instead of waiting for a line end that may never come.
    private func checkMethodPrefix() throws(HTTPParseError) {
        var index = start
        while index < buffer.count, index - start <= Self.longestMethod {
            let byte = buffer[index]
            if byte == UInt8(ascii: " ") { return }
            guard Self.isTokenByte(byte) else { throw .badRequest("malformed request line") }
            index += 1
        }
        if index - start > Self.longestMethod { throw .badRequest("malformed request line") }
    }

    /// Longer methods than this are not methods anyone sends.
    private static let longestMethod = 32

    /// The index just past the blank line ending the head, enforcing the size limits on the way.
    /// Jumps from line end to line end with `memchr` rather than looking at every byte.
    private mutating func findHeadEnd() throws(HTTPParseError) -> Int? {
        let limit = start + limits.maxHeaderBytes
        let count = buffer.count
        let found: Int? = buffer.withUnsafeBufferPointer { bytes -> Int? in
            var index = scanned
            while index < count {
                guard let raw = memchr(bytes.baseAddress! + index, Int32(lineFeed), count - index) else {
                    index = count
                    break
                }
                let lineFeedAt = bytes.baseAddress!.distance(to: raw.assumingMemoryBound(to: UInt8.self))
                if lineFeedAt >= limit {
                    index = lineFeedAt
                    break
                }
                // A line ends here; is the next line empty?
                let next = lineFeedAt + 1
                if next < count, bytes[next] == lineFeed { return next + 1 }
                if next + 1 < count, bytes[next] == carriageReturn, bytes[next + 1] == lineFeed { return next + 2 }
                if next >= count || (next + 1 >= count && bytes[next] == carriageReturn) {
                    index = lineFeedAt  // cannot tell yet; look at this line end again when more arrives
                    break
                }
                index = next
            }
            scanned = min(index, count)
            return nil
        }
        if let found {
            guard found - start <= limits.maxHeaderBytes + 2 else { throw oversizedHead() }
            return found
        }
        if requestLineTooLong() { throw .uriTooLong }
        if count - start > limits.maxHeaderBytes { throw .headerFieldsTooLarge }
        return nil
    }

    /// 414 when the request line is too long, else 431: a target longer than the server
    /// parses must get 414 (RFC 9112 §3), even when it also overflows the header block.
    private func oversizedHead() -> HTTPParseError {
        requestLineTooLong() ? .uriTooLong : .headerFieldsTooLarge
    }

    /// Whether the buffered request line is already longer than allowed; looks at no more
    /// than the allowed length, plus CRLF.
    private func requestLineTooLong() -> Bool {
        guard buffer.count - start > limits.maxRequestLineBytes else { return false }
        let window = min(buffer.count, start + limits.maxRequestLineBytes + 2)
        guard let end = buffer[start..<window].firstIndex(of: lineFeed) else {
            return window - start == limits.maxRequestLineBytes + 2
        }
        let length = end - start - (end > start && buffer[end - 1] == carriageReturn ? 1 : 0)
        return length > limits.maxRequestLineBytes
    }

    private struct Head {
        var request: HTTPRequest
        var contentLength: Int
        /// `Expect: 100-continue` with a body to come.
        var expectsContinue: Bool
    }

    /// Parses a complete head: one copy of its bytes, then index arithmetic over them. This is
    /// on every request's path, so it avoids `split` and other collection helpers that allocate.
    private func parseHead(_ range: Range<Int>) throws(HTTPParseError) -> Head {
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
            keepAlive: keepAlive, hasPreconditions: hasPreconditions, head: head, fields: fields)
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
            while low < high, isWhitespace(head[low]) { low += 1 }
            while high > low, isWhitespace(head[high - 1]) { high -= 1 }
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
        guard !name.isEmpty, head[name].allSatisfy(isTokenByte) else {
            throw .badRequest(
                name.isEmpty || isWhitespace(head[line.lowerBound]) ? "obs-fold or whitespace" : "invalid header name")
        }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd, isWhitespace(head[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, isWhitespace(head[valueEnd - 1]) { valueEnd -= 1 }
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
                literal.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
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
        for byte in hostPart {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "%"):
                continue
            default:
                return false
            }
        }
        return port.count <= 5 && port.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

/// `method SP request-target SP HTTP-version`, each part checked (RFC 9112 §3).
private struct RequestLine {
    var method: HTTPMethod
    var path: String
    var query: String
    var minorVersion: Int

    init(_ head: [UInt8], _ line: Range<Int>) throws(HTTPParseError) {
        let space = UInt8(ascii: " ")
        guard let firstSpace = head[line].firstIndex(of: space),
            let secondSpace = head[(firstSpace + 1)..<line.upperBound].firstIndex(of: space),
            firstSpace > line.lowerBound, secondSpace > firstSpace + 1
        else { throw .badRequest("malformed request line") }
        for index in line.lowerBound..<firstSpace where !HTTPRequestParser.isTokenByte(head[index]) {
            throw .badRequest("invalid method")
        }
        // Exactly "HTTP/" DIGIT "." DIGIT: a third space or anything else lands here too.
        let version = (secondSpace + 1)..<line.upperBound
        guard version.count == 8,
            HTTPRequestParser.equalsLowercase(head, version.lowerBound..<(version.lowerBound + 5), "http/"),
            head[version.lowerBound..<(version.lowerBound + 4)].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }),
            head[version.lowerBound + 6] == UInt8(ascii: "."),
            (0x30...0x39).contains(head[version.lowerBound + 5]), (0x30...0x39).contains(head[version.lowerBound + 7])
        else { throw .badRequest("invalid HTTP version") }
        guard head[version.lowerBound + 5] == UInt8(ascii: "1") else { throw .versionNotSupported }
        minorVersion = min(Int(head[version.lowerBound + 7] - 0x30), 1)
        // Before the target: CONNECT's authority-form or a WebDAV target is not ours to judge.
        guard let method = Self.method(head, line.lowerBound..<firstSpace) else {
            throw .notImplemented("method not implemented")
        }
        self.method = method

        var target = (firstSpace + 1)..<secondSpace
        for index in target where !(head[index] > 0x20 && head[index] < 0x7F) {
            throw .badRequest("invalid character in target")
        }
        if head[target.lowerBound] != UInt8(ascii: "/") {
            target = try Self.originOfAbsoluteForm(head, target, method: method)
        }
        if head[target].contains(UInt8(ascii: "#")) { throw .badRequest("fragment in target") }
        let pathEnd = head[target].firstIndex(of: UInt8(ascii: "?")) ?? target.upperBound
        path = pathEnd == target.lowerBound ? "/" : Self.normalizedPath(head[target.lowerBound..<pathEnd])
        query =
            pathEnd == target.upperBound ? "" : String(decoding: head[(pathEnd + 1)..<target.upperBound], as: UTF8.self)
    }

    /// The path with percent-encoded unreserved characters decoded, since they are equivalent
    /// to the characters themselves (RFC 3986 §6.2.2.2). Other escapes, `%2F` among them, stay.
    private static func normalizedPath(_ path: ArraySlice<UInt8>) -> String {
        guard path.contains(UInt8(ascii: "%")) else { return String(decoding: path, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(path.count)
        var index = path.startIndex
        while index < path.endIndex {
            if path[index] == UInt8(ascii: "%"), index + 2 < path.endIndex,
                let high = hexValue(path[index + 1]), let low = hexValue(path[index + 2])
            {
                let byte = high << 4 | low
                if isUnreserved(byte) {
                    result.append(byte)
                    index += 3
                    continue
                }
            }
            result.append(path[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986 §2.3).
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// For `*` (OPTIONS only) or an absolute-form target `scheme://authority/path?query`, the
    /// range of the path and query (empty path means `/`, which the caller's `?` split handles).
    private static func originOfAbsoluteForm(
        _ head: [UInt8], _ target: Range<Int>, method: HTTPMethod
    ) throws(HTTPParseError) -> Range<Int> {
        if target.count == 1, head[target.lowerBound] == UInt8(ascii: "*") {
            guard method == .options else { throw .badRequest("* target only with OPTIONS") }
            return target
        }
        guard let colon = head[target].firstIndex(of: UInt8(ascii: ":")), colon > target.lowerBound,
            head[target.lowerBound..<colon].allSatisfy(isSchemeByte),
            colon + 3 <= target.upperBound, head[colon + 1] == UInt8(ascii: "/"), head[colon + 2] == UInt8(ascii: "/")
        else { throw .badRequest("invalid request target") }
        let authorityStart = colon + 3
        let pathStart =
            head[authorityStart..<target.upperBound].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
            ?? target.upperBound
        guard HTTPRequestParser.isValidHost(head[authorityStart..<pathStart]) else {
            throw .badRequest("invalid authority")
        }
        return pathStart..<target.upperBound
    }

    /// The method whose name is exactly `head[range]` (methods are case-sensitive).
    private static func method(_ head: [UInt8], _ range: Range<Int>) -> HTTPMethod? {
        for (method, name) in methodNames where name.count == range.count {
            if head[range].elementsEqual(name) { return method }
        }
        return nil
    }

    private static let methodNames: [(HTTPMethod, [UInt8])] = HTTPMethod.allCases.map { ($0, Array($0.rawValue.utf8)) }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
