import RingCore

/// The image being drawn: 8-bit RGBA, premultiplied by alpha, in sRGB as the SVG gives its
/// colours. Shapes are composited onto it with source-over, as SVG paints them, each through
/// its coverage mask.
///
/// A canvas starts **indexed**: one byte a pixel, an index into the colours painted so far,
/// laid out as PNG's palette rows (each row a filter byte, then the indices). A ring is a few
/// colours and their anti-aliased blends, and a shape's colour composited over one colour at
/// one coverage level always gives the same colour, so each fill works that out once per
/// pair (``memo``) and the image is ready for the PNG encoder's palette without a pass that
/// hashes every pixel. At the 257th colour, or for a fill with a shader (a gradient, the head
/// shadow), the canvas turns into RGBA words, the same pixels exactly, and stays so.
package struct Canvas {
    package let width: Int
    package let height: Int
    /// Whether the canvas is still indexed (``indices``, ``colours``) rather than RGBA.
    package private(set) var isIndexed = true
    /// While indexed: per row a filter byte (0, None) and an index into ``colours`` a pixel.
    private(set) var indices: [UInt8]
    /// While indexed: the colours, premultiplied RGBA words (red in the low byte); 0 is
    /// transparent, what an empty canvas is.
    private(set) var colours: [UInt32] = [0]
    /// Once RGBA: row-major premultiplied RGBA, 4 bytes a pixel.
    private var rgba: [UInt8]
    /// Open addressing over 512 slots from a colour to its index + 1 (0 empty).
    private var keys: [UInt32]
    private var slots: [UInt16]
    /// Per index and coverage level (32 a colour), the index the fill numbered ``fills``
    /// made of it, as `fills << 8 | index`: an entry of an earlier fill is stale.
    private var memo: [UInt32]
    private var fills: UInt32 = 0

    /// The pixels, row-major premultiplied RGBA, 4 bytes a pixel: written out from the indices
    /// while the canvas is indexed, so a method, to be called once.
    package func rgbaPixels() -> [UInt8] {
        guard isIndexed else { return rgba }
        var words = [UInt8](repeating: 0, count: width * height * 4)
        writeRGBA(into: &words)
        return words
    }

    /// A transparent canvas, in `scratch`'s buffers when given (their capacity is reused);
    /// RGBA from the start when not `indexed` (what the tests compare an indexed one against).
    /// With `kept`, an indexed canvas of the same size as it was when that snapshot was taken:
    /// its rows copied in, never cleared first, and its colours shared until painted.
    init(width: Int, height: Int, scratch: RenderScratch? = nil, indexed: Bool = true, kept: Snapshot? = nil) {
        self.width = width
        self.height = height
        // Taken out of the scratch before they change, so that the change needs no copy.
        var (indices, rgba, memo) = ([UInt8](), [UInt8](), [UInt32]())
        if let scratch {
            swap(&indices, &scratch.canvasIndices)
            swap(&rgba, &scratch.pixels)
            swap(&memo, &scratch.memo)
        }
        if let kept {
            precondition(indexed && kept.indices.count == (width + 1) * height, "a snapshot of another canvas")
            indices.removeAll(keepingCapacity: true)
            indices.append(contentsOf: kept.indices)
        } else {
            indices.resetToZeros(count: (width + 1) * height)
        }
        rgba.removeAll(keepingCapacity: true)
        // The memo's stamps go on from the last canvas's, so its entries are stale without
        // clearing 32 KB for every image.
        if memo.count == 256 * 32, let scratch {
            fills = scratch.fills
        } else {
            memo.resetToZeros(count: 256 * 32)
        }
        (self.indices, self.rgba, self.memo) = (indices, rgba, memo)
        if let kept {
            (colours, keys, slots) = (kept.colours, kept.keys, kept.slots)
            return
        }
        keys = [UInt32](repeating: 0, count: 512)
        slots = [UInt16](repeating: 0, count: 512)
        slots[Self.slot(of: 0)] = 1
        if !indexed { makeRGBA() }
    }

    /// Gives the buffers back to `scratch` for the next canvas.
    mutating func giveBack(to scratch: RenderScratch) {
        swap(&scratch.canvasIndices, &indices)
        swap(&scratch.pixels, &rgba)
        swap(&scratch.memo, &memo)
        scratch.fills = fills
    }

    /// How many steps of partial coverage an edge pixel gets: coverage is rounded to the nearest
    /// of 0, 1/31, …, 31/31 before compositing. The edges stay exact to within 1/62 of a pixel's
    /// area (4 levels of 255), finer than resvg's own anti-aliasing, which this engine is checked
    /// against; and a ring then has few enough colours (a default ring 174) for the PNG encoder's
    /// palette, which compresses a quarter of the bytes. docs/performance.md has the measurement.
    static let coverageLevels = 31

    // MARK: Colours

    @inline(__always)
    private static func slot(of colour: UInt32) -> Int { Int(truncatingIfNeeded: (colour &* 0x9E37_79B1) >> 23) }

    /// The index of `colour`, added if new; nil when the canvas already has 256. Only a fill's
    /// memo misses call it: kept out of line, so the fill's loop does not prepare the tables
    /// for writing on every run.
    @inline(never)
    private mutating func index(of colour: UInt32) -> UInt8? {
        var slot = Self.slot(of: colour)
        while slots[slot] != 0 {
            if keys[slot] == colour { return UInt8(truncatingIfNeeded: slots[slot] - 1) }
            slot = (slot + 1) & 511
        }
        guard colours.count < 256 else { return nil }
        colours.append(colour)
        keys[slot] = colour
        slots[slot] = UInt16(colours.count)
        return UInt8(truncatingIfNeeded: colours.count - 1)
    }

    /// The indices as RGBA words, into `words` (`width` × `height` × 4 bytes).
    private func writeRGBA(into words: inout [UInt8]) {
        words.withUnsafeMutableBytes { words in
            for row in 0..<height {
                let source = row * (width + 1) + 1
                for column in 0..<width {
                    let colour = colours[Int(indices[source + column])].littleEndian
                    words.storeBytes(of: colour, toByteOffset: (row * width + column) * 4, as: UInt32.self)
                }
            }
        }
    }

    /// Turns the canvas into RGBA, for good: the same pixels.
    private mutating func makeRGBA() {
        guard isIndexed else { return }
        rgba.resetToZeros(count: width * height * 4)
        writeRGBA(into: &rgba)
        isIndexed = false
    }

    // MARK: Snapshots

    /// An indexed canvas as it was: its indices and its colours.
    struct Snapshot {
        fileprivate let indices: [UInt8]
        fileprivate let colours: [UInt32]
        fileprivate let keys: [UInt32]
        fileprivate let slots: [UInt16]
    }

    /// The canvas now, if still indexed. It shares the canvas's storage until either changes.
    func snapshot() -> Snapshot? {
        guard isIndexed else { return nil }
        return Snapshot(indices: indices, colours: colours, keys: keys, slots: slots)
    }

    // MARK: Painting

    /// Paints `color` wherever `mask` covers, at `opacity`: run by run, in integers, without a
    /// shader. Most of what a ring paints is one colour, and most of that fully covered: a run
    /// of full weight in an opaque colour is stored as it is, whatever was under it.
    mutating func fill(_ mask: CoverageMask, _ color: RingColor, opacity: Float = 1) {
        let alpha = Int((Float(color.alpha) * min(max(opacity, 0), 1)).rounded())
        guard alpha > 0 else { return }
        let source = Source(color, alpha: alpha)
        if isIndexed, let stopped = fillIndexed(mask, source) {
            // The 257th colour: the rest of the fill, from where it stopped, on RGBA.
            makeRGBA()
            fillRGBA(mask, source, from: stopped)
        } else if !isIndexed {
            fillRGBA(mask, source, from: (0, 0))
        }
    }

    /// A fill's colour, premultiplied, 0…255 each.
    private struct Source {
        let red: Int
        let green: Int
        let blue: Int
        let alpha: Int
        /// The colour as a premultiplied word when opaque (red in the low byte).
        let word: UInt32
        var opaque: Bool { alpha == 255 }

        init(_ color: RingColor, alpha: Int) {
            red = Canvas.divide255(Int(color.red) * alpha)
            green = Canvas.divide255(Int(color.green) * alpha)
            blue = Canvas.divide255(Int(color.blue) * alpha)
            self.alpha = alpha
            word = UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24
        }

        /// Source-over at weight `c`: source × c + destination × (1 − a × c), per channel.
        @inline(__always)
        func over(_ destination: UInt32, weight c: Int) -> UInt32 {
            let keep = 255 - Canvas.divide255(alpha * c)
            func channel(_ value: Int, _ shift: UInt32) -> UInt32 {
                UInt32(truncatingIfNeeded: Canvas.divide255(value * c + Int(destination >> shift & 0xFF) * keep))
                    << shift
            }
            return channel(red, 0) | channel(green, 8) | channel(blue, 16) | channel(alpha, 24)
        }
    }

    /// The fill on the indices. Returns nil when done, or the row and column of the first
    /// pixel it could not paint, a 257th colour.
    private mutating func fillIndexed(_ mask: CoverageMask, _ source: Source) -> (row: Int, column: Int)? {
        guard let (columns, rows) = visible(mask) else { return nil }
        fills += 1
        if fills == 1 << 24 {  // stamps would wrap: start the memo again
            memo.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            fills = 1
        }
        let (fills, stamp) = (self.fills, self.fills << 8)
        // A pixel of the mask's row `row` and column `column` is the index at `row` × `rowBytes`
        // + `column` + `offset`: each row a filter byte and `width` indices.
        let rowBytes = width + 1
        let offset = mask.originY * rowBytes + 1 + mask.originX
        var full: UInt8? = nil
        var stopped: (row: Int, column: Int)? = nil
        // The indices and the memo are moved out while the fill holds pointers into them, so
        // that numbering a new colour (which changes `self`) does not overlap those accesses.
        var indices: [UInt8] = []
        var memo: [UInt32] = []
        swap(&indices, &self.indices)
        swap(&memo, &self.memo)
        defer {
            swap(&indices, &self.indices)
            swap(&memo, &self.memo)
        }
        indices.withUnsafeMutableBufferPointer { indices in
            memo.withUnsafeMutableBufferPointer { memo in
                let (indices, memo) = (indices.baseAddress!, memo.baseAddress!)
                mask.forEachRun(columns: columns, rows: rows) { row, column, count, level in
                    let first = row &* rowBytes &+ column &+ offset
                    if count > 1, level == Self.coverageLevels, source.opaque {
                        if full == nil { full = index(of: source.word) }
                        guard let full else {
                            stopped = (row, column)
                            return false
                        }
                        (indices + first).update(repeating: full, count: count)
                        return true
                    }
                    for x in first..<first &+ count {
                        let old = Int(indices[x])
                        let entry = memo[old << 5 | level]
                        if entry >> 8 == fills {
                            indices[x] = UInt8(truncatingIfNeeded: entry)
                            continue
                        }
                        let weight = CoverageMask.weight(level: level)
                        guard let new = index(of: source.over(colours[old], weight: weight)) else {
                            stopped = (row, column + x - first)
                            return false
                        }
                        memo[old << 5 | level] = stamp | UInt32(new)
                        indices[x] = new
                    }
                    return true
                }
            }
        }
        return stopped
    }

    /// The fill on RGBA words, from the mask's pixel (`from.row`, `from.column`) on: the
    /// runs before it were painted while the canvas was indexed.
    private mutating func fillRGBA(_ mask: CoverageMask, _ source: Source, from: (row: Int, column: Int)) {
        guard let (columns, rows) = visible(mask) else { return }
        let width = self.width
        let word = source.word.littleEndian
        rgba.withUnsafeMutableBytes { bytes in
            mask.forEachRun(columns: columns, rows: rows) { row, column, count, level in
                guard row >= from.row else { return true }
                let skip = row == from.row ? max(from.column - column, 0) : 0
                guard skip < count else { return true }
                let y = mask.originY + row
                let (first, end) = (mask.originX + column + skip, mask.originX + column + count)
                let c = CoverageMask.weight(level: level)
                if c == 255 && source.opaque {
                    for x in first..<end {
                        bytes.storeBytes(of: word, toByteOffset: (y * width + x) * 4, as: UInt32.self)
                    }
                    return true
                }
                for x in first..<end {
                    let offset = (y * width + x) * 4
                    let destination = UInt32(littleEndian: bytes.load(fromByteOffset: offset, as: UInt32.self))
                    bytes.storeBytes(
                        of: source.over(destination, weight: c).littleEndian, toByteOffset: offset, as: UInt32.self)
                }
                return true
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
        makeRGBA()
        let (firstColumn, lastColumn, firstRow, lastRow) = (
            columns.lowerBound, columns.upperBound, rows.lowerBound, rows.upperBound
        )
        let width = self.width
        rgba.withUnsafeMutableBufferPointer { pixels in
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
