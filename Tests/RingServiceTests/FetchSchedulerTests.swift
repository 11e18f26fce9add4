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
        var submitted = (0..<4).map { scheduler.submit($0, entry: "a", now: 0) }
        #expect(submitted == [true, true, true, false], "the queue holds three")
        var started = (0..<3).map { _ in scheduler.next(now: 0)?.job }
        #expect(started == [0, 1, nil], "two running")
        scheduler.finished(entry: "a")
        var next = scheduler.next(now: 0)?.job
        #expect(next == nil, "no token left after a burst of two")
        #expect(scheduler.nextEvent(now: 0) == 0.5, "a token a half second")
        next = scheduler.next(now: 0.5)?.job
        #expect(next == 2)
        submitted = [scheduler.submit(4, entry: "a", now: 0.5), scheduler.submit(5, entry: "b", now: 0.5)]
        #expect(submitted == [true, true])
        started = [scheduler.next(now: 0.5)?.job]
        #expect(started == [5], "another entry has its own budget")
        let early = scheduler.expired(now: 1.4)
        let late = scheduler.expired(now: 1.5)
        #expect(early.isEmpty && late == [4])
        #expect(scheduler.waiting(under: "a") == 0)
    }
}
