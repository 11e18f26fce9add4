import Primitives
import Testing

@testable import HTTPServer

/// `Locked` keeps its value in memory of its own: it must hold the value while it lives,
/// hand out changes under the lock, and release the value with itself.
@Suite struct LockedTests {
    private final class Tracked: Sendable {}

    @Test func changesAreKeptAndTheValueIsReleasedWithTheLock() {
        weak var watched: Tracked?
        do {
            let tracked = Tracked()
            watched = tracked
            let locked = Locked((object: tracked as Tracked?, count: 0))
            for _ in 0..<5 { locked.withLock { $0.count += 1 } }
            #expect(locked.withLock { $0.count } == 5)
            #expect(locked.withLock { $0.object } === tracked)
        }
        #expect(watched == nil)
    }

    @Test func locksMadeOneAfterTheOtherShareNoCacheLine() {
        let locks = (0..<16).map { _ in Locked(0) }
        let addresses = locks.map { lock in
            lock.withLock { UInt(bitPattern: withUnsafeMutablePointer(to: &$0) { $0 }) }
        }
        for (index, address) in addresses.enumerated() {
            for other in addresses[(index + 1)...] {
                #expect(address / 128 != other / 128)
            }
        }
    }
}
