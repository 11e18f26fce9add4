import HTTPServer
import Testing

@testable import RingService

@Suite struct ResponseCacheTests {
    private func entry(_ size: Int) -> ResponseCache.Entry {
        ResponseCache.Entry(
            ok: HTTPResponse(status: .ok, body: [UInt8](repeating: 1, count: size)),
            notModified: HTTPResponse(status: .notModified), etag: "\"e\"")
    }

    @Test func staysUnderItsByteCapAndEvictsLeastRecentlyUsed() {
        let cache = ResponseCache(capacityBytes: 64 * 1024)
        for index in 0..<200 {
            cache.insert(entry(1000), hash: UInt64(index), query: "p=\(index)")
            if index > 5 { _ = cache.lookup(query: "p=0") }  // keep p=0 recent
            #expect(cache.statistics.bytes <= 64 * 1024)
        }
        let statistics = cache.statistics
        #expect(statistics.evictions > 0)
        #expect(cache.lookup(query: "p=0") != nil)
        #expect(cache.lookup(query: "p=1") == nil)
        #expect(cache.lookup(query: "p=199") != nil)
        #expect(statistics.entries < 64)
    }

    @Test func aliasesFindTheSameEntry() {
        let cache = ResponseCache(capacityBytes: 1 << 20)
        cache.insert(entry(10), hash: 42, query: "p=1")
        #expect(cache.lookup(query: "p=1.0") == nil)
        #expect(cache.lookup(hash: 42, aliasing: "p=1.0") != nil)
        #expect(cache.lookup(query: "p=1.0") != nil)
        #expect(cache.statistics.entries == 1)
    }

    @Test func refusesEntriesLargerThanTheCache() {
        let cache = ResponseCache(capacityBytes: 1024)
        cache.insert(entry(10_000), hash: 1, query: "p=1")
        #expect(cache.lookup(query: "p=1") == nil)
        #expect(cache.statistics.bytes < 1024)
    }

    @Test func partitionedCacheStaysUnderItsCap() {
        let cache = ResponseCache(capacityBytes: 256 * 1024, partitions: 4)
        for index in 0..<2000 {
            cache.insert(entry(700), hash: UInt64(index), query: "p=\(index)", partition: index % 4)
        }
        let statistics = cache.statistics
        #expect(statistics.bytes <= 256 * 1024)
        #expect(statistics.evictions > 0)
        #expect(statistics.entries > 100)
        #expect(cache.lookup(query: "p=1999", partition: 3) != nil)
        #expect(cache.lookup(query: "p=1999", partition: 2) == nil)
    }

    @Test func isSafeUnderConcurrency() async {
        let cache = ResponseCache(capacityBytes: 256 * 1024, partitions: 2)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<2000 {
                        let key = (index * 7 + worker) % 500
                        if cache.lookup(query: "p=\(key)", partition: worker) == nil {
                            cache.insert(self.entry(500), hash: UInt64(key), query: "p=\(key)", partition: worker)
                        }
                    }
                }
            }
        }
        let statistics = cache.statistics
        #expect(statistics.hits + statistics.misses == 16_000)
        #expect(statistics.bytes <= 256 * 1024)
    }
}

@Suite struct LRUCacheTests {
    @Test func evictsInLeastRecentlyUsedOrder() {
        var cache = LRUCache<String, Int>(capacity: 30)
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
}
