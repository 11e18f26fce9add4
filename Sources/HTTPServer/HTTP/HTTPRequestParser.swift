import ByteGrammar

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
package struct HTTPRequestParser {
    /// The limits it enforces, taken from ``ServerConfiguration``.
    package struct Limits: Sendable {
        package var maxRequestLineBytes: Int
        package var maxHeaderBytes: Int
        package var maxHeaderCount: Int
        package var maxBodyBytes: Int

        package init(_ configuration: ServerConfiguration) {
            maxRequestLineBytes = configuration.maxRequestLineBytes
            maxHeaderBytes = configuration.maxHeaderBytes
            maxHeaderCount = configuration.maxHeaderCount
            maxBodyBytes = configuration.maxBodyBytes
        }
    }

    let limits: Limits
    private(set) var buffer: [UInt8] = []
    /// Bytes before this index belong to requests already returned.
    private var start = 0
    /// The search for the blank line that ends the head resumes here.
    private var scanned = 0
    /// A request was answered before its body arrived: nothing after it can be framed, so
    /// every later byte is dropped.
    private var finished = false

    package init(limits: Limits) {
        self.limits = limits
    }

    /// True when bytes of a request that is not complete yet are buffered.
    package var hasPartialRequest: Bool { !finished && start < buffer.count }

    /// Adds bytes received from the peer.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
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
    package mutating func next() throws(HTTPParseError) -> HTTPRequest? {
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

    let carriageReturn = UInt8(ascii: "\r")
    let lineFeed = UInt8(ascii: "\n")

    /// Refuses garbage (a TLS hello, binary noise) as soon as the method cannot be a token,
    /// instead of waiting for a line end that may never come.
    private func checkMethodPrefix() throws(HTTPParseError) {
        var index = start
        while index < buffer.count, index - start <= Self.longestMethod {
            let byte = buffer[index]
            if byte == UInt8(ascii: " ") { return }
            guard ByteClass.token.contains(byte) else { throw .badRequest("malformed request line") }
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
}
