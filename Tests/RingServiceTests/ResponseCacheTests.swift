import Dispatch
import HTTPServer
import RingCore
import RingTestSupport
import Testing

@testable import RingService

extension ResponseCache {
    /// A request's lookup, as the service makes it: the loop's front, then behind it.
    fileprivate func find(query: Query, loop: Int = 0) -> QueryLookup {
        findInFront(query: query, loop: loop).map { .found($0) } ?? findBehindFront(query: query, loop: loop)
    }

    /// ``find(query:loop:)``'s entry, if it found one.
    fileprivate func lookup(query: Query, loop: Int = 0) -> Entry? {
        if case .found(let entry) = find(query: query, loop: loop) { entry } else { nil }
    }
}

private enum CacheTestFailure: Error { case found(String) }

@Suite struct ResponseCacheTests {
    private func entry(_ size: Int, tag: String = "e") -> ResponseCache.Entry {
        let etag = HTTPHeaderBlock(name: "ETag", value: "\"\(tag)\"")
        return ResponseCache.Entry(
            ok: HTTPResponse(status: .ok, headers: etag, body: [UInt8](repeating: 1, count: size)),
            notModified: HTTPResponse(status: .notModified, headers: etag), lastModified: 0)
    }

    /// The tag is the one the response sends: read back from its `ETag` line.
    @Test func anEntrysTagIsItsResponsesETag() {
        #expect(entry(3, tag: "r6-svg-0123").etag == "\"r6-svg-0123\"")
    }

    private func key(_ low: Int, high: UInt64 = 0, format: UInt8 = 0) -> ResponseCache.Key {
        ResponseCache.Key(digest: RingDigest(high: high, low: UInt64(low)), format: format)
    }

    private func query(_ text: String, format: UInt8 = 0) -> ResponseCache.Query {
        ResponseCache.Query(text, format: format)
    }

    /// An entry stored and a query remembered as a way to it, as a second request for a URL
    /// leaves them.
    private func store(
        _ cache: ResponseCache, _ entry: ResponseCache.Entry, key: ResponseCache.Key, query: ResponseCache.Query
    ) {
        cache.insert(entry, key: key)
        cache.remember(query, as: key)
    }

    /// A query is remembered when it comes again, not when its ring is first stored: the first
    /// request costs the store no alias, the second finds the ring by digest and leaves one,
    /// the third is found by its text. Each counts once: a miss, then two hits.
    @Test func aQueryIsRememberedWhenItComesAgain() {
        let cache = ResponseCache(capacityBytes: 1 << 20)
        let stored = entry(10)
        #expect(cache.lookup(query: query("p=1")) == nil)
        cache.insert(stored, key: key(5))
        #expect(cache.statistics.bytes == stored.cost)
        #expect(cache.lookup(query: query("p=1")) == nil)
        #expect(cache.lookup(key: key(5), aliasing: query("p=1")) === stored)
        #expect(cache.statistics.bytes > stored.cost)
        #expect(cache.lookup(query: query("p=1")) === stored)
        let statistics = cache.statistics
        #expect(statistics.misses == 1)
        #expect(statistics.hits == 2)
    }

