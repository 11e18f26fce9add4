import Dispatch
import Foundation
import HTTPTestSupport
import Primitives
import Synchronization
import Testing

@testable import HTTPServer

/// The mailbox wakes its loop only when the loop may be waiting, and never loses a post.
@Suite struct ReplyMailboxTests {
    private func delivery(_ text: String) -> ReplyMailbox.Delivery {
        ReplyMailbox.Delivery(fd: 3, serial: 1, response: .text(.ok, text))
    }

    @Test func aPostWakesOnlyAWaitingLoop() {
        let wakes = Atomic<Int>(0)
        let mailbox = ReplyMailbox(wake: { wakes.add(1, ordering: .relaxed) })
        mailbox.post(delivery("before the loop runs"))
        #expect(wakes.load(ordering: .relaxed) == 1)
        mailbox.awake()
        mailbox.post(delivery("while it handles a batch"))
        #expect(wakes.load(ordering: .relaxed) == 1)
        // Posts the loop has not taken: it must not wait.
        #expect(!mailbox.prepareToWait())
        #expect(mailbox.take().count == 2)
        #expect(mailbox.prepareToWait())
        mailbox.post(delivery("while it waits"))
        mailbox.post(delivery("again, before it woke"))
        #expect(wakes.load(ordering: .relaxed) == 2)
        #expect(mailbox.take().count == 2)
        #expect(mailbox.take().isEmpty)
    }

    /// Posts from four threads against a loop that takes and waits in a tight cycle: every post
    /// arrives, and a loop that waits always has a wake-up coming if anything is left.
    @Test func noPostIsLostBetweenTakingAndWaiting() {
        let wakes = DispatchSemaphore(value: 0)
        let mailbox = ReplyMailbox(wake: { wakes.signal() })
        let posters = 4
        let each = 20_000
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: posters) { _ in
                for _ in 0..<each { mailbox.post(self.delivery("x")) }
            }
        }
        var taken = 0
        while taken < posters * each {
            mailbox.awake()
            taken += mailbox.take().count
            if taken < posters * each, mailbox.prepareToWait() {
                // Waiting: a wake-up must come, or the posts left are lost.
                guard wakes.wait(timeout: .now() + 10) == .success else { break }
            }
        }
        #expect(taken == posters * each)
    }
}
