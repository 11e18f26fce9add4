import CZlib

/// A strict reader of the PNGs we write, for tests: checks the signature, every chunk's CRC and
/// the chunk order, inflates the image data, undoes the row filters and, for a palette image,
/// looks every index up in `PLTE` and `tRNS`.
struct PNGDecoder {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var width = 0
    var height = 0
    var chunkTypes: [String] = []
    /// Straight RGBA, row-major.
    var pixels: [UInt8] = []
    /// 6 for RGBA, 3 for a palette.
    var colourType = 0
    /// A palette image's entries as RGBA; empty for RGBA.
    var palette: [[UInt8]] = []

    init(_ png: [UInt8]) throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count > 8, Array(png[0..<8]) == signature else { throw Failure(description: "no PNG signature") }
        var offset = 8
        var compressed: [UInt8] = []
        var transparency: [UInt8] = []
        func u32(_ at: Int) -> Int {
            Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
        }
        while offset < png.count {
            guard offset + 12 <= png.count else { throw Failure(description: "truncated chunk at \(offset)") }
            let length = u32(offset)
            guard offset + 12 + length <= png.count else { throw Failure(description: "chunk overruns the file") }
            let typeAndData = Array(png[offset + 4..<offset + 8 + length])
            let type = String(decoding: typeAndData[0..<4], as: UTF8.self)
            let crc = typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
            guard Int(crc) == u32(offset + 8 + length) else { throw Failure(description: "bad CRC in \(type)") }
            chunkTypes.append(type)
            let data = Array(typeAndData[4...])
            if type == "IHDR" {
                width = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
                height = Int(data[4]) << 24 | Int(data[5]) << 16 | Int(data[6]) << 8 | Int(data[7])
                colourType = Int(data[9])
                guard data[8] == 8, colourType == 6 || colourType == 3, Array(data[10...]) == [0, 0, 0] else {
                    throw Failure(description: "not 8-bit RGBA or palette")
                }
            } else if type == "PLTE" {
                guard data.count % 3 == 0, (1...256).contains(data.count / 3) else {
                    throw Failure(description: "PLTE of \(data.count) bytes")
                }
                palette = stride(from: 0, to: data.count, by: 3).map { [data[$0], data[$0 + 1], data[$0 + 2], 255] }
            } else if type == "tRNS" {
                transparency = data
            } else if type == "IDAT" {
                compressed += data
            }
            offset += 12 + length
        }
        guard chunkTypes.first == "IHDR", chunkTypes.last == "IEND" else {
            throw Failure(description: "chunks out of order: \(chunkTypes)")
        }
        guard (colourType == 3) == !palette.isEmpty, transparency.count <= palette.count || colourType != 3 else {
            throw Failure(description: "palette chunks do not match colour type \(colourType)")
        }
        for (index, alpha) in transparency.enumerated() { palette[index][3] = alpha }
        let bytesPerPixel = colourType == 3 ? 1 : 4
        let rowBytes = width * bytesPerPixel
        var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        var size = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { uncompress(out.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, Int(size) == raw.count else { throw Failure(description: "inflate failed: \(status)") }
        pixels = [UInt8](repeating: 0, count: height * rowBytes)
        for row in 0..<height {
            let filter = raw[row * (rowBytes + 1)]
            for index in 0..<rowBytes {
                let value = Int(raw[row * (rowBytes + 1) + 1 + index])
                let b = bytesPerPixel
                let left = index >= b ? Int(pixels[row * rowBytes + index - b]) : 0
                let up = row > 0 ? Int(pixels[(row - 1) * rowBytes + index]) : 0
                let upLeft = row > 0 && index >= b ? Int(pixels[(row - 1) * rowBytes + index - b]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let p = left + up - upLeft
                    let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
                    predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                default: throw Failure(description: "filter \(filter) in row \(row)")
                }
                pixels[row * rowBytes + index] = UInt8(truncatingIfNeeded: value + predicted)
            }
        }
        if colourType == 3 {
            var expanded: [UInt8] = []
            expanded.reserveCapacity(pixels.count * 4)
            for index in pixels {
                guard Int(index) < palette.count else { throw Failure(description: "index \(index) past the palette") }
                expanded += palette[Int(index)]
            }
            pixels = expanded
        }
    }

    /// The pixel at (`x`, `y`): red, green, blue, alpha.
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        Array(pixels[(y * width + x) * 4..<(y * width + x) * 4 + 4])
    }
}
