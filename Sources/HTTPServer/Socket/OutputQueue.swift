#if canImport(Glibc)
    import Glibc
    private let systemSend = Glibc.send
#elseif canImport(Darwin)
    import Darwin
    private let systemSend = Darwin.send
#endif

/// What a connection has still to send, in order: bytes of its own (response heads, small
/// bodies) and bodies it shares with whoever made them, such as the response cache.
///
/// A shared body is held by reference, never copied: a slow reader of a 2 MB ring holds one
/// reference to the cache's copy, and ``pending`` counts its bytes for back-pressure while the
/// memory it costs is its head and this bookkeeping. Everything queued goes out in one
/// `sendmsg` of up to ``buffersPerSend`` buffers.
///
/// Not `Sendable`: it belongs to one connection on one loop.
struct OutputQueue {
    private struct Chunk {
        var bytes: [UInt8]
        /// The connection's own bytes, which later heads may be appended to; a shared one is
        /// only read.
        let owned: Bool
    }

    /// The connection's own bytes that go first. While nothing shared is queued, everything
    /// is here, and a response goes out with one plain `send`, as if no body were ever shared.
    private var own: [UInt8] = []
    private var sentOfOwn = 0
    /// What follows `own`, in order, once a shared body is queued; the first has `sentOfRest`
    /// bytes already sent.
    private var rest: [Chunk] = []
    private var sentOfRest = 0
    /// Bytes queued and not yet sent, own and shared.
    private(set) var pending = 0

    /// Bodies shorter than this are copied into the connection's own buffer: one buffer to
    /// send costs less than a reference and a second buffer (docs/performance.md).
    static let copyBelow = 1024
    /// Buffers given to one `sendmsg`: pipelined answers go out together.
    static let buffersPerSend = 16
    /// An own buffer larger than this is let go once sent, instead of kept for reuse.
    static let retainedCapacity = 64 * 1024

    var isEmpty: Bool { pending == 0 }

    /// Appends bytes of the connection's own, written by `write` at the end of its buffer.
    mutating func appendOwned(_ write: (inout [UInt8]) -> Void) {
        if rest.isEmpty {
            let before = own.count
            write(&own)
            pending += own.count - before
            return
        }
        if rest[rest.count - 1].owned == false { rest.append(Chunk(bytes: [], owned: true)) }
        let last = rest.count - 1
        let before = rest[last].bytes.count
        write(&rest[last].bytes)
        pending += rest[last].bytes.count - before
    }

    /// Appends a body: by reference, or copied when it is short.
    mutating func append(body: [UInt8]) {
        guard !body.isEmpty else { return }
        if body.count < Self.copyBelow {
            appendOwned { $0.append(contentsOf: body) }
        } else {
            rest.append(Chunk(bytes: body, owned: false))
            pending += body.count
        }
    }

    /// Sends what the socket takes now; the bytes sent, or -1 with `errno` set.
    mutating func send(to fd: Int32) -> Int {
        guard pending > 0 else { return 0 }
        let sent: Int
        if rest.isEmpty {
            sent = own.withUnsafeBytes {
                systemSend(fd, $0.baseAddress! + sentOfOwn, $0.count - sentOfOwn, SocketCalls.sendFlags)
            }
        } else {
            sent = withBuffers { SocketCalls.send(fd, buffers: $0.baseAddress!, count: Int32($0.count)) }
        }
        if sent > 0 { consume(sent) }
        return sent
    }

    /// Calls `body` with the unsent bytes of `own` and of up to ``buffersPerSend`` chunks after
    /// it as `iovec`s, each pointer valid for the call: every chunk's storage is pinned by a
    /// nested `withUnsafeBytes`.
    private func withBuffers(_ body: (UnsafeBufferPointer<iovec>) -> Int) -> Int {
        let ownCount = sentOfOwn < own.count ? 1 : 0
        let count = ownCount + min(rest.count, Self.buffersPerSend)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { buffers in
            func pin(_ index: Int) -> Int {
                guard index < count - ownCount else { return body(UnsafeBufferPointer(buffers)) }
                return rest[index].bytes.withUnsafeBytes { bytes in
                    let skip = index == 0 ? sentOfRest : 0
                    buffers[ownCount + index] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip),
                        iov_len: bytes.count - skip)
                    return pin(index + 1)
                }
            }
            guard ownCount == 1 else { return pin(0) }
            return own.withUnsafeBytes { bytes in
                buffers[0] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + sentOfOwn),
                    iov_len: bytes.count - sentOfOwn)
                return pin(0)
            }
        }
    }

    /// Whether a queued chunk is `bytes`' own storage, not a copy of it (for tests).
    func holds(storageOf bytes: [UInt8]) -> Bool {
        let address = bytes.withUnsafeBufferPointer { $0.baseAddress }
        return rest.contains { chunk in chunk.bytes.withUnsafeBufferPointer { $0.baseAddress } == address }
    }

    /// Drops `count` sent bytes from the front. `own`'s storage is kept for the next head; a
    /// chunk of own bytes that reaches the front becomes `own`.
    private mutating func consume(_ count: Int) {
        pending -= count
        var left = count
        let ownRest = own.count - sentOfOwn
        if ownRest > 0 {
            guard left >= ownRest else {
                sentOfOwn += left
                return
            }
            left -= ownRest
            if own.capacity > Self.retainedCapacity { own = [] } else { own.removeAll(keepingCapacity: true) }
            sentOfOwn = 0
        }
        while left > 0 {
            let chunkRest = rest[0].bytes.count - sentOfRest
            guard left >= chunkRest else {
                sentOfRest += left
                return
            }
            left -= chunkRest
            sentOfRest = 0
            rest.removeFirst()
        }
        // What follows, if it is the connection's own, moves to the front.
        if let first = rest.first, first.owned, own.isEmpty {
            swap(&own, &rest[0].bytes)
            rest.removeFirst()
        }
    }
}
