/// A prefix code over a fixed alphabet: optimal code lengths for the symbols' counts, no longer
/// than a limit, and their canonical codes (RFC 1951 §3.2.2). Its tables are made once and
/// rebuilt for every block.
final class PrefixCode {
    let symbols: Int
    let limit: Int
    /// Each symbol's code length, 0 for a symbol that does not occur.
    let lengths: UnsafeMutablePointer<UInt8>
    /// Each symbol's code, bit-reversed for writing least significant bit first, << 4 | length.
    let codes: UnsafeMutablePointer<UInt32>
    /// The occurring symbols as count << 9 | symbol (alphabets are below 512), and the tree's
    /// weights (with room for a sorted copy of the leaves).
    private let leaves: UnsafeMutablePointer<UInt64>
    private let weights: UnsafeMutablePointer<UInt64>
    /// Each byte with its bits in the opposite order.
    private let reversedBytes: UnsafeMutablePointer<UInt8>

    init(symbols: Int, limit: Int) {
        precondition(symbols <= 512, "symbols are 9 bits in the leaves")
        reversedBytes = .allocate(capacity: 256)
        for byte in 0..<256 {
            var reversed = 0
            for bit in 0..<8 where byte >> bit & 1 != 0 { reversed |= 1 << (7 - bit) }
            reversedBytes[byte] = UInt8(reversed)
        }
        self.symbols = symbols
        self.limit = limit
        lengths = .allocate(capacity: symbols)
        lengths.initialize(repeating: 0, count: symbols)
        codes = .allocate(capacity: symbols)
        codes.initialize(repeating: 0, count: symbols)
        leaves = .allocate(capacity: symbols)
        weights = .allocate(capacity: 2 * symbols)
    }

    deinit {
        lengths.deallocate()
        codes.deallocate()
        leaves.deallocate()
        weights.deallocate()
        reversedBytes.deallocate()
    }

