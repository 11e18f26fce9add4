import CZlib

/// Writes 8-bit images as PNG (ISO/IEC 15948): the signature, `IHDR`, `sRGB`, for a palette
/// image `PLTE` and `tRNS`, one `IDAT` and `IEND`, each chunk with its CRC-32. Deflate and
/// CRC-32 come from the system zlib.
///
/// An image of at most 256 distinct RGBA colours is written with a palette (colour type 3):
/// the same pixels, exactly, in a quarter of the bytes to compress, so deflate takes a quarter
/// of the time and the file is smaller. Any other image is written as RGBA (colour type 6).
/// Most rings qualify, because the rasteriser keeps 32 levels of edge coverage
/// (``Canvas/coverageLevels``).
///
/// Every row is written with filter type None. The usual per-row heuristic (the filter whose
/// output has the smallest sum of magnitudes) was measured and loses on every ring at every
/// level: rings are flat colour and transparency with anti-aliased edges, deflate already finds
/// the repeats 4 bytes and one row back, and the filters turn the edges into noise (the
/// catalogue: 305 798 bytes with the heuristic at level 6, 231 244 with None;
/// docs/performance.md has the table).
package enum PNGEncoder {
    /// zlib's level 3: level 1's speed (deflate is most of a PNG's cost) and 4 % smaller; each
    /// level above costs more time than its bytes are worth to a cached image
    /// (docs/performance.md).
    package static let compressionLevel: Int32 = 3

    /// PNG bytes for a `width` × `height` image, given its rows as PNG scanlines: each a filter
    /// byte (0) and `width` straight (not premultiplied) RGBA pixels. Compresses with the
    /// thread's ``RenderScratch`` stream, into its output buffer.
    package static func encode(
        scanlines: [UInt8], width: Int, height: Int, level: Int32 = compressionLevel,
        scratch: RenderScratch = .current
    ) -> [UInt8] {
        precondition(scanlines.count == height * (width * 4 + 1) && width > 0 && height > 0)
        let palette = Palette(scanlines: scanlines, width: width, height: height, into: &scratch.indexed)
        let compressed = deflate(
            palette == nil ? scanlines : scratch.indexed, level: level, into: &scratch.output, stream: scratch.stream)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // Exactly what follows: the cache counts a body by its bytes, and spare capacity would
        // be memory it does not see. Each chunk is 12 bytes around its data.
        let paletteBytes = palette.map { 12 + $0.rgb.count + ($0.alpha.isEmpty ? 0 : 12 + $0.alpha.count) } ?? 0
        png.reserveCapacity(8 + (12 + 13) + (12 + 1) + paletteBytes + (12 + compressed) + 12)
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        // 8 bits, palette or RGBA, deflate, adaptive filtering, no interlace.
        header += [8, palette == nil ? 6 : 3, 0, 0, 0]
        chunk("IHDR", header[...], into: &png)
        chunk("sRGB", [0][...], into: &png)  // perceptual: the colours are sRGB, as in the SVG
        if let palette {
            chunk("PLTE", palette.rgb[...], into: &png)
            if !palette.alpha.isEmpty { chunk("tRNS", palette.alpha[...], into: &png) }
        }
        chunk("IDAT", scratch.output[0..<compressed], into: &png)
        chunk("IEND", [][...], into: &png)
        return png
    }

    /// The distinct colours of an image of at most 256 of them, and its rows as palette
    /// indices.
    struct Palette {
        /// Red, green and blue of each entry, in index order.
        var rgb: [UInt8] = []
        /// The alpha of each entry up to the last translucent one (`tRNS`); entries past it
        /// are opaque. Translucent colours come first, so this is as short as it can be.
        var alpha: [UInt8] = []

        /// Nil when the image has more than 256 colours. `indexed` receives the rows: each a
        /// filter byte (0) and one index a pixel.
        init?(scanlines: [UInt8], width: Int, height: Int, into indexed: inout [UInt8]) {
            // Open addressing over 512 slots, keyed by the pixel's 32 bits: at most 256 are ever
            // filled, so a probe ends quickly. A slot holds the colour and its index + 1.
            var keys = [UInt32](repeating: 0, count: 512)
            var slots = [UInt16](repeating: 0, count: 512)
            var colours: [UInt32] = []
            colours.reserveCapacity(256)
            indexed.resetToZeros(count: height * (width + 1))
            let complete = scanlines.withUnsafeBytes { lines in
                indexed.withUnsafeMutableBufferPointer { indexed in
                    keys.withUnsafeMutableBufferPointer { keys in
                        slots.withUnsafeMutableBufferPointer { slots in
                            var previous: UInt32 = 0
                            var previousIndex: UInt8 = 0
                            var havePrevious = false
                            for row in 0..<height {
                                let source = row * (width * 4 + 1) + 1
                                let target = row * (width + 1) + 1
                                for column in 0..<width {
                                    let colour = UInt32(
                                        littleEndian: lines.loadUnaligned(
                                            fromByteOffset: source + 4 * column, as: UInt32.self))
                                    if havePrevious && colour == previous {  // runs of one colour are most of a ring
                                        indexed[target + column] = previousIndex
                                        continue
                                    }
                                    var slot = Int(truncatingIfNeeded: (colour &* 0x9E37_79B1) >> 23)
                                    while slots[slot] != 0 && keys[slot] != colour { slot = (slot + 1) & 511 }
                                    if slots[slot] == 0 {
                                        guard colours.count < 256 else { return false }
                                        colours.append(colour)
                                        keys[slot] = colour
                                        slots[slot] = UInt16(colours.count)
                                    }
                                    previous = colour
                                    previousIndex = UInt8(truncatingIfNeeded: slots[slot] - 1)
                                    havePrevious = true
                                    indexed[target + column] = previousIndex
                                }
                            }
                            return true
                        }
                    }
                }
            }
            guard complete else { return nil }
            // Translucent entries first, each group in order of first appearance, so `tRNS`
            // stops at the last translucent one: the indices are renumbered to match.
            let order =
                colours.indices.filter { colours[$0] >> 24 != 255 }
                + colours.indices.filter {
                    colours[$0] >> 24 == 255
                }
            var renumbered = [UInt8](repeating: 0, count: colours.count)
            for (new, old) in order.enumerated() { renumbered[old] = UInt8(new) }
            renumbered.withUnsafeBufferPointer { renumbered in
                indexed.withUnsafeMutableBufferPointer { indexed in
                    for row in 0..<height {
                        let target = row * (width + 1) + 1
                        for column in 0..<width { indexed[target + column] = renumbered[Int(indexed[target + column])] }
                    }
                }
            }
            for old in order {
                let colour = colours[old]  // red in the low byte, alpha in the high one
                rgb += [UInt8(colour & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour >> 16 & 0xFF)]
                if colour >> 24 != 255 { alpha.append(UInt8(colour >> 24)) }
            }
        }
    }

    /// A zlib stream of `data`, from this thread's stream.
    package static func deflate(_ data: [UInt8], level: Int32) -> [UInt8] {
        let scratch = RenderScratch.current
        let count = deflate(data, level: level, into: &scratch.output, stream: scratch.stream)
        return Array(scratch.output[0..<count])
    }

    /// Compresses `data` into `output` (grown as needed) with `stream`; returns the byte count.
    private static func deflate(
        _ data: [UInt8], level: Int32, into output: inout [UInt8], stream: UnsafeMutablePointer<z_stream>
    ) -> Int {
        // Reset keeps the stream's memory; only its hash table is cleared.
        precondition(deflateReset(stream) == Z_OK && deflateParams(stream, level, Z_DEFAULT_STRATEGY) == Z_OK)
        output.resetToZeros(count: Int(deflateBound(stream, uLong(data.count))))
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = uInt(input.count)
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = uInt(out.count)
                let status = CZlib.deflate(stream, Z_FINISH)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                return status
            }
        }
        // deflateBound is enough by zlib's contract: anything else is a broken zlib.
        precondition(status == Z_STREAM_END, "zlib deflate failed: \(status)")
        return Int(stream.pointee.total_out)
    }

    private static func chunk(_ type: StaticString, _ data: ArraySlice<UInt8>, into png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeBytes = type.withUTF8Buffer { Array($0) }
        png += typeBytes
        png += data
        var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(crc), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
