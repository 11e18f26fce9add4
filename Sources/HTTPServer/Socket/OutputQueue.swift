#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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
        /// The connection's own buffer, which later heads may be appended to and which is
        /// kept for reuse once sent; a shared one is only read.
        let owned: Bool
    }

    /// In order; the first has `sentOfFirst` bytes already sent.
    private var chunks: [Chunk] = []
    private var sentOfFirst = 0
    /// An own buffer kept from a chunk that was sent, so the next head needs no allocation.
    private var spare: [UInt8] = []
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
        if chunks.last?.owned != true {
            var buffer: [UInt8] = []
            swap(&buffer, &spare)
            chunks.append(Chunk(bytes: buffer, owned: true))
        }
        let last = chunks.count - 1
        let before = chunks[last].bytes.count
        write(&chunks[last].bytes)
        pending += chunks[last].bytes.count - before
    }

    /// Appends a body: by reference, or copied when it is short.
    mutating func append(body: [UInt8]) {
        guard !body.isEmpty else { return }
        if body.count < Self.copyBelow {
            appendOwned { $0.append(contentsOf: body) }
        } else {
            chunks.append(Chunk(bytes: body, owned: false))
            pending += body.count
        }
    }

    /// Sends what the socket takes now; the bytes sent, or -1 with `errno` set.
    mutating func send(to fd: Int32) -> Int {
        let count = min(chunks.count, Self.buffersPerSend)
        guard count > 0 else { return 0 }
        let sent = withBuffers(count) { SocketCalls.send(fd, buffers: $0.baseAddress!, count: Int32($0.count)) }
        if sent > 0 { consume(sent) }
        return sent
    }

    /// Calls `body` with the first `count` chunks' unsent bytes as `iovec`s, each pointer valid
    /// for the call: every chunk's storage is pinned by a nested `withUnsafeBytes`.
    private func withBuffers(_ count: Int, _ body: (UnsafeBufferPointer<iovec>) -> Int) -> Int {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { buffers in
            func pin(_ index: Int) -> Int {
                guard index < count else { return body(UnsafeBufferPointer(buffers)) }
                return chunks[index].bytes.withUnsafeBytes { bytes in
                    let skip = index == 0 ? sentOfFirst : 0
                    buffers[index] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip),
                        iov_len: bytes.count - skip)
                    return pin(index + 1)
                }
            }
            return pin(0)
        }
    }

    /// Drops `count` sent bytes from the front, keeping one own buffer for reuse.
    private mutating func consume(_ count: Int) {
        pending -= count
        var left = count
        while left > 0 {
            let rest = chunks[0].bytes.count - sentOfFirst
            guard left >= rest else {
                sentOfFirst += left
                return
            }
            left -= rest
            sentOfFirst = 0
            var chunk = chunks.removeFirst()
            if chunk.owned, spare.capacity == 0, chunk.bytes.capacity <= Self.retainedCapacity {
                swap(&spare, &chunk.bytes)  // unique, so emptying it keeps the storage
                spare.removeAll(keepingCapacity: true)
            }
        }
        if chunks.isEmpty { chunks.removeAll(keepingCapacity: true) }
    }
}
