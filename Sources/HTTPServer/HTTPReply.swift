import Synchronization

/// A promise to answer one request later, from any thread: what a responder keeps when it
/// hands slow work (a render) to threads of its own instead of doing it on the event loop.
///
/// ``send(_:)`` queues the response in the loop's mailbox and wakes the loop, which writes it
/// on the connection's own thread, in request order: the connection answers nothing after a
/// deferred request until its response arrives. A reply for a connection that has gone since
/// is dropped. Call ``send(_:)`` once; later calls are ignored by the loop.
///
/// ```swift
/// func respond(to request: HTTPRequest, reply: HTTPReply) -> HTTPResponse? {
///     pool.async { reply.send(.text(.ok, expensive(request))) }
///     return nil  // answered later
/// }
/// ```
public struct HTTPReply: Sendable {
    let mailbox: ReplyMailbox
    let fd: Int32
    let serial: UInt64

    /// Queues `response` for the connection and wakes its loop. Safe from any thread.
    public func send(_ response: HTTPResponse) {
        mailbox.post(ReplyMailbox.Delivery(fd: fd, serial: serial, response: response))
    }

    /// A reply that calls `body` with the response, on the thread that sends it: for calling
    /// a responder outside a server (tests, benchmarks).
    package static func calling(_ body: @escaping @Sendable (HTTPResponse) -> Void) -> HTTPReply {
        let holder = MailboxHolder()
        let mailbox = ReplyMailbox(wake: {
            for delivery in holder.mailbox?.take() ?? [] { body(delivery.response) }
        })
        holder.mailbox = mailbox
        return HTTPReply(mailbox: mailbox, fd: -1, serial: 0)
    }

    /// The mailbox, for its own wake-up, without a cycle: the reply keeps the mailbox alive.
    private final class MailboxHolder: @unchecked Sendable {  // set once, before any post
        weak var mailbox: ReplyMailbox?
    }
}

/// One loop's queue of deferred responses: filled by any thread, emptied by the loop.
final class ReplyMailbox: Sendable {
    struct Delivery: Sendable {
        var fd: Int32
        var serial: UInt64
        var response: HTTPResponse
    }

    private let deliveries = Locked<[Delivery]>([])
    /// Whether anything was posted since the last ``take()``: the loop checks it after every
    /// batch, and a lock there would cost every request.
    private let posted = Atomic<Bool>(false)
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    func post(_ delivery: Delivery) {
        let first = deliveries.withLock {
            $0.append(delivery)
            return $0.count == 1
        }
        posted.store(true, ordering: .releasing)
        if first { wake() }  // a later one finds the loop already woken
    }

    /// Everything posted so far, oldest first.
    func take() -> [Delivery] {
        guard posted.exchange(false, ordering: .acquiringAndReleasing) else { return [] }
        return deliveries.withLock {
            guard !$0.isEmpty else { return [] }
            var taken: [Delivery] = []
            swap(&taken, &$0)
            return taken
        }
    }
}
