/// Reads HTTP/1.1 requests from a byte stream, incrementally and strictly (RFC 9112).
///
/// Bytes may arrive in any split, down to one at a time; the search for the end of a head
/// resumes where it stopped, so a slow client costs linear time. Several requests in one
/// buffer (pipelining) come out one by one, in order. Whatever can be used to desynchronise
/// framing between this server and a proxy in front of it — conflicting lengths,
/// `Transfer-Encoding`, obs-fold, bare carriageReturn, whitespace before a colon — is an error, after
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

    public init(limits: Limits) {
        self.limits = limits
    }

    /// True when bytes of a request that is not complete yet are buffered.
    public var hasPartialRequest: Bool { start < buffer.count }

    /// Adds bytes received from the peer.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
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
        let bodyStart = headEnd
        let head = try parseHead(start..<headEnd)
        let total = bodyStart + head.contentLength
        guard buffer.count >= total else { return nil }  // body still arriving; it is discarded
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
    private mutating func findHeadEnd() throws(HTTPParseError) -> Int? {
        var index = scanned
        while index < buffer.count {
            if buffer[index] == lineFeed {
                // A line ends here; is the next line empty?
                let lineStart = index + 1
                if lineStart < buffer.count, buffer[lineStart] == lineFeed {
                    return lineStart + 1
                }
                if lineStart + 1 < buffer.count, buffer[lineStart] == carriageReturn, buffer[lineStart + 1] == lineFeed
                {
                    return lineStart + 2
                }
                if lineStart >= buffer.count || (lineStart + 1 >= buffer.count && buffer[lineStart] == carriageReturn) {
                    break  // cannot tell yet; rescan this line end when more arrives
                }
            }
            index += 1
            if index - start > limits.maxHeaderBytes { throw .headerFieldsTooLarge }
        }
        scanned = index
        if buffer.count - start > limits.maxRequestLineBytes,
            buffer[start..<buffer.count].firstIndex(of: lineFeed) == nil
        {
            throw .uriTooLong
        }
        return nil
    }

    private struct Head {
        var request: HTTPRequest
        var contentLength: Int
    }

    private func parseHead(_ range: Range<Int>) throws(HTTPParseError) -> Head {
        let head = Array(buffer[range])
        var lines: [Range<Int>] = []
        var lineStart = 0
        for index in head.indices where head[index] == lineFeed {
            var end = index
            if end > lineStart, head[end - 1] == carriageReturn { end -= 1 }
            lines.append(lineStart..<end)
            lineStart = index + 1
        }
        // The last entry is the empty line ending the head.
        guard let requestLine = lines.first else { throw .badRequest("empty request") }
        guard requestLine.count <= limits.maxRequestLineBytes else { throw .uriTooLong }
        for index in head.indices
        where head[index] == carriageReturn && (index + 1 == head.count || head[index + 1] != lineFeed) {
            throw .badRequest("bare CR")
        }
        let line = try RequestLine(head[requestLine])
        let fieldLines = lines.dropFirst().dropLast()
        guard fieldLines.count <= limits.maxHeaderCount else { throw .headerFieldsTooLarge }

        var fields: [HTTPRequest.Field] = []
        fields.reserveCapacity(fieldLines.count)
        var host: Range<Int>?
        var contentLength: Int?
        var connectionClose = false
        var connectionKeepAlive = false
        for lineRange in fieldLines {
            let field = try Self.field(head, lineRange)
            let name = head[field.name]
            let value = head[field.value]
            if HTTPRequest.equalsIgnoringCase(name, "host".utf8) {
                guard host == nil else { throw .badRequest("more than one Host") }
                host = field.value
            } else if HTTPRequest.equalsIgnoringCase(name, "content-length".utf8) {
                guard contentLength == nil else { throw .badRequest("more than one Content-Length") }
                contentLength = try Self.contentLength(value)
            } else if HTTPRequest.equalsIgnoringCase(name, "transfer-encoding".utf8) {
                if fieldLines.contains(where: { Self.isContentLength(head, $0) }) {
                    throw .badRequest("Transfer-Encoding with Content-Length")
                }
                throw .notImplemented("Transfer-Encoding is not supported")
            } else if HTTPRequest.equalsIgnoringCase(name, "connection".utf8) {
                for token in value.split(separator: UInt8(ascii: ",")) {
                    let trimmed = Self.trim(token)
                    if HTTPRequest.equalsIgnoringCase(trimmed, "close".utf8) { connectionClose = true }
                    if HTTPRequest.equalsIgnoringCase(trimmed, "keep-alive".utf8) { connectionKeepAlive = true }
                }
            }
            fields.append(field)
        }
        if let host {
            guard Self.isValidHost(head[host]) else { throw .badRequest("invalid Host") }
        } else if line.minorVersion >= 1 {
            throw .badRequest("HTTP/1.1 request without Host")
        }
        let length = contentLength ?? 0
        guard length <= limits.maxBodyBytes else { throw .contentTooLarge }
        guard let method = line.method else {
            throw .notImplemented("method not implemented")
        }
        let keepAlive = !connectionClose && (line.minorVersion >= 1 || connectionKeepAlive)
        let request = HTTPRequest(
            method: method, path: line.path, query: line.query, minorVersion: line.minorVersion,
            keepAlive: keepAlive, head: head, fields: fields)
        return Head(request: request, contentLength: length)
    }

    private static func isContentLength(_ head: [UInt8], _ line: Range<Int>) -> Bool {
        let name = "content-length:".utf8
        guard line.count >= name.count else { return false }
        return HTTPRequest.equalsIgnoringCase(head[line.lowerBound..<(line.lowerBound + name.count)], name)
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
    private static func contentLength(_ value: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
        guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .badRequest("invalid Content-Length")
        }
        return value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
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

    private static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isWhitespace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isWhitespace(last) { slice = slice.dropLast() }
        return slice
    }
}

