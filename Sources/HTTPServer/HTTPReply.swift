import Primitives
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
package struct HTTPReply: Sendable {
    let mailbox: ReplyMailbox
    let fd: Int32
    let serial: UInt64

    /// Queues `response` for the connection and wakes its loop. Safe from any thread.
    package func send(_ response: HTTPResponse) {
        mailbox.post(ReplyMailbox.Delivery(fd: fd, serial: serial, response: response))
    }

    /// A reply that calls `body` with the response, on the thread that sends it: for calling
    /// a responder outside a server (tests, benchmarks).
    package static func calling(_ body: @escaping @Sendable (HTTPResponse) -> Void) -> HTTPReply {
        let holder = MailboxHolder()
        let mailbox = ReplyMailbox(wake: {
            guard let mailbox = holder.mailbox else { return }
            repeat {
                for delivery in mailbox.take() { body(delivery.response) }
            } while !mailbox.prepareToWait()
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
///
/// A post wakes the loop only if the loop said it was about to wait (``prepareToWait()``): a
/// loop that is busy finds the post when its batch ends, without a wake-up (a system call, and
/// on a virtual machine an interrupt between cores). The flag and `posted` are sequentially
/// consistent, so of a post and a loop going to sleep at the same moment, one sees the other:
/// either the loop sees the post and does not wait, or the poster sees the loop asleep and
/// wakes it.
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
    /// Whether the loop may be waiting in its poller (or not yet running): a post must wake it.
    private let waiting = Atomic<Bool>(true)
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    func post(_ delivery: Delivery) {
        deliveries.withLock { $0.append(delivery) }
        posted.store(true, ordering: .sequentiallyConsistent)
        if waiting.exchange(false, ordering: .sequentiallyConsistent) { wake() }
    }

    /// Called by the loop before it waits: false if something was posted meanwhile, and the
    /// loop must not wait.
    func prepareToWait() -> Bool {
        waiting.store(true, ordering: .sequentiallyConsistent)
        guard !posted.load(ordering: .sequentiallyConsistent) else {
            waiting.store(false, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Called by the loop once it is handling events again: posts from now on need no wake-up.
    func awake() {
        waiting.store(false, ordering: .relaxed)
    }

    /// Everything posted so far, oldest first.
    func take() -> [Delivery] {
        guard posted.exchange(false, ordering: .sequentiallyConsistent) else { return [] }
        return deliveries.withLock {
            guard !$0.isEmpty else { return [] }
            var taken: [Delivery] = []
            swap(&taken, &$0)
            return taken
        }
    }
}
