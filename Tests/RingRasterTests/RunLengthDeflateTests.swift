import CZlib
import RingCore
import Testing

@testable import RingRaster

/// Our deflate, judged by zlib's inflate: every input comes back, and the streams are no larger
/// than zlib's own `Z_RLE` ones.
@Suite struct RunLengthDeflateTests {
    private func compressed(_ input: [UInt8]) -> [UInt8] {
        let encoder = RunLengthDeflate()
        var output: [UInt8] = []
        let count = input.withUnsafeBytes { encoder.compress($0, into: &output) }
        return Array(output[0..<count])
    }

    /// zlib's inflate of `stream`, which must be a complete zlib stream of `expected` bytes.
    private func inflated(_ stream: [UInt8], expected: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expected + 1)
        var size = uLong(output.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
        }
        try #require(status == Z_OK, "inflate: \(status)")
        return Array(output[0..<Int(size)])
    }

    private func zlibRLE(_ input: [UInt8]) -> Int {
        PNGEncoder.deflate(input, PNGEncoder.Compression(level: 1, strategy: Z_RLE)).count
    }

    /// A repeatable stream of bytes (xorshift).
    private func noise(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
    }

    @Test func emptyAndTinyInputsComeBack() throws {
        for input in [[], [0], [7], [1, 1], [1, 1, 1], [1, 1, 1, 1], [0, 255, 0, 255]] as [[UInt8]] {
            #expect(try inflated(compressed(input), expected: input.count) == input, "\(input)")
        }
    }

    @Test func runsOfEveryLengthComeBack() throws {
        // Each length 1…600 once, so every length symbol, its extra bits, and runs cut at
        // 258 with short remainders are used.
        var input: [UInt8] = []
        for length in 1...600 { input += [UInt8](repeating: UInt8(length % 251), count: length) }
        let stream = compressed(input)
        #expect(try inflated(stream, expected: input.count) == input)
        #expect(stream.count < input.count / 20)
    }

    @Test func noiseIsStoredAndComesBack() throws {
        for count in [100, 65_535, 65_536, 200_000] {
            let input = noise(count)
            let stream = compressed(input)
            #expect(try inflated(stream, expected: count) == input, "\(count) bytes")
            // Stored: 5 bytes a block of 16 383 symbols (here bytes), and the 6 of zlib's
            // header and checksum; as zlib does.
            #expect(stream.count <= count + 5 * (count / 16_383 + 1) + 6, "\(count) bytes: \(stream.count)")
            #expect(stream.count <= zlibRLE(input), "\(count) bytes")
        }
    }

    @Test func manyBlocksComeBack() throws {
        // Literals and short runs mixed, far more than one block's 16 383 symbols.
        let bits = noise(150_000, seed: 42)
        var input: [UInt8] = []
        for (index, value) in bits.enumerated() {
            input.append(value & 7)
            if index % 5 == 0 { input += [UInt8](repeating: value & 7, count: Int(value >> 5)) }
        }
        let stream = compressed(input)
        #expect(try inflated(stream, expected: input.count) == input)
        #expect(stream.count <= zlibRLE(input))
    }

    @Test func skewedCountsAreLimitedTo15BitsAndStayComplete() throws {
        // Fibonacci counts make a Huffman tree as deep as it can be: 25 symbols, depth 24.
        var frequencies = [UInt32](repeating: 0, count: 286)
        var (a, b): (UInt32, UInt32) = (1, 1)
        for symbol in 0..<25 {
            frequencies[symbol] = a
            (a, b) = (b, a + b)
        }
        let code = PrefixCode(symbols: 286, limit: 15)
        frequencies.withUnsafeBufferPointer { code.build(counts: $0.baseAddress!) }
        let used = (0..<286).map { code.lengths[$0] }.filter { $0 != 0 }
        #expect(used.count == 25)
        #expect(used.max() == 15)
        // Kraft's sum is exactly 1: complete, as a decoder wants.
        #expect(used.reduce(0) { $0 + (1 << (15 - Int($1))) } == 1 << 15)
        // And a stream whose literals have those counts decodes.
        var input: [UInt8] = []
        for symbol in 0..<25 {
            for index in 0..<Int(frequencies[symbol]) where input.count < 400_000 {
                input.append(UInt8(symbol * 10))
                if index % 2 == 1 { input.append(UInt8(symbol * 10 + 1)) }  // no runs
            }
        }
        #expect(try inflated(compressed(input), expected: input.count) == input)
    }

    @Test func bytesMappedOnTheWayComeBackMapped() throws {
        // A renumbering of the bytes, as a canvas's indices into its palette's: the stream is
        // the one of the renumbered bytes, without a pass that renumbers them first.
        var input: [UInt8] = []
        for (index, value) in noise(20_000, seed: 7).enumerated() {
            input += [UInt8](repeating: value & 15, count: index % 7 == 0 ? Int(value >> 4) : 1)
        }
        let map = (0..<256).map { UInt8(truncatingIfNeeded: 255 - $0 * 3) }  // one-to-one
        let mapped = input.map { map[Int($0)] }
        let encoder = RunLengthDeflate()
        var output: [UInt8] = []
        let count = input.withUnsafeBytes { bytes in
            map.withUnsafeBufferPointer { encoder.compress(bytes, through: $0.baseAddress!, into: &output) }
        }
        #expect(Array(output[0..<count]) == compressed(mapped))
        #expect(try inflated(Array(output[0..<count]), expected: mapped.count) == mapped)
        // A map that merges bytes still gives an exact stream of the merged bytes.
        let merging = (0..<256).map { UInt8($0 / 4) }
        let merged = input.map { merging[Int($0)] }
        let mergedCount = input.withUnsafeBytes { bytes in
            merging.withUnsafeBufferPointer { encoder.compress(bytes, through: $0.baseAddress!, into: &output) }
        }
        #expect(try inflated(Array(output[0..<mergedCount]), expected: merged.count) == merged)
    }

    /// Bytes too varied to code are stored, and stored through the map too: the stream's
    /// bytes are the mapped ones (before the fuzzer found it, the input's own were stored).
    @Test func storedBlocksAreWrittenThroughTheMap() throws {
        let input = noise(5_000, seed: 11)
        let map = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }  // one-to-one
        let mapped = input.map { map[Int($0)] }
        let encoder = RunLengthDeflate()
        var output: [UInt8] = []
        let count = input.withUnsafeBytes { bytes in
            map.withUnsafeBufferPointer { encoder.compress(bytes, through: $0.baseAddress!, into: &output) }
        }
        // Stored: the mapped bytes, one block of 5 000, within zlib's 6 bytes and the block's 5.
        #expect(count == 6 + 5 + 5_000)
        #expect(try inflated(Array(output[0..<count]), expected: mapped.count) == mapped)
    }

    /// Palette rows numbered from the tokens: the order of first appearance is the pixels'
    /// (filter bytes not counted, even where a run of 0 starts on one), and the stream is the
    /// one of the numbered rows, byte for byte. Declined, or past one block, nothing is
    /// written and the encoder is ready for the next stream.
    @Test func rowsNumberedFromTheirTokens() throws {
        let rowBytes = 41
        var rows: [UInt8] = []
        for (index, value) in noise(120 * rowBytes, seed: 5).enumerated() {
            // Runs of 0 across rows (a ring's corners), of 9, and single values.
            rows.append(index % rowBytes == 0 ? 0 : index % 97 < 40 ? 0 : value % 5 == 0 ? value : 9)
        }
        var pixelsFirst: [UInt8] = []
        for (index, value) in rows.enumerated() where index % rowBytes != 0 && !pixelsFirst.contains(value) {
            pixelsFirst.append(value)
        }
        var map = [UInt8](repeating: 0, count: 256)
        for (position, value) in pixelsFirst.enumerated() { map[Int(value)] = UInt8(position) }
        #expect(map[0] == 0)  // 0 appears first: the filter bytes keep their value
        let encoder = RunLengthDeflate()
        var output: [UInt8] = []
        var reported: [UInt8] = []
        let count = rows.withUnsafeBytes { bytes in
            encoder.compress(rows: bytes, rowBytes: rowBytes, into: &output) { appearing in
                reported = appearing
                return map
            }
        }
        #expect(reported == pixelsFirst)
        let numbered = rows.map { map[Int($0)] }
        #expect(Array(output[0..<(count ?? 0)]) == compressed(numbered))
        #expect(try inflated(Array(output[0..<(count ?? 0)]), expected: numbered.count) == numbered)

        let declined = rows.withUnsafeBytes {
            encoder.compress(rows: $0, rowBytes: rowBytes, into: &output) { _ in nil }
        }
        #expect(declined == nil)
        // Noise is a token a byte: past one block, numbering is not asked for.
        let large = noise(RunLengthDeflate.blockSymbols + 10, seed: 3)
        var asked = false
        let past = large.withUnsafeBytes {
            encoder.compress(rows: $0, rowBytes: 100, into: &output) { _ in
                asked = true
                return map
            }
        }
        #expect(past == nil && !asked)
        let again = rows.withUnsafeBytes { encoder.compress(rows: $0, rowBytes: rowBytes, into: &output) { _ in map } }
        #expect(Array(output[0..<(again ?? 0)]) == compressed(numbered))
    }

    @Test func everyCatalogueRingIsNoLargerThanZlibsRLE() throws {
        var ours = 0
        var zlib = 0
        for example in RingExamples.all {
            let spec = try RingSpec(query: example.query)
            let canvas = RingRasterizer.draw(RingScene(spec: spec), scale: spec.scale)
            let lines = canvas.scanlines()
            let mine = PNGEncoder.encode(
                scanlines: lines, width: canvas.width, height: canvas.height, compression: .runs())
            let theirs = PNGEncoder.encode(
                scanlines: lines, width: canvas.width, height: canvas.height,
                compression: PNGEncoder.Compression(level: 1, strategy: Z_RLE))
            #expect(try PNGDecoder(mine).pixels == PNGDecoder(theirs).pixels, "\(example.name)")
            #expect(mine.count <= theirs.count, "\(example.name): \(mine.count) against zlib's \(theirs.count)")
            ours += mine.count
            zlib += theirs.count
        }
        #expect(ours <= zlib)
    }
}