/// `method SP request-target SP HTTP-version`, each part checked (RFC 9112 §3).
private struct RequestLine {
    var method: HTTPMethod?
    var path: String
    var query: String
    var minorVersion: Int

    init(_ line: ArraySlice<UInt8>) throws(HTTPParseError) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .badRequest("malformed request line")
        }
        guard parts[0].allSatisfy(HTTPRequestParser.isTokenByte) else { throw .badRequest("invalid method") }
        let version = Array(parts[2])
        guard version.count == 8, version[0..<5].elementsEqual("HTTP/".utf8), version[6] == UInt8(ascii: "."),
            (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7])
        else { throw .badRequest("invalid HTTP version") }
        guard version[5] == UInt8(ascii: "1") else { throw .versionNotSupported }
        minorVersion = min(Int(version[7] - 0x30), 1)

        var target = parts[1]
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .badRequest("invalid character in target") }
        method = HTTPMethod(rawValue: String(decoding: parts[0], as: UTF8.self))
        if target.first != UInt8(ascii: "/") {
            if target.elementsEqual("*".utf8) {
                guard method == .options else { throw .badRequest("* target only with OPTIONS") }
            } else {
                // absolute-form: scheme "://" authority path-abempty [ "?" query ]
                guard let schemeEnd = target.firstIndex(of: UInt8(ascii: ":")),
                    target[target.startIndex..<schemeEnd].allSatisfy({ Self.isSchemeByte($0) }),
                    target[schemeEnd...].starts(with: "://".utf8)
                else { throw .badRequest("invalid request target") }
                let authority = target[(schemeEnd + 3)...]
                let pathStart =
                    authority.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
                    ?? authority.endIndex
                guard HTTPRequestParser.isValidHost(authority[..<pathStart]) else {
                    throw .badRequest("invalid authority")
                }
                target = pathStart == authority.endIndex ? ArraySlice("/".utf8) : authority[pathStart...]
                if target.first == UInt8(ascii: "?") { target = ArraySlice("/".utf8) + target }
            }
        }
        if target.contains(UInt8(ascii: "#")) { throw .badRequest("fragment in target") }
        if let question = target.firstIndex(of: UInt8(ascii: "?")) {
            path = String(decoding: target[..<question], as: UTF8.self)
            query = String(decoding: target[(question + 1)...], as: UTF8.self)
        } else {
            path = String(decoding: target, as: UTF8.self)
            query = ""
        }
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
