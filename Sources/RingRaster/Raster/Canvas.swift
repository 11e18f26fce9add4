import RingCore

/// The image being drawn: 8-bit RGBA, premultiplied by alpha, in sRGB as the SVG gives its
/// colours. Shapes are composited onto it with source-over, as SVG paints them, each through
/// its coverage mask.
package struct Canvas {
    package let width: Int
    package let height: Int
    /// Row-major premultiplied RGBA, 4 bytes a pixel.
    package private(set) var pixels: [UInt8]

    /// A transparent canvas, in `storage` when given (its capacity is reused).
    init(width: Int, height: Int, storage: [UInt8] = []) {
        self.width = width
        self.height = height
        pixels = storage
        pixels.resetToZeros(count: width * height * 4)
    }

    /// Gives the pixels' storage back for the next canvas.
    mutating func takeStorage() -> [UInt8] {
        var storage: [UInt8] = []
        swap(&storage, &pixels)
        return storage
    }

    /// How many steps of partial coverage an edge pixel gets: coverage is rounded to the nearest
    /// of 0, 1/31, …, 31/31 before compositing. The edges stay exact to within 1/62 of a pixel's
    /// area (4 levels of 255), finer than resvg's own anti-aliasing, which this engine is checked
    /// against; and a ring then has few enough colours (a default ring 174) for the PNG encoder's
    /// palette, which compresses a quarter of the bytes. docs/performance.md has the measurement.
    static let coverageLevels = 31

    /// Paints `color` wherever `mask` covers, at `opacity`: run by run, in integers, without a
    /// shader. Most of what a ring paints is one colour, and most of that fully covered: a run
    /// of full weight in an opaque colour is stored as it is, whatever was under it.
    mutating func fill(_ mask: CoverageMask, _ color: RingColor, opacity: Float = 1) {
        let alpha = Int((Float(color.alpha) * min(max(opacity, 0), 1)).rounded())
        guard alpha > 0 else { return }
        // Premultiplied source, 0…255 each.
        let red = Self.divide255(Int(color.red) * alpha)
        let green = Self.divide255(Int(color.green) * alpha)
        let blue = Self.divide255(Int(color.blue) * alpha)
        let opaque = alpha == 255
        let word = (UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | 0xFF00_0000).littleEndian
        let (width, height) = (self.width, self.height)
        pixels.withUnsafeMutableBytes { bytes in
            let pixels = bytes.bindMemory(to: UInt8.self)
            mask.forEachRun { row, column, count, c in
                let y = mask.originY + row
                let first = max(mask.originX + column, 0)
                let end = min(mask.originX + column + count, width)
                guard y >= 0, y < height, first < end else { return }
                if c == 255 && opaque {
                    for x in first..<end {
                        bytes.storeBytes(of: word, toByteOffset: (y * width + x) * 4, as: UInt32.self)
                    }
                    return
                }
                // Source-over: source × c + destination × (1 − a × c).
                let keep = 255 - Self.divide255(alpha * c)
                for x in first..<end {
                    let index = (y * width + x) * 4
                    pixels[index] = UInt8(truncatingIfNeeded: Self.divide255(red * c + Int(pixels[index]) * keep))
                    pixels[index + 1] = UInt8(
                        truncatingIfNeeded: Self.divide255(green * c + Int(pixels[index + 1]) * keep))
                    pixels[index + 2] = UInt8(
                        truncatingIfNeeded: Self.divide255(blue * c + Int(pixels[index + 2]) * keep))
                    pixels[index + 3] = UInt8(
                        truncatingIfNeeded: Self.divide255(alpha * c + Int(pixels[index + 3]) * keep))
                }
            }
        }
    }

    /// `value` / 255, rounded, for 0 ≤ `value` ≤ 255 × 255 (the usual shift-and-add, exact there).
    @inline(__always)
    static func divide255(_ value: Int) -> Int {
        let biased = value + 128
        return (biased + (biased >> 8)) >> 8
    }

    /// Paints, wherever `mask` covers, the colour `shader` gives for each pixel: straight (not
    /// premultiplied) red, green and blue in 0…255 and alpha in 0…1.
    mutating func fill(
        _ mask: CoverageMask, shader: (_ x: Int, _ y: Int) -> (Float, Float, Float, Float)
    ) {
        precondition(mask.isResolved, "a shader fill reads resolved coverage")
        guard let (columns, rows) = visible(mask) else { return }
        let (firstColumn, lastColumn, firstRow, lastRow) = (
            columns.lowerBound, columns.upperBound, rows.lowerBound, rows.upperBound
        )
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { pixels in
            for row in firstRow..<lastRow {
                let y = mask.originY + row
                mask.withRow(row) { coverage in
                    for column in firstColumn..<lastColumn {
                        let weight = CoverageMask.weight(coverage[column])
                        guard weight > 0 else { continue }
                        let x = mask.originX + column
                        let (red, green, blue, alpha) = shader(x, y)
                        let a = alpha * Float(weight) / 255
                        guard a > 0 else { continue }
                        let index = (y * width + x) * 4
                        let keep = 1 - a
                        pixels[index] = Self.channel(red * a + Float(pixels[index]) * keep)
                        pixels[index + 1] = Self.channel(green * a + Float(pixels[index + 1]) * keep)
                        pixels[index + 2] = Self.channel(blue * a + Float(pixels[index + 2]) * keep)
                        pixels[index + 3] = Self.channel(255 * a + Float(pixels[index + 3]) * keep)
                    }
                }
            }
        }
    }

    /// The mask's columns and rows that fall on the canvas, or nil when none do.
    private func visible(_ mask: CoverageMask) -> (columns: Range<Int>, rows: Range<Int>)? {
        let firstColumn = max(0, -mask.originX)
        let lastColumn = min(mask.width, width - mask.originX)
        let firstRow = max(0, -mask.originY)
        let lastRow = min(mask.height, height - mask.originY)
        guard firstColumn < lastColumn, firstRow < lastRow else { return nil }
        return (firstColumn..<lastColumn, firstRow..<lastRow)
    }

    /// Paints `color` over the whole canvas (a background).
    mutating func fillAll(_ color: RingColor) {
        let mask = CoverageMask.full(width: width, height: height)
        fill(mask, color)
    }

    @inline(__always)
    private static func channel(_ value: Float) -> UInt8 {
        UInt8(min(max(value + 0.5, 0), 255))
    }
}

extension CoverageMask {
    /// A mask covering every pixel of a `width` × `height` image.
    static func full(width: Int, height: Int) -> CoverageMask {
        var mask = CoverageMask(originX: 0, originY: 0, width: width, height: height)
        var polygon = Polygon()
        polygon.contours = [
            [
                Point(x: 0, y: 0), Point(x: Double(width), y: 0), Point(x: Double(width), y: Double(height)),
                Point(x: 0, y: Double(height)),
            ]
        ]
        mask.add(polygon)
        mask.resolve()
        return mask
    }
}
