import Foundation
import HTTPTestSupport
import Primitives
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Dispatch backend's backstop: with every source's own event silenced, the once-a-second
/// sweep alone reports a descriptor whose peer has gone, in the direction it is wanted for,
/// and nothing for one still connected or one that wants nothing.
@Suite struct DispatchSweepTests {
    /// Records events; after ``finish(_:)`` and a wake-up, runs the given work on the poller's
    /// queue (the only place a running poller may be touched) and ends the run.
    final class Recorder: PollHandler, @unchecked Sendable {  // called on the poller's queue
        private let events = Locked<[PollEvent]>([])
        private let last = Locked<(@Sendable () -> Void)?>(nil)
        func handle(_ event: PollEvent) { events.withLock { $0.append(event) } }
        func batchFinished(events: Int) -> PollNext {
            guard let work = last.withLock({ $0 }) else { return .wait }
            work()
            return .stop
        }
        func reported(_ fd: Int32) -> [PollEvent] { events.withLock { $0.filter { $0.fd == fd } } }
        func finish(_ work: @escaping @Sendable () -> Void) { last.withLock { $0 = work } }
    }

    private func pair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func theSweepAloneReportsAHangUp() {
        let poller = DispatchPoller(label: "sweep-test", reportsSourceEvents: false)
        let recorder = Recorder()
        let (gone, gonePeer) = pair()
        let (alive, alivePeer) = pair()
        let (idle, idlePeer) = pair()
        _ = poller.add(gone, .readable)
        _ = poller.add(alive, .readable)
        _ = poller.add(idle, [])
        let ended = Locked(false)
        poller.run(recorder) { ended.withLock { $0 = true } }
        close(gonePeer)
        close(idlePeer)
        #expect(waitUntil(5) { !recorder.reported(gone).isEmpty })
        #expect(recorder.reported(gone).allSatisfy { $0.readable && !$0.writable })
        let swept = poller.sweeps.load(ordering: .relaxed)
        #expect(waitUntil(5) { poller.sweeps.load(ordering: .relaxed) > swept })  // a whole sweep more
        #expect(recorder.reported(alive).isEmpty)
        #expect(recorder.reported(idle).isEmpty)
        recorder.finish { for fd in [gone, alive, idle] { poller.close(fd) } }
        poller.wake()
        #expect(waitUntil(5) { ended.withLock { $0 } })
        close(alivePeer)
    }
}
