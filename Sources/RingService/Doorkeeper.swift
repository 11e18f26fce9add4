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
/// not looked for in the shared tables at all (``ResponseCache/find(query:loop:)``).
///
/// A query sets two bits, at two places its slot picks, and counts as seen when both are set.
/// Both can have been set by other queries (a false positive): its ring is then stored on its
/// first request, as every ring was before, which is harmless but costs an entry and an
/// eviction. The filter is cleared when ``limit`` queries have marked it, so it keeps saying
/// "seen" for queries asked for within about that many others. With one bit a query and the
/// same window, a new one looked seen as often as a bit was set: up to 1 in 8.5 at the end of a
/// window and 1 in 17 on average (1 in 18 of the benchmark's new rings were stored). With two,
/// up to 22 % of the bits are set, and a query looks seen only when both its places are: up to
/// 1 in 20, and 1 in 58 on average, for the same memory and window. Not thread-safe: each cache
/// shard keeps one behind its lock.
struct Doorkeeper {
    private var words: [UInt64]
    private let mask: UInt64
    /// Queries marked since the last clearing.
    private(set) var marked = 0
    /// How many queries may mark the filter before it is cleared: one for every eight bits.
    let limit: Int
    /// How many times the bits have been cleared.
    private(set) var clearings = 0

    /// A filter of at least `bits` bits (a power of two, at least 64).
    init(bits: Int) {
        var size = 64
        while size < bits, size < 1 << 30 { size <<= 1 }
        words = [UInt64](repeating: 0, count: size / 64)
        mask = UInt64(size - 1)
        limit = size / 8
    }

    /// How many bits the filter has.
    var bits: Int { words.count * 64 }

    /// Marks `slot` as seen; returns whether it was already (a ring asked for before, or a
    /// false positive).
    mutating func see(_ slot: UInt64) -> Bool {
        // Two places from bits the cache's table does not place by (it uses the bottom ones):
        // 20 and up, and 42 and up. Overlapping only past 2^22 bits, they stay two different
        // functions of a uniform slot.
        let first = (slot >> 20) & mask
        let second = (slot >> 42 | slot << 22) & mask
        let (firstWord, firstFlag) = (Int(truncatingIfNeeded: first >> 6), UInt64(1) << (first & 63))
        let (secondWord, secondFlag) = (Int(truncatingIfNeeded: second >> 6), UInt64(1) << (second & 63))
        if words[firstWord] & firstFlag != 0, words[secondWord] & secondFlag != 0 { return true }
        if marked == limit {
            words.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            marked = 0
            clearings += 1
        }
        words[firstWord] |= firstFlag
        words[secondWord] |= secondFlag
        marked += 1
        return false
    }
}
