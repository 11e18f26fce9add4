import CZlib

/// Writes 8-bit RGBA images as PNG (ISO/IEC 15948): the signature, `IHDR`, `sRGB`, one `IDAT`
/// and `IEND`, each chunk with its CRC-32. Deflate and CRC-32 come from the system zlib.
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
        let compressed = deflate(scanlines, level: level, into: &scratch.output, stream: scratch.stream)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(compressed + 80)
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        chunk("IHDR", header[...], into: &png)
        chunk("sRGB", [0][...], into: &png)  // perceptual: the colours are sRGB, as in the SVG
        chunk("IDAT", scratch.output[0..<compressed], into: &png)
        chunk("IEND", [][...], into: &png)
        return png
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