    /// The admission rule, decided by the cache alone along one ``ResponseCache/Miss``: with
    /// `.second` a cheap ring whose query is asked for the first time is not looked for by
    /// digest and not stored (counted as unstored); asked for again, it is found by digest or
    /// stored, and its query is remembered, so the third request finds it by its text. A costly
    /// ring is stored the first time; with `.first` every ring is.
    @Test func theCacheAloneDecidesWhatIsStored() throws {
        func miss(_ cache: ResponseCache, _ text: String, format: UInt8 = 0) throws -> ResponseCache.Miss {
            guard case .absent(let miss) = cache.find(query: query(text, format: format)) else {
                throw CacheTestFailure.found(text)
            }
            return miss
        }
        let second = ResponseCache(capacityBytes: 1 << 20, admission: .second)
        var first = try miss(second, "p=1")
        #expect(!second.shouldStore(first, cheap: true))
        #expect(second.shouldStore(first, cheap: false))
        #expect(second.find(key(1), for: &first, cheap: true) == nil)
        #expect(!first.stores)
        #expect(second.statistics.unstored == 1)
        // The same text in another format is another query, asked for the first time.
        #expect(try !second.shouldStore(miss(second, "p=1", format: 1), cheap: true))
        // Asked again: stored, and remembered with it.
        var again = try miss(second, "p=1")
        #expect(second.shouldStore(again, cheap: true))
        #expect(second.find(key(1), for: &again, cheap: true) == nil)
        #expect(again.stores)
        let stored = entry(10)
        second.store(stored, key: key(1), for: again)
        #expect(second.lookup(query: query("p=1")) === stored)
        // Another query of the same ring, asked for again, is found by digest and remembered.
        _ = try miss(second, "p=1.0")
        var other = try miss(second, "p=1.0")
        #expect(second.find(key(1), for: &other, cheap: true) === stored)
        #expect(second.lookup(query: query("p=1.0")) === stored)
        // A costly ring asked for the first time is stored, and its query not remembered yet.
        var costly = try miss(second, "p=2")
        #expect(second.find(key(2), for: &costly, cheap: false) == nil)
        #expect(costly.stores)
        second.store(entry(10), key: key(2), for: costly)
        #expect(second.lookup(query: query("p=2")) == nil)
        #expect(second.statistics.unstored == 1)
        let firstAdmission = ResponseCache(capacityBytes: 1 << 20, admission: .first)
        #expect(try firstAdmission.shouldStore(miss(firstAdmission, "p=1"), cheap: true))
        #expect(firstAdmission.statistics.unstored == 0)
    }

    /// The doorkeeper says "seen" for every ring marked since it was last cleared, clears
    /// itself once a ring for every eight bits has marked it, and then forgets; with two bits a
    /// ring, few new rings look seen before then.
    @Test func theDoorkeeperRemembersUntilItsWindowIsFull() {
        let doorkeeper = Doorkeeper(bits: 4096)
        #expect(doorkeeper.bits == 4096)
        #expect(doorkeeper.limit == 512)
        var generator = SeededGenerator(seed: 11)
        var slots: [UInt64] = []
        var falsePositives = 0
        while doorkeeper.marked < doorkeeper.limit {
            let slot = UInt64.random(in: .min ... .max, using: &generator)
            if doorkeeper.see(slot) { falsePositives += 1 } else { slots.append(slot) }
        }
        #expect(slots.count == 512)
        // About 1 in 50 new rings look seen over a window (1 in 17 with one bit a ring, which
        // would fail here): fewer than 1 in 20.
        #expect(falsePositives < slots.count / 20)
        for slot in slots {
            let seen = doorkeeper.see(slot)
            #expect(seen)
        }
        #expect(doorkeeper.clearings == 0)
        // The next new ring clears the bits: the old ones are forgotten.
        var next = UInt64.random(in: .min ... .max, using: &generator)
        while doorkeeper.see(next) { next = UInt64.random(in: .min ... .max, using: &generator) }
        #expect(doorkeeper.clearings == 1)
        #expect(doorkeeper.marked == 1)
        var remembered = 0
        for slot in slots where doorkeeper.see(slot) { remembered += 1 }
        #expect(remembered < 100)
    }

    /// Marked by two loops at once, without a lock, the filter counts each loop's marks in a
    /// lane of its own, adds them to its window a batch at a time (here 4), and clears once the
    /// window overflows.
    @Test func theDoorkeeperCountsEachLoopsMarksInBatches() {
        let doorkeeper = Doorkeeper(bits: 4096, lanes: 2)
        #expect(doorkeeper.limit == 512)
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            var generator = SeededGenerator(seed: UInt64(30 + lane))
            var marked = 0
            while marked < 256 {
                if !doorkeeper.see(UInt64.random(in: .min ... .max, using: &generator), lane: lane) { marked += 1 }
            }
        }
        #expect(doorkeeper.marked == 512)
        #expect(doorkeeper.clearings == 0)
        // Three more new queries stay in lane 0's batch; the fourth adds the batch and clears.
        var generator = SeededGenerator(seed: 40)
        var marked = 0
        while marked < 4 {
            if !doorkeeper.see(UInt64.random(in: .min ... .max, using: &generator), lane: 0) { marked += 1 }
            if marked == 3 { #expect(doorkeeper.clearings == 0) }
        }
        #expect(doorkeeper.clearings == 1)
        #expect(doorkeeper.marked == 4)
    }

