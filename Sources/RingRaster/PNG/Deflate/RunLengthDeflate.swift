/// A zlib stream (RFC 1950) of deflate blocks (RFC 1951) whose only matches are runs: each
/// byte is either a literal or part of a copy of the byte before it (distance 1), chosen
/// greedily — the same choices as zlib's `Z_RLE` strategy, which is what a palette ring's
/// indices compress best with.
///
/// It compresses every palette PNG (``PNGEncoder/paletteCompression``). The issue that let it
/// replace zlib asked for 3 times zlib's speed at zlib's best setting on our images, with no
/// more bytes: over the catalogue's palette images it is 3.0 to 3.1 times as fast (2.9 on the
/// default ring alone) and 39 bytes smaller, and inside a render, where zlib's state is cold
/// after the drawing, 3.0 times; with the renumbering pass it saves, 3.5. `ring-bench
/// --deflate` measures it against zlib every run; docs/performance.md ("PNG") has the
/// figures. `scripts/checks/fuzz.sh deflate` fuzzes it against zlib's inflate.
///
/// Where the time goes, and why it is less than zlib's: zlib walks its window a byte at a
/// time, keeps a hash it never reads in this mode, and sums Adler-32 over every byte again.
/// Here a run is found eight bytes at a time and its share of Adler-32 is one formula, so a
/// default ring's 14 520 bytes are 2 223 tokens. Each block is then coded with whichever of
/// dynamic Huffman codes, the fixed codes or stored bytes is shortest, as zlib chooses, the
/// dynamic codes optimal Huffman codes limited to deflate's 15 bits (7 for the code-length
/// code). The tests check every stream with zlib's inflate.
///
/// One a render thread (``RenderScratch``): it owns its token and code tables.
package final class RunLengthDeflate {
    /// Most symbols one block holds before its codes are written and a new block begins, as at
    /// zlib's default memory level: blocks adapt their codes to the parts of a large image, and
    /// the token buffer stays at 32 KB whatever the input.
    static let blockSymbols = 16_383

    /// Tokens of the current block: a literal byte (0…255), or 256 + a run's length (3…258).
    private let tokens = UnsafeMutablePointer<UInt16>.allocate(capacity: blockSymbols)
    private var tokenCount = 0
    /// Symbol counts of the current block: literal/length symbols 0…285, then three more
    /// tables of them. Token i is counted in table i mod 4, so that back-to-back counts of
    /// one symbol do not wait for each other; the tables are summed into the first.
    private let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 286)
    /// Per run length 0…258: its length symbol, extra bits' count << 9 and value << 12.
    private let runSymbols = UnsafeMutablePointer<UInt32>.allocate(capacity: 259)
    /// Per token (a literal, or 256 + a run's length): its bits as written, << 5 | their count
    /// — a run's length code, extra bits and distance code together.
    private let tokenBits = UnsafeMutablePointer<UInt64>.allocate(capacity: 256 + 259)
    private let literalCode = PrefixCode(symbols: 286, limit: 15)
    private let fixedCode = PrefixCode(symbols: 288, limit: 15)
    private let header = DynamicHeader()
    /// Each byte to itself, for input compressed as it is.
    private let identity = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private var writer = BitWriter()

    package init() {
        counts.initialize(repeating: 0, count: 4 * 286)
        for byte in 0..<256 { identity[byte] = UInt8(byte) }
        runSymbols.initialize(repeating: 0, count: 259)
        for symbol in 257..<286 {
            let lengths = Self.lengths(of: symbol)
            let extra = UInt32(Self.lengthExtraBits[symbol - 257])
            for length in lengths {
                runSymbols[length] = UInt32(symbol) | extra << 9 | UInt32(length - lengths.lowerBound) << 12
            }
        }
        // The fixed code (RFC 1951 §3.2.6): 8, 9, 7 and 8 bits.
        for symbol in 0..<288 {
            fixedCode.lengths[symbol] =
                switch symbol {
                case 0..<144: 8
                case 144..<256: 9
                case 256..<280: 7
                default: 8
                }
        }
        fixedCode.assignCodes()
    }

    deinit {
        tokens.deallocate()
        counts.deallocate()
        runSymbols.deallocate()
        tokenBits.deallocate()
        identity.deallocate()
    }

    /// The most bytes ``compress(_:into:)`` writes for `count` input bytes: stored blocks are
    /// the worst case, 5 bytes per 65 535 and per block, plus zlib's header and checksum and
    /// the bit buffer's last word.
    static func bound(_ count: Int) -> Int { count + 5 * (count / 65_535 + count / blockSymbols + 2) + 16 }

    /// Writes the zlib stream of `input` to the start of `output` (grown when shorter than
    /// ``bound(_:)``, never shrunk); returns its length.
    package func compress(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Int {
        compress(input, through: identity, into: &output)
    }

    /// Writes the zlib stream of `input`'s bytes each replaced by its entry in `map` (256
    /// entries): a canvas's rows compressed as their palette indices without a pass that
    /// renumbers them first. Runs are found in `input` as it is, so `map` must give equal bytes
    /// for equal ones, which any table does; where it gives equal bytes for different ones the
    /// stream is still exact, only one run may come out as two.
    package func compress(
        _ input: UnsafeRawBufferPointer, through map: UnsafePointer<UInt8>, into output: inout [UInt8]
    ) -> Int {
        let count = input.count
        let bound = Self.bound(count)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        return output.withUnsafeMutableBytes { output in
            writer = BitWriter(output.baseAddress!)
            // CMF 0x78: deflate with a 32 KB window; FLG 0x01: fastest, and the check bits.
            writer.byte(0x78)
            writer.byte(0x01)
            tokenCount = 0
            // `counts` is all zeros here: so made, and so left by every block.
            // Adler-32's two sums, reduced once a block: a token adds at most 258 × 255 to A,
            // so after a block's 16 383 A stays below 2^31 and B, which gathers A up to 258
            // times a token, below 2^53.
            var adlerA: UInt64 = 1
            var adlerB: UInt64 = 0
            var blockStart = 0
            var position = 0
            if count > 0, let bytes = input.baseAddress {
                let data = bytes.assumingMemoryBound(to: UInt8.self)
                // Locals, which stores through the pointers cannot be taken to change.
                var tokenCount = 1
                let (tokens, counts, runSymbols) = (self.tokens, self.counts, self.runSymbols)
                // The first byte has nothing before it to repeat.
                var previous = data[0]
                let first = map[Int(previous)]
                tokens[0] = UInt16(first)
                counts[Int(first)] = 1
                adlerA += UInt64(first)
                adlerB += adlerA
                position = 1
                while position < count {
                    let value = data[position]
                    let run =
                        value == previous
                        ? Self.runLength(of: value, in: bytes, from: position, limit: min(258, count - position)) : 0
                    let mapped = map[Int(value)]
                    if run >= 3 {
                        tokens[tokenCount] = UInt16(truncatingIfNeeded: 256 + run)
                        counts[(tokenCount & 3) &* 286 &+ Int(runSymbols[run] & 0x1FF)] &+= 1
                        // `run` bytes of `value`: each adds `value` to A, and B gathers A
                        // after every one of them.
                        let n = UInt64(truncatingIfNeeded: run)
                        adlerB &+= n &* adlerA &+ UInt64(mapped) &* ((n &* (n &+ 1)) &>> 1)
                        adlerA &+= n &* UInt64(mapped)
                        position &+= run
                    } else {
                        tokens[tokenCount] = UInt16(mapped)
                        counts[(tokenCount & 3) &* 286 &+ Int(mapped)] &+= 1
                        adlerA &+= UInt64(mapped)
                        adlerB &+= adlerA
                        position &+= 1
                    }
                    previous = value
                    tokenCount &+= 1
                    if tokenCount == Self.blockSymbols {
                        adlerA %= 65_521
                        adlerB %= 65_521
                        self.tokenCount = tokenCount
                        writeBlock(input, map, from: blockStart, to: position, final: position == count)
                        tokenCount = 0
                        blockStart = position
                    }
                }
                self.tokenCount = tokenCount
            }
            if tokenCount > 0 || count == 0 { writeBlock(input, map, from: blockStart, to: count, final: true) }
            return finishStream(adlerA: adlerA % 65_521, adlerB: adlerB % 65_521, bound: bound)
        }
    }

    /// Ends the zlib stream after its last block: pads to a byte and writes Adler-32 (its two
    /// sums, reduced) most significant byte first. Returns the stream's length.
    private func finishStream(adlerA: UInt64, adlerB: UInt64, bound: Int) -> Int {
        writer.alignToByte()
        let adler = UInt32(truncatingIfNeeded: adlerB) << 16 | UInt32(truncatingIfNeeded: adlerA)
        for shift in [24, 16, 8, 0] as [UInt32] { writer.byte(UInt8(truncatingIfNeeded: adler >> shift)) }
        let written = writer.written
        precondition(written <= bound, "deflate wrote past its bound")
        return written
    }

    /// Writes the zlib stream of a palette image's rows, each a filter byte and then an index
    /// a pixel, given as they are numbered while drawn (a canvas's) and numbered for the file
    /// by `numbering`: it gets the indices in the order they first appear among the pixels,
    /// filter bytes not counted, and gives each index's entry (256 of them), or nil to
    /// decline. Nil also when the rows are more tokens than one block holds (images past about
    /// 300 px a side): the caller then numbers them itself (``PNGEncoder``'s pixel pass), and
    /// compresses the numbered rows.
    ///
    /// The order of first appearance comes from the block's tokens, a few thousand, not from
    /// the pixels, 14 520 in a default ring: the first time a value appears it is a literal
    /// (a run repeats the byte before it), or a run after a filter byte of the same value.
    /// The tokens are then written through the map, and the checksum of the mapped bytes is
    /// made from sums kept by value while tokenizing, so the map must give different bytes for
    /// the different values of the rows (the filter bytes' 0 included), as a palette's
    /// renumbering does when 0 is entry 0.
    package func compress(
        rows input: UnsafeRawBufferPointer, rowBytes: Int, into output: inout [UInt8],
        numbering: ([UInt8]) -> [UInt8]?
    ) -> Int? {
        let count = input.count
        guard count > 0, rowBytes > 1, let bytes = input.baseAddress else { return nil }
        // Adler-32 of the numbered bytes, gathered by value as the tokens are found: each
        // value's bytes in runs (`tallies`; its literals are in the symbol counts) and, for B,
        // the distances of all its bytes from the end (`weights`), so the checksum is 256 sums
        // once the numbering is known instead of a pass over the tokens.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 512) { sums in
            sums.initialize(repeating: 0)
            let tallies = sums.baseAddress!
            let weights = tallies + 256
            return compress(
                rows: bytes, count: count, rowBytes: rowBytes, into: &output, numbering: numbering,
                tallies: tallies, weights: weights)
        }
    }

    /// ``compress(rows:rowBytes:into:numbering:)`` with its sums' storage, all zeros.
    private func compress(
        rows bytes: UnsafeRawPointer, count: Int, rowBytes: Int, into output: inout [UInt8],
        numbering: ([UInt8]) -> [UInt8]?, tallies: UnsafeMutablePointer<UInt64>, weights: UnsafeMutablePointer<UInt64>
    ) -> Int? {
        let data = bytes.assumingMemoryBound(to: UInt8.self)
        let (tokens, counts, runSymbols) = (self.tokens, self.counts, self.runSymbols)
        // The tokens, as ``compress(_:through:into:)`` finds them, of the values as they are;
        // and as they are found, the values in order of first appearance among the pixels. A
        // run of 3 or more always covers a pixel (filter bytes are `rowBytes` ≥ 2 apart).
        var appearing = [UInt8](repeating: 0, count: 256)
        var appeared = 0
        let total = UInt64(count)
        let found = appearing.withUnsafeMutableBufferPointer { appearing in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: 256) { seen -> Int? in
                seen.initialize(repeating: false)
                var tokenCount = 1
                var previous = data[0]  // a filter byte
                tokens[0] = UInt16(previous)
                counts[Int(previous)] = 1
                weights[Int(previous)] = total
                var position = 1
                var nextFilter = rowBytes  // the first filter byte at or after `position`
                while position < count {
                    let value = data[position]
                    let run =
                        value == previous
                        ? Self.runLength(of: value, in: bytes, from: position, limit: min(258, count - position)) : 0
                    // Byte i (from 0) is counted in B once for each byte from it to the end.
                    let remaining = total &- UInt64(truncatingIfNeeded: position)
                    var pixel = true
                    if run >= 3 {
                        tokens[tokenCount] = UInt16(truncatingIfNeeded: 256 + run)
                        counts[(tokenCount & 3) &* 286 &+ Int(runSymbols[run] & 0x1FF)] &+= 1
                        let n = UInt64(truncatingIfNeeded: run)
                        tallies[Int(value)] &+= n
                        weights[Int(value)] &+= n &* remaining &- ((n &* (n &- 1)) &>> 1)
                        position &+= run
                        while nextFilter < position { nextFilter &+= rowBytes }
                    } else {
                        tokens[tokenCount] = UInt16(value)
                        counts[(tokenCount & 3) &* 286 &+ Int(value)] &+= 1
                        weights[Int(value)] &+= remaining
                        if position == nextFilter {
                            pixel = false
                            nextFilter &+= rowBytes
                        }
                        position &+= 1
                    }
                    if pixel, !seen[Int(value)] {
                        seen[Int(value)] = true
                        appearing[appeared] = value
                        appeared &+= 1
                    }
                    previous = value
                    tokenCount &+= 1
                    // More than a block: left to the caller (its rows would be several blocks).
                    if tokenCount == Self.blockSymbols, position < count { return nil }
                }
                return tokenCount
            }
        }
        guard let tokenCount = found else {
            counts.update(repeating: 0, count: 4 * 286)
            return nil
        }
        self.tokenCount = tokenCount
        appearing.removeLast(256 - appeared)
        guard let map = numbering(appearing), map.count == 256 else {
            counts.update(repeating: 0, count: 4 * 286)
            self.tokenCount = 0
            return nil
        }
        let bound = Self.bound(count)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        return map.withUnsafeBufferPointer { map in
            let map = map.baseAddress!
            // A = 1 + every byte; B = one 1 a byte + each byte times the bytes from it to the end.
            // A weight is below 2^44 (a block is at most 16 383 × 258 bytes), so each term is
            // reduced before it is multiplied.
            var adlerA: UInt64 = 1
            var adlerB = total % 65_521
            for value in 0..<256 where weights[value] != 0 {
                let byte = UInt64(map[value])
                let literals = (0..<4).reduce(UInt64(0)) { $0 &+ UInt64(counts[$1 &* 286 &+ value]) }
                adlerA = (adlerA &+ byte &* ((tallies[value] &+ literals) % 65_521)) % 65_521
                adlerB = (adlerB &+ byte &* (weights[value] % 65_521)) % 65_521
            }
            return output.withUnsafeMutableBytes { output in
                writer = BitWriter(output.baseAddress!)
                writer.byte(0x78)
                writer.byte(0x01)
                writeBlock(
                    UnsafeRawBufferPointer(start: bytes, count: count), map, from: 0, to: count, final: true,
                    literals: map)
                return finishStream(adlerA: adlerA, adlerB: adlerB, bound: bound)
            }
        }
    }

    /// How many bytes from `start` on equal `value`, at most `limit`: eight at a time.
    @inline(__always)
    private static func runLength(of value: UInt8, in bytes: UnsafeRawPointer, from start: Int, limit: Int) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        var run = 0
        while run + 8 <= limit {
            let difference =
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + run, as: UInt64.self)) ^ pattern
            if difference != 0 { return run + difference.trailingZeroBitCount / 8 }
            run += 8
        }
        while run < limit, bytes.load(fromByteOffset: start + run, as: UInt8.self) == value { run += 1 }
        return run
    }

    // MARK: Blocks

    /// Writes the block of the tokens gathered, for `input[start..<end]` through `map`, in
    /// whichever of the three forms is shortest, and starts the next block afresh. With
    /// `literals`, the tokens' literals are values of the input as it is, and each stands for
    /// its entry there (the counts are moved to those entries first).
    private func writeBlock(
        _ input: UnsafeRawBufferPointer, _ map: UnsafePointer<UInt8>, from start: Int, to end: Int, final: Bool,
        literals: UnsafePointer<UInt8>? = nil
    ) {
        for symbol in 0..<286 {
            counts[symbol] &+= counts[286 + symbol] &+ counts[2 * 286 + symbol] &+ counts[3 * 286 + symbol]
        }
        if let literals {
            // Into the second table, summed already (the block's end clears it), and back.
            let moved = counts + 286
            moved.update(repeating: 0, count: 256)
            for value in 0..<256 where counts[value] != 0 { moved[Int(literals[value])] &+= counts[value] }
            counts.update(from: moved, count: 256)
        }
        counts[256] = 1  // the end of the block
        literalCode.build(counts: counts)
        var runs = 0
        var extraBits = 0
        for symbol in 257..<286 {
            let n = Int(counts[symbol])
            runs += n
            extraBits += n * Int(Self.lengthExtraBits[symbol - 257])
        }
        // One distance, 1: its code is one bit long (RFC 1951 §3.2.7), or none when unused.
        let distanceLength = runs > 0 ? 1 : 0
        header.describe(literalLengths: literalCode.lengths, distanceLength: UInt8(distanceLength))

        var dynamicBits = 3 + header.bits + extraBits + runs * distanceLength
        var fixedBits = 3 + extraBits + runs * 5
        for symbol in 0..<286 {
            let n = Int(counts[symbol])
            dynamicBits += n * Int(literalCode.lengths[symbol])
            fixedBits += n * Int(fixedCode.lengths[symbol])
        }
        let length = end - start
        // Stored: 3 bits and the rest of the byte, then LEN, NLEN and up to 65 535 bytes; each
        // further piece starts on a byte, so its 3 bits take one.
        let pieces = max((length + 65_534) / 65_535, 1)
        let storedBits = 3 + writer.bitsToByte(after: 3) + 8 * length + 32 * pieces + 8 * (pieces - 1)

        if storedBits <= dynamicBits && storedBits <= fixedBits {
            writeStored(input, map, from: start, to: end, final: final)
        } else if fixedBits <= dynamicBits {
            writer.bits(final ? 0b011 : 0b010, 3)
            writeTokens(fixedCode, distanceLength: 5, literals: literals ?? UnsafePointer(identity))
        } else {
            writer.bits(final ? 0b101 : 0b100, 3)
            header.write(to: &writer)
            writeTokens(literalCode, distanceLength: 1, literals: literals ?? UnsafePointer(identity))
        }
        tokenCount = 0
        counts.update(repeating: 0, count: 4 * 286)
    }

    /// The block's tokens and its end in `code`; every run's distance is code 0, all zeros.
    /// A literal token `v` is written as the symbol `literals[v]`.
    private func writeTokens(_ code: PrefixCode, distanceLength: Int, literals: UnsafePointer<UInt8>) {
        let codes = code.codes
        // Each token's bits looked up, not worked out: a run's length code, extra bits and
        // distance are one write of at most 15 + 5 + 5 bits.
        for literal in 0..<256 {
            let entry = codes[Int(literals[literal])]
            tokenBits[literal] = UInt64(entry >> 4) << 5 | UInt64(entry & 15)
        }
        // Runs: only the lengths of the symbols the block has (the others are never looked up).
        for symbol in 257..<286 where counts[symbol] != 0 {
            for run in Self.lengths(of: symbol) {
                let entry = codes[symbol]
                let codeLength = UInt64(entry & 15)
                let extra = runSymbols[run]
                let bits = UInt64(entry >> 4) | UInt64(extra >> 12) << codeLength
                tokenBits[256 + run] = bits << 5 | (codeLength + UInt64(extra >> 9 & 7) + UInt64(distanceLength))
            }
        }
        // A local writer, tokens and count: the class's own would be reloaded after every
        // store to the output.
        var local = writer
        let (tokens, tokenCount, tokenBits) = (self.tokens, self.tokenCount, self.tokenBits)
        local.alignToWord()
        // Two tokens a store: with fewer than 8 bits pending, two of at most 25 bits each fit.
        var index = 0
        while index + 1 < tokenCount {
            let first = tokenBits[Int(tokens[index])]
            let second = tokenBits[Int(tokens[index + 1])]
            let firstLength = first & 31
            local.word((first >> 5) | (second >> 5) &<< firstLength, Int(firstLength + (second & 31)))
            index += 2
        }
        if index < tokenCount {
            let entry = tokenBits[Int(tokens[index])]
            local.word(entry >> 5, Int(entry & 31))
        }
        let end = codes[256]
        local.bits(end >> 4, Int(end & 15))
        writer = local
    }

    /// `input[start..<end]` through `map` as stored blocks of at most 65 535 bytes: the bytes
    /// the tokens stand for, not the input's own (a fuzzed map found that).
    private func writeStored(
        _ input: UnsafeRawBufferPointer, _ map: UnsafePointer<UInt8>, from start: Int, to end: Int, final: Bool
    ) {
        var offset = start
        repeat {
            let length = min(end - offset, 65_535)
            let last = offset + length == end
            writer.bits(final && last ? 1 : 0, 3)
            writer.alignToByte()
            writer.bits(UInt32(length) | UInt32(~length & 0xFFFF) << 16, 32)
            writer.bytes(UnsafeRawBufferPointer(rebasing: input[offset..<offset + length]), through: map)
            offset += length
        } while offset < end
    }

    // MARK: Tables (RFC 1951 §3.2.5)

    /// The run lengths length symbol `symbol` (257…285) stands for: 285 is 258 alone, which
    /// 284's extra bits could also reach.
    static func lengths(of symbol: Int) -> ClosedRange<Int> {
        let base = Int(lengthBase[symbol - 257])
        return base...(symbol == 285 ? 258 : min(base + (1 << Int(lengthExtraBits[symbol - 257])) - 1, 257))
    }

    /// The first length of each length symbol 257…285, and its number of extra bits.
    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtraBits: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
}
