import CZlib

/// Writes 8-bit RGBA images as PNG (ISO/IEC 15948): the signature, `IHDR`, `sRGB`, one `IDAT`
/// and `IEND`, each chunk with its CRC-32. Deflate and CRC-32 come from the system zlib.
///
/// Each row gets the filter (None, Sub, Up, Average, Paeth) whose output has the smallest sum of
/// magnitudes read as signed bytes: the heuristic of the PNG specification's §12.8, which
/// libpng uses too. Rings are mostly flat colour and transparency, so filtered rows are mostly
/// zeros and deflate well.
enum PNGEncoder {
    /// zlib's level 6 (its default) measured smaller than 1–5 by 4–12 % and within 1 % of 9 on the
    /// catalogue, at a third of 9's time (docs/performance.md).
    static let compressionLevel: Int32 = 6

    /// PNG bytes for `pixels`: `width` × `height`, row-major, straight (not premultiplied)
    /// RGBA.
    static func encode(rgba pixels: [UInt8], width: Int, height: Int, level: Int32 = compressionLevel) -> [UInt8] {
        precondition(pixels.count == width * height * 4 && width > 0 && height > 0)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        chunk("IHDR", header, into: &png)
        chunk("sRGB", [0], into: &png)  // perceptual: the colours are sRGB, as in the SVG
        chunk("IDAT", deflate(filtered(pixels, width: width, height: height), level: level), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    /// Every row, prefixed by its filter type and filtered.
    static func filtered(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        let rowBytes = width * 4
        var output = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: rowBytes), count: 5)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        pixels.withUnsafeBufferPointer { pixels in
            zeros.withUnsafeBufferPointer { zeros in
                for row in 0..<height {
                    let current = UnsafeBufferPointer(rebasing: pixels[row * rowBytes..<(row + 1) * rowBytes])
                    let above =
                        row == 0 ? zeros : UnsafeBufferPointer(rebasing: pixels[(row - 1) * rowBytes..<row * rowBytes])
                    var best = 0
                    var bestCost = Int.max
                    for filter in 0..<5 {
                        let cost = candidates[filter].withUnsafeMutableBufferPointer {
                            apply(filter, current, above, into: $0)
                        }
                        if cost < bestCost {
                            bestCost = cost
                            best = filter
                        }
                    }
                    let start = row * (rowBytes + 1)
                    output[start] = UInt8(best)
                    output.replaceSubrange(start + 1..<start + 1 + rowBytes, with: candidates[best])
                }
            }
        }
        return output
    }

    /// Filters one row with `filter` into `out` and returns its cost: the sum of the output
    /// bytes' magnitudes as signed values.
    private static func apply(
        _ filter: Int, _ row: UnsafeBufferPointer<UInt8>, _ above: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var cost = 0
        for index in 0..<row.count {
            let left = index >= 4 ? Int(row[index - 4]) : 0
            let up = Int(above[index])
            let upLeft = index >= 4 ? Int(above[index - 4]) : 0
            let predicted: Int
            switch filter {
            case 0: predicted = 0
            case 1: predicted = left
            case 2: predicted = up
            case 3: predicted = (left + up) / 2
            default: predicted = paeth(left, up, upLeft)
            }
            let value = UInt8(truncatingIfNeeded: Int(row[index]) - predicted)
            out[index] = value
            cost += Int(Int8(bitPattern: value).magnitude)
        }
        return cost
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// A zlib stream of `data`.
    static func deflate(_ data: [UInt8], level: Int32) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &size, input.baseAddress, uLong(input.count), level)
            }
        }
        // compressBound is enough by zlib's contract, and memory for its state is the only
        // other failure: neither is an input to recover from.
        precondition(status == Z_OK, "zlib compress2 failed: \(status)")
        output.removeSubrange(Int(size)...)
        return output
    }

    private static func chunk(_ type: StaticString, _ data: [UInt8], into png: inout [UInt8]) {
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