    @Test func staysUnderItsByteCapAndEvictsLeastRecentlyUsed() {
        let cache = ResponseCache(capacityBytes: 64 * 1024, shards: 1)
        for index in 0..<200 {
            store(cache, entry(1000), key: key(index), query: query("p=\(index)"))
            if index > 5 { _ = cache.lookup(query: query("p=0")) }  // keep p=0 recent
            #expect(cache.statistics.bytes <= 64 * 1024)
        }
        let statistics = cache.statistics
        #expect(statistics.evictions > 0)
        #expect(cache.lookup(query: query("p=0")) != nil)
        #expect(cache.lookup(query: query("p=1")) == nil)
        #expect(cache.lookup(query: query("p=199")) != nil)
        #expect(statistics.entries < 64)
    }

    /// Error images have their own budget: however many are stored, every ring stays, and
    /// the error images' bytes stay within 1/16 of the store.
    @Test func errorImagesPushOutOnlyEachOther() {
        let cache = ResponseCache(capacityBytes: 1024 * 1024, shards: 4)
        for index in 0..<60 { store(cache, entry(700), key: key(index), query: query("p=\(index)")) }
        // As a flood of distinct invalid URLs leaves them: stored, and no query remembered.
        for index in 0..<5000 { cache.insert(entry(700), key: key(index, format: ResponseCache.Key.errorImageFlag)) }
        for index in 0..<60 { #expect(cache.lookup(query: query("p=\(index)")) != nil) }
        let statistics = cache.statistics
        #expect(statistics.errorImageBytes > 0)
        #expect(statistics.errorImageBytes <= (1024 * 1024 - 1024 * 1024 / 8) / 16)
        #expect(statistics.bytes <= 1024 * 1024)
        #expect(cache.lookup(key: key(4999, format: ResponseCache.Key.errorImageFlag), aliasing: query("p=x")) != nil)
    }

    @Test func aliasesFindTheSameEntry() {
        let cache = ResponseCache(capacityBytes: 1 << 20)
        store(cache, entry(10), key: key(42), query: query("p=1"))
        #expect(cache.lookup(query: query("p=1.0")) == nil)
        #expect(cache.lookup(key: key(42), aliasing: query("p=1.0")) != nil)
        #expect(cache.lookup(query: query("p=1.0")) != nil)
        #expect(cache.statistics.entries == 1)
    }

    @Test func refusesEntriesLargerThanAShard() {
        let cache = ResponseCache(capacityBytes: 16 * 1024, shards: 16)
        store(cache, entry(2000), key: key(1), query: query("p=1"))
        #expect(cache.lookup(query: query("p=1")) == nil)
        #expect(cache.statistics.bytes < 1024)
    }

    @Test func shardedCacheStaysUnderItsCapAndSharesEntries() {
        let cache = ResponseCache(capacityBytes: 256 * 1024, shards: 4)
        for index in 0..<2000 {
            store(cache, entry(700), key: key(index), query: query("p=\(index)"))
        }
        let statistics = cache.statistics
        #expect(statistics.bytes <= 256 * 1024)
        #expect(statistics.evictions > 0)
        #expect(statistics.entries > 100)
        #expect(cache.lookup(query: query("p=1999")) != nil)
    }

    /// What one loop stored, another finds through the store, and then in its own front.
    @Test func loopsShareOneStore() throws {
        let cache = ResponseCache(capacityBytes: 1 << 20, shards: 4, loops: 2)
        let stored = entry(100)
        store(cache, stored, key: key(3), query: query("p=3"))
        #expect(cache.lookup(query: query("p=3"), loop: 1) === stored)
        #expect(cache.lookup(query: query("p=3"), loop: 1) === stored)
        #expect(cache.lookup(key: key(3), aliasing: query("p=3.0"), loop: 1) === stored)
        #expect(cache.lookup(query: query("p=3.0"), loop: 0) === stored)
        // One response stored (the miss); four lookups found it, by text or by digest.
        let statistics = cache.statistics
        #expect(statistics.entries == 1)
        #expect(statistics.hits == 4)
        #expect(statistics.misses == 1)
    }

    /// Fronts count what they keep alive: store and fronts together stay under the budget
    /// however the loops share the work.
    @Test func frontsAndStoreStayUnderTheBudget() {
        let cache = ResponseCache(capacityBytes: 128 * 1024, shards: 4, loops: 3)
        for index in 0..<3000 {
            store(cache, entry(600), key: key(index), query: query("p=\(index)"))
            _ = cache.lookup(query: query("p=\(index / 2)"), loop: (index + 1) % 3)
            #expect(cache.statistics.bytes <= 128 * 1024)
        }
    }

    /// Digests equal in their low 64 bits land in the same shard and bucket, and are still two
    /// entries: the whole digest decides identity.
    @Test func identityIsTheWholeDigest() throws {
        let cache = ResponseCache(capacityBytes: 1 << 20)
        let first = entry(10, tag: "first")
        let second = entry(10, tag: "second")
        store(cache, first, key: key(7, high: 1), query: query("a"))
        #expect(cache.lookup(key: key(7, high: 2), aliasing: query("b")) == nil)
        store(cache, second, key: key(7, high: 2), query: query("b"))
        #expect(cache.lookup(query: query("a")) === first)
        #expect(cache.lookup(query: query("b")) === second)
        #expect(cache.statistics.entries == 2)
    }

    /// The same ring in two formats, and the same query text on two formats' routes, are
    /// separate entries.
    @Test func formatsHaveTheirOwnEntries() throws {
        let cache = ResponseCache(capacityBytes: 1 << 20)
        let svg = entry(10, tag: "svg")
        let other = entry(10, tag: "other")
        store(cache, svg, key: key(9, format: 0), query: query("p=1", format: 0))
        #expect(cache.lookup(query: query("p=1", format: 1)) == nil)
        #expect(cache.lookup(key: key(9, format: 1), aliasing: query("p=1", format: 1)) == nil)
        store(cache, other, key: key(9, format: 1), query: query("p=1", format: 1))
        #expect(cache.lookup(query: query("p=1", format: 0)) === svg)
        #expect(cache.lookup(query: query("p=1", format: 1)) === other)
    }

    /// A query found in its slot is still compared in full: one whose text or format differs
    /// is not the alias stored there.
    @Test func aliasesCompareTheirText() {
        let alias = ResponseCache.Alias(text: "p=1", format: 0, key: key(1))
        #expect(query("p=1").isSame(as: alias))
        #expect(!query("p=2").isSame(as: alias))
        #expect(!query("p=1", format: 1).isSame(as: alias))
    }

    @Test func isSafeUnderConcurrency() async {
        let cache = ResponseCache(capacityBytes: 256 * 1024, shards: 4)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<2000 {
                        let number = (index * 7 + worker) % 500
                        if cache.lookup(query: self.query("p=\(number)")) == nil {
                            self.store(cache, self.entry(500), key: self.key(number), query: self.query("p=\(number)"))
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

/// A key whose place in the table the test chooses: by default from its text, or any slot, so
/// that keys collide as often as a test wants.
struct TestKey: CacheKey, ExpressibleByStringLiteral {
    var text: String
    var slot: UInt64

    init(_ text: String, slot: UInt64) {
        self.text = text
        self.slot = slot
    }

    init(stringLiteral text: String) {
        self.init(text, slot: UInt64(truncatingIfNeeded: text.hashValue))
    }

    static func == (a: TestKey, b: TestKey) -> Bool { a.text == b.text }
}
