/// A dynamic block's header (RFC 1951 §3.2.7): the literal/length and distance code lengths,
/// run-length coded, in a code of their own.
final class DynamicHeader {
    /// The order the code-length code's lengths are written in.
    static let order: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private var literalCount = 257
    /// The code-length symbols (0…18), each with its extra bits' value << 8.
    private let entries = UnsafeMutablePointer<UInt16>.allocate(capacity: 288)
    private var entryCount = 0
    private let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: 19)
    private let lengthCode = PrefixCode(symbols: 19, limit: 7)
    private var lengthCodeCount = 19
    /// The header's size in bits.
    private(set) var bits = 0

    deinit {
        entries.deallocate()
        counts.deallocate()
    }

    /// Describes the header of `literalLengths` (286) and one distance code of
    /// `distanceLength`.
    func describe(literalLengths: UnsafePointer<UInt8>, distanceLength: UInt8) {
        literalCount = 286
        while literalCount > 257 && literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
        counts.update(repeating: 0, count: 19)
        var entryCount = 0
        var extraBits = 0
        let (entries, counts) = (self.entries, self.counts)
        func add(_ symbol: Int, extra: Int = 0) {
            entries[entryCount] = UInt16(truncatingIfNeeded: symbol | extra << 8)
            entryCount &+= 1
            counts[symbol] &+= 1
        }
        // Both lists as one, then runs of one length: zeros by 17 and 18, others by one
        // length and 16s.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 287) { all in
            let all = all.baseAddress!
            all.update(from: literalLengths, count: literalCount)
            all[literalCount] = distanceLength
            let total = literalCount + 1
            var index = 0
            while index < total {
                let value = all[index]
                var end = index + 1
                while end < total && all[end] == value { end += 1 }
                var run = end - index
                index = end
                if value == 0 {
                    while run >= 11 {
                        let n = min(run, 138)
                        add(18, extra: n - 11)
                        extraBits += 7
                        run -= n
                    }
                    if run >= 3 {
                        add(17, extra: run - 3)
                        extraBits += 3
                        run = 0
                    }
                } else {
                    add(Int(value))
                    run -= 1
                    while run >= 3 {
                        let n = min(run, 6)
                        add(16, extra: n - 3)
                        extraBits += 2
                        run -= n
                    }
                }
                for _ in 0..<run { add(Int(value)) }
            }
        }
        self.entryCount = entryCount
        // A decoder refuses an incomplete code-length code: a lone symbol gets a partner.
        var used = 0
        var lone = 0
        for symbol in 0..<19 where counts[symbol] != 0 {
            used += 1
            lone = symbol
        }
        let partner = lone == 0 ? 1 : 0
        if used == 1 { counts[partner] = 1 }
        lengthCode.build(counts: counts)
        if used == 1 { counts[partner] = 0 }
        lengthCodeCount = 19
        while lengthCodeCount > 4 && lengthCode.lengths[Self.order[lengthCodeCount - 1]] == 0 { lengthCodeCount -= 1 }
        bits = 5 + 5 + 4 + 3 * lengthCodeCount + extraBits
        for symbol in 0..<19 { bits += Int(counts[symbol]) * Int(lengthCode.lengths[symbol]) }
    }

    func write(to writer: inout BitWriter) {
        writer.bits(UInt32(literalCount - 257), 5)
        writer.bits(0, 5)  // one distance code
        writer.bits(UInt32(lengthCodeCount - 4), 4)
        for position in 0..<lengthCodeCount { writer.bits(UInt32(lengthCode.lengths[Self.order[position]]), 3) }
        for index in 0..<entryCount {
            let entry = entries[index]
            let symbol = Int(entry & 0xFF)
            let code = lengthCode.codes[symbol]
            writer.bits(code >> 4, Int(code & 15))
            switch symbol {
            case 16: writer.bits(UInt32(entry >> 8), 2)
            case 17: writer.bits(UInt32(entry >> 8), 3)
            case 18: writer.bits(UInt32(entry >> 8), 7)
            default: break
            }
        }
    }
}
