import Dispatch
import HTTPServer
import RingCore
import RingTestSupport
import Testing

@testable import RingService

@Suite struct LRUCacheTests {
    @Test func evictsInLeastRecentlyUsedOrder() {
        var cache = LRUCache<TestKey, Int>(capacity: 30)
        cache.insert(1, for: "a", cost: 10)
        cache.insert(2, for: "b", cost: 10)
        cache.insert(3, for: "c", cost: 10)
        #expect(cache.value(for: "a") == 1)
        cache.insert(4, for: "d", cost: 10)  // evicts b
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        #expect(cache.value(for: "d") == 4)
        // Recency now d, c, a. Replacing a with a costlier value evicts the least recent, c.
        cache.insert(5, for: "a", cost: 20)
        #expect(cache.totalCost == 30)
        #expect(cache.value(for: "c") == nil)
        #expect(cache.value(for: "d") == 4)
        #expect(cache.value(for: "a") == 5)
        #expect(cache.evictions == 2)
    }

    /// Random inserts, replacements, lookups and evictions against a plain model of an LRU,
    /// with keys crowded onto a few slots (and slots near the table's end, so runs wrap), so
    /// that probing runs are long and removals shift them back: every lookup must find what
    /// the model holds, and nothing else.
    @Test(arguments: [1, 3, 64, UInt64.max])
    func agreesWithAModelUnderCollisions(slots: UInt64) {
        var generator = SeededGenerator(seed: slots)
        var cache = LRUCache<TestKey, Int>(capacity: 400)
        var model: [(key: String, value: Int, cost: Int)] = []  // most recent first
        func key(_ text: String) -> TestKey {
            let hash = UInt64(truncatingIfNeeded: text.hashValue)
            return TestKey(text, slot: slots == .max ? hash : (hash % slots) &- 2)
        }
        for step in 0..<20_000 {
            let text = "k\(Int.random(in: 0..<120, using: &generator))"
            if Bool.random(using: &generator) {
                let cost = Int.random(in: 1...40, using: &generator)
                cache.insert(step, for: key(text), cost: cost)
                model.removeAll { $0.key == text }
                model.insert((text, step, cost), at: 0)
                while model.map(\.cost).reduce(0, +) > 400 { model.removeLast() }
            } else {
                let found = cache.value(for: key(text))
                let index = model.firstIndex { $0.key == text }
                #expect(found == index.map { model[$0].value }, "step \(step)")
                if let index { model.insert(model.remove(at: index), at: 0) }
            }
            #expect(cache.count == model.count)
            #expect(cache.totalCost == model.map(\.cost).reduce(0, +))
        }
        for entry in model { #expect(cache.value(for: key(entry.key)) == entry.value) }
    }
}
