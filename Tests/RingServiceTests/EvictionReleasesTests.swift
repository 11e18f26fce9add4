import Dispatch
import Foundation
import HTTPServer
import Primitives
import RingCore
import RingRaster
import Synchronization
import Testing

@testable import RingService

/// What an LRU lets go of, it no longer holds: an evicted response's body is freed at once,
/// not kept by a free slot until it is reused.
@Suite struct EvictionReleasesTests {
    final class Payload {}

    @Test func anEvictedValueIsReleased() {
        var cache = LRUCache<TestKey, Payload>(capacity: 10)
        weak var first: Payload?
        do {
            let payload = Payload()
            first = payload
            cache.insert(payload, for: "1", cost: 10)
        }
        #expect(first != nil)
        cache.insert(Payload(), for: "2", cost: 10)  // evicts 1
        #expect(first == nil)
    }
}
