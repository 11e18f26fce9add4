import Dispatch
import Foundation
import HTTPServer
import HTTPTestSupport
import Primitives
import RingCore
import Testing

@testable import RingService

/// The turns of ``FetchScheduler``, with the time passed by hand.
@Suite struct FetchSchedulerTests {
    @Test func slotsTokensAndWaits() {
        var scheduler = FetchScheduler<Int>(perEntry: 2, queueLimit: 3, rate: 2, wait: 1)
        var submitted = (0..<6).map { scheduler.submit($0, entry: "a", now: 0) }
        #expect(submitted == [true, true, true, true, true, false], "two may start at once, and three wait")
        var started = (0..<3).map { _ in scheduler.next(now: 0)?.job }
        #expect(started == [0, 1, nil], "two running")
        scheduler.finished(entry: "a")
        var next = scheduler.next(now: 0)?.job
        #expect(next == nil, "no token left after a burst of two")
        #expect(scheduler.nextEvent(now: 0) == 0.5, "a token a half second")
        next = scheduler.next(now: 0.5)?.job
        #expect(next == 2)
        #expect(scheduler.waiting(under: "a") == 2)
        submitted = [scheduler.submit(5, entry: "a", now: 0.5), scheduler.submit(6, entry: "b", now: 0.5)]
        #expect(submitted == [true, true], "two running, so 5 waits: a third in the queue")
        #expect(scheduler.submit(7, entry: "a", now: 0.5) == false, "the queue is full")
        started = [scheduler.next(now: 0.5)?.job]
        #expect(started == [6], "another entry has its own budget")
        #expect(scheduler.expired(now: 0.9).isEmpty)
        #expect(scheduler.expired(now: 1) == [3, 4], "waited from 0 for a second")
        #expect(scheduler.expired(now: 1.4).isEmpty)
        #expect(scheduler.expired(now: 1.5) == [5])
        #expect(scheduler.waiting(under: "a") == 0)
    }

    /// A batch submitted before any starts: the jobs that may start at once are not counted
    /// as waiting, so the queue refuses only past them, within the slots and the tokens.
    @Test func aBatchCountsOnlyTheJobsThatWait() {
        var scheduler = FetchScheduler<Int>(perEntry: 4, queueLimit: 20, rate: 1000, wait: 5)
        var admitted = (0..<30).filter { scheduler.submit($0, entry: "a", now: 0) }
        #expect(admitted == Array(0..<24), "4 start and 20 wait")
        var started = (0..<5).compactMap { _ in scheduler.next(now: 0)?.job }
        #expect(started == [0, 1, 2, 3])
        #expect(scheduler.waiting(under: "a") == 20)
        #expect(scheduler.submit(30, entry: "a", now: 0) == false, "four running: the queue alone counts")

        // Two tokens a second, a burst of two: two may start at once, not four.
        scheduler = FetchScheduler<Int>(perEntry: 4, queueLimit: 20, rate: 2, wait: 5)
        admitted = (0..<30).filter { scheduler.submit($0, entry: "a", now: 0) }
        #expect(admitted == Array(0..<22))
        started = (0..<3).compactMap { _ in scheduler.next(now: 0)?.job }
        #expect(started == [0, 1])
        #expect(scheduler.waiting(under: "a") == 20)
    }
}
