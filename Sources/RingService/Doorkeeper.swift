/// Which rings the response cache has been asked for before: one bit per place, set by a ring's
/// ``ResponseCache/Key/slot``, so that a cheap ring is stored the second time it is asked for,
/// not the first.
///
/// Most new URLs an origin sees are asked for once: behind a CDN or GitHub's image proxy, a
/// ring's later requests are answered there, and a flood of made-up URLs never repeats. Storing
/// each of them made a response object, took the shard's lock a second time, and evicted
/// an older, likely more popular ring, whose release touched cold memory: together more than a
/// new SVG's parse and render (docs/performance.md). So a cheap ring seen for the first time is
/// answered and dropped, and costs one bit; asked for again, it is rendered once more and stored.
/// This is the "doorkeeper" of TinyLFU and the "cache on second hit" rule of CDNs.
///
/// A bit can be set by another ring in the same place (a false positive): that ring is then
/// stored on its first request, as every ring was before, which is harmless. The bits are
/// cleared when ``limit`` of them are set, so the filter keeps saying "seen" for rings asked
/// for within about that many others, and false positives stay below 1 in 8. Not
/// thread-safe: each cache shard keeps one behind its lock.
struct Doorkeeper {
    private var words: [UInt64]
    private let mask: UInt64
    /// Bits set since the last clearing.
    private(set) var marked = 0
    /// How many bits may be set before they are all cleared: an eighth of them.
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
        // The top bits: the cache's table places by the bottom ones.
        let bit = (slot >> 20) & mask
        let word = Int(truncatingIfNeeded: bit >> 6)
        let flag: UInt64 = 1 << (bit & 63)
        if words[word] & flag != 0 { return true }
        if marked == limit {
            words.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            marked = 0
            clearings += 1
        }
        words[word] |= flag
        marked += 1
        return false
    }
}
