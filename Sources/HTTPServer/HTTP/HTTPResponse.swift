import Primitives

/// Header lines serialized once and shared by every response that uses them: a cache of
/// thousands of responses holds one copy of its constant headers, not thousands.
///
/// A block every response of a process shares (``permanent(_:)``) is kept outside Swift's
/// reference counting: copying a response that holds it touches no count. With a counted array,
/// every response made or copied on either event loop changed the count on the block's one
/// cache line, and the line moved between the cores for each (docs/performance.md).
///
/// `@unchecked Sendable`: a permanent block's bytes are written once, before the block is
/// returned, and never changed or freed.
package struct HTTPHeaderBlock: @unchecked Sendable {
    fileprivate enum Storage {
        case counted([UInt8])
        case permanent(UnsafeBufferPointer<UInt8>)
    }

    fileprivate let storage: Storage

    /// `Name: value\r\n` lines.
    package var bytes: [UInt8] {
        switch storage {
        case .counted(let bytes): bytes
        case .permanent(let bytes): Array(bytes)
        }
    }

    /// How many bytes the lines take.
    package var count: Int {
        switch storage {
        case .counted(let bytes): bytes.count
        case .permanent(let bytes): bytes.count
        }
    }

    /// Where a permanent block's bytes are (tests); nil for a counted one.
    var permanentAddress: UnsafePointer<UInt8>? {
        if case .permanent(let bytes) = storage { bytes.baseAddress } else { nil }
    }

    /// Appends the lines to `output`.
    func write(to output: inout [UInt8]) {
        switch storage {
        case .counted(let bytes): output.append(contentsOf: bytes)
        case .permanent(let bytes): output.append(contentsOf: bytes)
        }
    }

    fileprivate init(storage: Storage) {
        self.storage = storage
    }

    /// The block of `headers`, kept for the life of the process and shared with every other
    /// permanent block of the same lines: for the few constant blocks of a service, made when
    /// it starts. Each distinct block is made once, so making services again (tests) adds
    /// nothing.
    package static func permanent(_ headers: [(String, String)]) -> HTTPHeaderBlock {
        let lines = HTTPHeaderBlock(headers).bytes
        let bytes = permanentBlocks.withLock { blocks -> UnsafeBufferPointer<UInt8> in
            if let made = blocks[lines] { return made.bytes }
            let made = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: lines.count)
            _ = made.initialize(from: lines)
            blocks[lines] = PermanentBytes(bytes: UnsafeBufferPointer(made))
            return UnsafeBufferPointer(made)
        }
        return HTTPHeaderBlock(storage: .permanent(bytes))
    }

    /// Bytes written once when made, then only read, and never freed: any thread may read them.
    private struct PermanentBytes: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
    }

    /// Every permanent block, by its lines; reachable for as long as the process runs.
    private static let permanentBlocks = Locked<[[UInt8]: PermanentBytes]>([:])

    /// Serializes `headers`; names and values lose any CR, LF or NUL, so a header can never be
    /// split or smuggled through a value.
    package init(_ headers: [(String, String)]) {
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
        storage = .counted(bytes)
    }

    /// One header line, the common case for per-response headers such as `ETag`.
    package init(name: String, value: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + value.utf8.count + 4)
        Self.appendSafe(name, to: &bytes)
        bytes.append(0x3A)
        bytes.append(0x20)
        Self.appendSafe(value, to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
        storage = .counted(bytes)
    }

    /// One header line whose value `writeValue` writes in place, into at most `valueCapacity`
    /// bytes, returning how many it wrote: a ring's `ETag`, from its digest, with no `String`
    /// and no second buffer on the way. CR, LF and NUL become spaces, as in every line.
    package init(
        name: StaticString, valueCapacity: Int, writeValue: (UnsafeMutableBufferPointer<UInt8>) -> Int
    ) {
        let nameCount = name.utf8CodeUnitCount
        let valueStart = nameCount + 2
        // Made on the stack and copied into an array once: `unsafeUninitializedCapacity`
        // allocates through the standard library's unspecialised path, which looks the element
        // type up at run time (about 500 instructions, under a lock), on every new ring.
        let bytes = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: valueStart + valueCapacity + 2) { line in
            let base = line.baseAddress!
            // The name is the program's own text; only the value is made safe.
            base.initialize(from: name.utf8Start, count: nameCount)
            base[nameCount] = 0x3A  // ":"
            base[nameCount + 1] = 0x20
            let count = writeValue(UnsafeMutableBufferPointer(start: base + valueStart, count: valueCapacity))
            precondition((0...valueCapacity).contains(count), "a header value fits the room it was given")
            Self.makeSafe(UnsafeMutableBufferPointer(start: base + valueStart, count: count))
            base[valueStart + count] = 0x0D
            base[valueStart + count + 1] = 0x0A
            return Array(UnsafeBufferPointer(start: base, count: valueStart + count + 2))
        }
        storage = .counted(bytes)
    }

    /// Turns each CR, LF and NUL of `bytes` into a space, eight bytes at a time: a word is
    /// looked at byte by byte only if it holds one, which a value the program wrote never does.
    /// With the entity tag written in place, this took a new ring's `ETag` line from 749 to
    /// 610 instructions (callgrind; docs/performance.md).
    private static func makeSafe(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
        // A byte of `word` is zero where the high bit of `(word - 0x01…) & ~word & 0x80…` is set
        // (the lowest such byte exactly; a higher one may be flagged too, and is then only
        // looked at).
        func hasZero(_ word: UInt64) -> Bool { (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
            if hasZero(word) || hasZero(word ^ 0x0D0D_0D0D_0D0D_0D0D) || hasZero(word ^ 0x0A0A_0A0A_0A0A_0A0A) {
                for at in index..<index + 8 { bytes[at] = safe(bytes[at]) }
            }
            index += 8
        }
        for at in index..<bytes.count { bytes[at] = safe(bytes[at]) }
    }

    @inline(__always)
    private static func safe(_ byte: UInt8) -> UInt8 { byte == 0x0D || byte == 0x0A || byte == 0 ? 0x20 : byte }

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
package struct HTTPResponse: Sendable {
    package var status: HTTPStatus
    /// Header lines shared with other responses, written first.
    package var sharedHeaders: HTTPHeaderBlock
    /// This response's own header lines, written after the shared ones.
    package var headers: HTTPHeaderBlock
    /// Lines for this one request (a request id), written last: a cached response's blocks
    /// stay shared.
    package var requestHeaders: HTTPHeaderBlock = .empty
    package var body: [UInt8]

    package init(
        status: HTTPStatus, shared: HTTPHeaderBlock = .empty, headers: [(String, String)] = [], body: [UInt8] = []
    ) {
        self.status = status
        self.sharedHeaders = shared
        self.headers = HTTPHeaderBlock(headers)
        self.body = body
    }

    /// A response whose own header lines are already serialized.
    package init(status: HTTPStatus, shared: HTTPHeaderBlock = .empty, headers: HTTPHeaderBlock, body: [UInt8] = []) {
        self.status = status
        self.sharedHeaders = shared
        self.headers = headers
        self.body = body
    }

    /// A `text/plain` response.
    package static func text(_ status: HTTPStatus, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Array(text.utf8))
    }
}

extension HTTPHeaderBlock {
    /// No header lines: permanent, so the many responses that carry it (every answer's
    /// ``HTTPResponse/requestHeaders`` without a request id) copy it without a reference count.
    package static let empty = HTTPHeaderBlock(storage: .permanent(UnsafeBufferPointer(start: nil, count: 0)))
}
