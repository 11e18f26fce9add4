import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output queue sends own and shared bytes in order, through a socket that takes only
/// part of them at a time, and never copies a shared body.
@Suite struct OutputQueueTests {
    /// A connected pair of stream sockets; the writing end non-blocking with a small buffer.
    private func socketPair() -> (writer: Int32, reader: Int32) {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, SocketCalls.stream, 0, &fds) == 0)
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        return (fds[0], fds[1])
    }

    private func readAvailable(_ fd: Int32, into bytes: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { return }
            bytes += chunk[0..<count]
        }
    }

    @Test func ownAndSharedBytesGoOutInOrder() {
        let (writer, reader) = socketPair()
        defer {
            close(writer)
            close(reader)
        }
        let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let small = Array("tiny".utf8)
        var queue = OutputQueue()
        var expected: [UInt8] = []
        for round in 0..<3 {
            let head = Array("HEAD \(round)\r\n".utf8)
            queue.appendOwned { $0 += head }
            queue.append(body: large)
            queue.appendOwned { $0 += small }
            queue.append(body: small)
            expected += head + large + small + small
        }
        #expect(queue.pending == expected.count)
        var received: [UInt8] = []
        var sends = 0
        while !queue.isEmpty {
            let sent = queue.send(to: writer)
            if sent < 0 { #expect(errno == EAGAIN || errno == EWOULDBLOCK) }
            sends += 1
            readAvailable(reader, into: &received)
            #expect(queue.pending == expected.count - received.count)
        }
        readAvailable(reader, into: &received)
        #expect(received == expected)
        #expect(sends > 3)  // the socket took it in pieces
    }

    @Test func aSharedBodyIsNotCopied() {
        let body = [UInt8](repeating: 0x41, count: 10_000)
        var queue = OutputQueue()
        queue.append(body: body)
        let held = queue.holds(storageOf: body)
        #expect(held)
        #expect(queue.pending == 10_000)
        let copy = body.map { $0 }  // equal bytes in other storage
        let heldCopy = queue.holds(storageOf: copy)
        #expect(!heldCopy)
    }

    @Test func shortBodiesAreCopiedIntoOwnBytes() {
        var queue = OutputQueue()
        queue.appendOwned { $0 += Array("head".utf8) }
        queue.append(body: Array(repeating: 1, count: OutputQueue.copyBelow - 1))
        #expect(queue.pending == 4 + OutputQueue.copyBelow - 1)
    }
}
