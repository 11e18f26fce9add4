import CSystem
import Synchronization

/// Which queries the response cache has been asked for before: bits set by a query's seeded
/// hash (``ResponseCache/QuerySlot``), so that a cheap ring is stored the second time its URL
/// is asked for, not the first.
///
/// Most new URLs an origin sees are asked for once: behind a CDN or GitHub's image proxy, a
/// ring's later requests are answered there, and a flood of made-up URLs never repeats. Storing
/// each of them made a response object, took the shard's lock a second time, and evicted
/// an older, likely more popular ring, whose release touched cold memory: together more than a
/// new SVG's parse and render (docs/performance.md). So a cheap ring seen for the first time is
/// answered and dropped, and costs two bits; asked for again, it is rendered once more and stored.
/// This is the "doorkeeper" of TinyLFU and the "cache on second hit" rule of CDNs, which count
/// by URL as this does: checked before the query is parsed, a URL asked for the first time is
/// not looked for in the shared tables at all (``ResponseCache/findBehindFront(query:loop:)``).
///
/// A query sets two bits, both in one 64-bit word its slot picks (one cache miss for a new
/// query, not two in a row), and counts as seen when both are set. Both can have been set by
/// other queries (a false positive): its ring is then stored on its first request, as every
/// ring was before, which is harmless but costs an entry and an eviction. The filter is cleared
/// when ``limit`` queries have marked it, so it keeps saying "seen" for queries asked for
/// within about that many others. With one bit a query and the same window, a new one looked
/// seen as often as a bit was set: up to 1 in 8.5 at the end of a window and 1 in 17 on
/// average (1 in 18 of the benchmark's new rings were stored). With two, up to 22 % of the
/// bits are set, and a query looks seen only when both its bits are: in a simulation of this
/// layout, 1 in 19 at the end of a window and 1 in 50 on average (1 in 53 with the two bits
/// anywhere in the filter, two misses), for the same memory and window.
///
/// One filter serves every loop, without a lock: its words are atomics, read, then set with an
/// atomic OR, and a query looks new only if the OR found one of its bits clear, so of two
/// loops marking the same new URL at once, one sees it new. Each loop counts its marks in a
/// lane of its own and adds them to the window's count a batch at a time, so loops do not all
/// write one counter line on every new URL; the window is then exact to within a batch a loop
/// (under 2 % of it). Clearing races with marking, and a mark lost that way only makes its URL
/// look new once more.
final class Doorkeeper: @unchecked Sendable {
    private let words: UnsafeMutablePointer<Atomic<UInt64>>
    private let wordCount: Int
    private let mask: UInt64
    /// How many queries may mark the filter before it is cleared: one for every eight bits.
    let limit: Int
    /// Each loop's marks, counted in its own lane; each time a lane's count reaches a multiple
    /// of ``batch``, the batch is added to the window.
    private let pending: CounterLanes
    /// Marks a lane adds to the window at once: 1 with one lane (exact), else 1/64 of a lane's
    /// share of the window.
    private let batch: Int
    private let window = Atomic<Int>(0)
    private let clearingCount = Atomic<Int>(0)

    /// A filter of at least `bits` bits (a power of two, at least 64), marked by `lanes` loops.
    init(bits: Int, lanes: Int = 1) {
        var size = 64
        while size < bits, size < 1 << 30 { size <<= 1 }
        wordCount = size / 64
        mask = UInt64(size - 1)
        limit = size / 8
        pending = CounterLanes(lanes: max(1, lanes), counters: 1)
        batch = lanes <= 1 ? 1 : max(1, limit / 64 / lanes)
        words = UnsafeMutableRawPointer.allocate(byteCount: wordCount * 8, alignment: 128)
            .bindMemory(to: Atomic<UInt64>.self, capacity: wordCount)
        for index in 0..<wordCount { (words + index).initialize(to: Atomic(0)) }
    }

    deinit {
        words.deinitialize(count: wordCount)
        words.deallocate()
    }

    /// How many bits the filter has.
    var bits: Int { wordCount * 64 }

    /// Marks counted in the window since the last clearing (a lane's last batch aside).
    var marked: Int { window.load(ordering: .relaxed) }

    /// How many times the bits have been cleared.
    var clearings: Int { clearingCount.load(ordering: .relaxed) }

    /// Marks `slot` as seen, for loop `lane`; returns whether it was already (a query asked
    /// for before, or a false positive).
    func see(_ slot: UInt64, lane: Int = 0) -> Bool {
        let (word, flags) = Self.place(slot, mask: mask)
        if words[word].load(ordering: .relaxed) & flags == flags { return true }
        // Counted first: the mark that overfills the window clears it and is the next one's first.
        count(lane: lane)
        return words[word].bitwiseOr(flags, ordering: .relaxed).oldValue & flags == flags
    }

    /// Starts fetching `slot`'s word into the CPU's cache, for a ``see(_:lane:)`` a little later.
    func prefetch(_ slot: UInt64) {
        csystem_prefetch(words + Self.place(slot, mask: mask).word)
    }

    private func count(lane: Int) {
        guard pending.increment(0, lane: lane % pending.count) % batch == 0 else { return }
        let counted = window.wrappingAdd(batch, ordering: .relaxed).newValue
        guard counted > limit, window.compareExchange(expected: counted, desired: batch, ordering: .relaxed).exchanged
        else { return }
        for index in 0..<wordCount { words[index].store(0, ordering: .relaxed) }
        clearingCount.wrappingAdd(1, ordering: .relaxed)
    }

    /// A query's word and its two bits in it: one place in memory, so a new query waits for
    /// one cache miss, not two in a row. The word from bits 26 and up of the slot (the cache's
    /// tables place by the bottom ones; at most 24 bits, up to bit 49, for the largest filter),
    /// the first bit from bits 52–57 and the second from bits 58–63, counted on past the first
    /// so that the two always differ.
    private static func place(_ slot: UInt64, mask: UInt64) -> (word: Int, flags: UInt64) {
        let word = Int(truncatingIfNeeded: (slot >> 26) & (mask >> 6))
        let first = (slot >> 52) & 63
        let second = (first + 1 + (slot >> 58) % 63) & 63
        return (word, UInt64(1) << first | UInt64(1) << second)
    }
}