    /// The lengths and codes for `counts` (one per symbol).
    ///
    /// Huffman's lengths, by the two-queue method over the counts in increasing order; then,
    /// if any is past ``limit``, codes past it are counted at it, and while the lengths ask for
    /// more codes than there are, one code at the limit goes and a shorter one splits in two.
    /// The rarest symbols take the longest lengths. A lone symbol gets length 1 (a decoder
    /// needs a bit to read).
    func build(counts: UnsafePointer<UInt32>) {
        lengths.update(repeating: 0, count: symbols)
        var n = 0
        for symbol in 0..<symbols where counts[symbol] != 0 {
            leaves[n] = UInt64(counts[symbol]) << 9 | UInt64(symbol)
            n += 1
        }
        if n == 1 { lengths[Int(leaves[0] & 0x1FF)] = 1 }
        if n > 1 {
            // Ties broken by symbol number: equal counts give equal codes, run after run.
            sortLeaves(n)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { perLength in
                perLength.initialize(repeating: 0)
                countDepths(n, into: perLength.baseAddress!)
                limitDepths(perLength.baseAddress!)
                // The leaves take the lengths from the longest, counting off a copy.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { left in
                    _ = left.initialize(from: perLength)
                    var length = 63
                    for leaf in 0..<n {
                        while left[length] == 0 { length -= 1 }
                        lengths[Int(leaves[leaf] & 0x1FF)] = UInt8(length)
                        left[length] -= 1
                    }
                }
                assignCodes(perLength.baseAddress!)
            }
            return
        }
        assignCodes()
    }

    /// Sorts the first `n` ``leaves`` (count << 9 | symbol, in increasing symbol) by count, ties
    /// by symbol. A few by insertion; more by one counting pass over the counts below 255,
    /// which most of a block's symbols have, and insertion among the rest, which are few.
    private func sortLeaves(_ n: Int) {
        func insertionSort(_ first: Int, _ end: Int) {
            guard end - first > 1 else { return }
            for index in (first + 1)..<end {
                let leaf = leaves[index]
                var slot = index
                while slot > first && leaves[slot - 1] > leaf {
                    leaves[slot] = leaves[slot - 1]
                    slot -= 1
                }
                leaves[slot] = leaf
            }
        }
        guard n > 32 else { return insertionSort(0, n) }
        // The spare half of `weights` holds the sorted copy.
        let sorted = weights + symbols
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 256) { buckets in
            buckets.initialize(repeating: 0)
            for leaf in 0..<n { buckets[Int(min(leaves[leaf] >> 9, 255))] &+= 1 }
            var total: UInt16 = 0
            for bucket in 0..<256 {
                let count = buckets[bucket]
                buckets[bucket] = total
                total &+= count
            }
            for leaf in 0..<n {
                let bucket = Int(min(leaves[leaf] >> 9, 255))
                sorted[Int(buckets[bucket])] = leaves[leaf]
                buckets[bucket] &+= 1
            }
            leaves.update(from: sorted, count: n)
            // Bucket 255 ends at n; it begins where bucket 254 ended.
            insertionSort(Int(buckets[254]), n)
        }
    }

    /// How many of the `n` sorted leaves sit at each depth of their Huffman tree (depths past
    /// 63 counted at 63). Moffat and Katajainen's in-place method over the sorted weights: the
    /// merges are made in increasing weight, so they fill the array from the front as the
    /// leaves are used up; then each merge's depth follows from its parent's; then the leaves
    /// take the depths level by level, shallowest for the heaviest.
    private func countDepths(_ n: Int, into perLength: UnsafeMutablePointer<Int>) {
        let a = weights
        for leaf in 0..<n { a[leaf] = leaves[leaf] >> 9 }
        // Merges: a[next] is the next merge's weight; a merged node's slot takes its parent.
        a[0] += a[1]
        var root = 0
        var leaf = 2
        for next in 1..<(n - 1) {
            if leaf >= n || a[root] < a[leaf] {
                a[next] = a[root]
                a[root] = UInt64(next)
                root += 1
            } else {
                a[next] = a[leaf]
                leaf += 1
            }
            if leaf >= n || (root < next && a[root] < a[leaf]) {
                a[next] += a[root]
                a[root] = UInt64(next)
                root += 1
            } else {
                a[next] += a[leaf]
                leaf += 1
            }
        }
        // Each merge's depth: the root's is 0.
        a[n - 2] = 0
        if n > 2 {
            for next in stride(from: n - 3, through: 0, by: -1) { a[next] = a[Int(a[next])] + 1 }
        }
        // Leaves per depth: at each depth, the slots merges do not take are leaves.
        var available = 1
        var depth = 0
        var merge = n - 2
        while available > 0 {
            var used = 0
            while merge >= 0 && a[merge] == UInt64(depth) {
                used += 1
                merge -= 1
            }
            perLength[min(depth, 63)] += available - used
            available = 2 * used
            depth += 1
        }
    }

    /// Brings every length within ``limit``, keeping the code complete (Kraft's sum 1).
    private func limitDepths(_ perLength: UnsafeMutablePointer<Int>) {
        var deeper = 0
        for length in (limit + 1)..<64 {
            deeper += perLength[length]
            perLength[length] = 0
        }
        guard deeper > 0 else { return }
        perLength[limit] += deeper
        // Kraft's sum in units of 2^−limit: complete is 2^limit.
        var total = 0
        for length in 1...limit { total += perLength[length] << (limit - length) }
        while total > 1 << limit {
            perLength[limit] -= 1
            for length in stride(from: limit - 1, through: 1, by: -1) where perLength[length] > 0 {
                perLength[length] -= 1
                perLength[length + 1] += 2
                break
            }
            total -= 1
        }
    }

    /// Canonical codes for ``lengths``: per length, codes in increasing symbol order, each
    /// length's first code following the last length's.
    func assignCodes() {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { perLength in
            perLength.initialize(repeating: 0)
            for symbol in 0..<symbols { perLength[Int(lengths[symbol])] &+= 1 }
            assignCodes(perLength.baseAddress!)
        }
    }

    /// ``assignCodes()`` given how many symbols have each length (1…15; the count of 0 is not
    /// read), which ``build(counts:)`` knows: one pass over the symbols, not two.
    private func assignCodes(_ perLength: UnsafePointer<Int>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { next in
            var code: UInt32 = 0
            var previousCount: UInt32 = 0
            next[0] = 0
            for length in 1..<16 {
                code = (code &+ previousCount) << 1
                previousCount = UInt32(truncatingIfNeeded: perLength[length])
                next[length] = code
            }
            for symbol in 0..<symbols {
                let length = Int(lengths[symbol])
                // A symbol that does not occur has no code (and the absent ones come in runs).
                guard length != 0 else {
                    codes[symbol] = 0
                    continue
                }
                let code = next[length]
                next[length] = code &+ 1
                // The code's bits reversed, a byte at a time.
                let reversed =
                    UInt32(reversedBytes[Int(code & 0xFF)]) << 8 | UInt32(reversedBytes[Int(code >> 8 & 0xFF)])
                codes[symbol] = (reversed >> UInt32(16 - length)) << 4 | UInt32(length)
            }
        }
    }
}
