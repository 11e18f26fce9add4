import CZlib

/// Writes 8-bit images as PNG (ISO/IEC 15948): the signature, `IHDR`, `sRGB`, for a palette
/// image `PLTE` and `tRNS`, one `IDAT` and `IEND`, each chunk with its CRC-32. A palette
/// image's rows are compressed by our own ``RunLengthDeflate``; an RGBA image's by the system
/// zlib, which also gives CRC-32.
///
/// An image of at most 256 distinct RGBA colours is written with a palette (colour type 3):
/// the same pixels, exactly, in a quarter of the bytes to compress, so deflate takes a quarter
/// of the time and the file is smaller. Any other image is written as RGBA (colour type 6).
/// Most rings qualify, because the rasteriser keeps 32 levels of edge coverage
/// (``Canvas/coverageLevels``).
///
/// Every row is written with filter type None, and each colour type has its own deflate
/// setting (``paletteCompression``, ``rgbaCompression``). The filters were measured and lose
/// on rings at every setting: rings are flat colour and transparency with anti-aliased edges,
/// deflate already finds the repeats one pixel and one row back, and the filters turn the
/// edges into noise (docs/performance.md has the tables; `ring-bench` prints them).
package enum PNGEncoder {
    /// How the bytes of an image are compressed: by zlib at a level and strategy, or by our own
    /// ``RunLengthDeflate``, and the PNG filter applied to every row first.
    package struct Compression: Sendable, Equatable, CustomStringConvertible {
        package enum Engine: Sendable, Equatable {
            /// zlib's `deflate` at `level` with `strategy` (`Z_DEFAULT_STRATEGY`, `Z_RLE`,
            /// `Z_FILTERED` or `Z_HUFFMAN_ONLY`).
            case zlib(level: Int32, strategy: Int32)
            /// ``RunLengthDeflate``: the matches of zlib's `Z_RLE`, found a word at a time.
            case runs
        }

        package var engine: Engine
        package var filter: Filter

        private init(_ engine: Engine, filter: Filter) {
            self.engine = engine
            self.filter = filter
        }

        /// zlib at `level` and `strategy`.
        package init(level: Int32, strategy: Int32 = Z_DEFAULT_STRATEGY, filter: Filter = .none) {
            self.init(.zlib(level: level, strategy: strategy), filter: filter)
        }

        /// Our own ``RunLengthDeflate``.
        package static func runs(filter: Filter = .none) -> Compression { Compression(.runs, filter: filter) }

        package var description: String {
            switch engine {
            case .runs:
                return "runs \(filter)"
            case .zlib(let level, let strategy):
                let name =
                    switch strategy {
                    case Z_RLE: "rle"
                    case Z_FILTERED: "filtered"
                    case Z_HUFFMAN_ONLY: "huffman"
                    default: "default"
                    }
                return "level \(level) \(name) \(filter)"
            }
        }
    }

    /// A PNG row filter (ISO/IEC 15948 §9.2), applied to every row alike.
    package enum Filter: UInt8, Sendable, CaseIterable {
        case none = 0
        /// Each byte less the byte one pixel to the left.
        case sub = 1
        /// Each byte less the byte above.
        case up = 2
    }

    /// Palette indices: our own ``RunLengthDeflate`` and no filter. It makes the choices of
    /// zlib's level 1 with the `Z_RLE` strategy — repeats one byte back only, which is what a
    /// ring's runs of one colour are as indices, and which beat level 3's search in time and
    /// bytes on 50 of the catalogue's 51 palette images (docs/performance.md, "PNG") — in a
    /// third of the time, with no more bytes, and it reads an indexed canvas's rows through the
    /// palette's renumbering instead of a renumbered copy.
    package static let paletteCompression = Compression.runs()

    /// RGBA rows: level 3, default strategy, no filter. A pixel's repeat is 4 bytes back, out
    /// of `Z_RLE`'s reach (its images come out 2 to 4 times larger), and the Sub and Up
    /// filters lose here as well.
    package static let rgbaCompression = Compression(level: 3)

    /// PNG bytes of `canvas`, with its ``RenderScratch`` buffers: an indexed canvas as a
    /// palette image from its indices; an RGBA one as a palette image read straight from the
    /// premultiplied pixels when it has at most 256 colours, so the RGBA scanlines are made
    /// only for an image that needs them.
    package static func encode(_ canvas: Canvas, scratch: RenderScratch = .current) -> [UInt8] {
        let (width, height) = (canvas.width, canvas.height)
        precondition(width > 0 && height > 0)
        if canvas.isIndexed {
            var map = [UInt8](repeating: 0, count: 256)
            if paletteCompression.engine == .runs {
                // Numbered from the deflate's tokens, without a pass over the pixels, when the
                // rows fit one block and read through the numbering (see `readsThroughMap`).
                var numbered: Palette?
                let compressed = canvas.indices.withUnsafeBytes { rows in
                    scratch.runs.compress(rows: rows, rowBytes: width + 1, into: &scratch.output) { appearing in
                        let palette = Palette(canvas, appearing: appearing, map: &map)
                        guard palette.readsThroughMap else { return nil }
                        numbered = palette
                        return map
                    }
                }
                if let compressed, let numbered {
                    return container(
                        width: width, height: height, palette: numbered, idat: scratch.output[0..<compressed])
                }
            }
            let palette = Palette(canvas, map: &map)
            // Our own deflate reads the canvas's rows through the map, without a renumbered
            // copy, when that changes no run (see `readsThroughMap`).
            if paletteCompression.engine == .runs, palette.readsThroughMap {
                let compressed = canvas.indices.withUnsafeBytes { rows in
                    map.withUnsafeBufferPointer {
                        scratch.runs.compress(rows, through: $0.baseAddress!, into: &scratch.output)
                    }
                }
                return container(width: width, height: height, palette: palette, idat: scratch.output[0..<compressed])
            }
            Palette.renumber(canvas, through: map, into: &scratch.indexed)
            return encode(
                rows: scratch.indexed, bytesPerPixel: 1, palette: palette, width: width, height: height, nil, scratch)
        }
        let pixels = canvas.rgbaPixels()
        let palette = pixels.withUnsafeBytes {
            Palette(
                rows: $0, stride: width * 4, offset: 0, width: width, height: height, premultiplied: true,
                into: &scratch.indexed)
        }
        if let palette {
            return encode(
                rows: scratch.indexed, bytesPerPixel: 1, palette: palette, width: width, height: height, nil, scratch)
        }
        canvas.scanlines(into: &scratch.lines)
        return encode(rows: scratch.lines, bytesPerPixel: 4, palette: nil, width: width, height: height, nil, scratch)
    }

    /// An indexed canvas's rows as the PNG stores them, each a filter byte (0) and its palette
    /// indices: what deflate compresses (benchmarks measure the engines on it).
    package static func paletteRows(of canvas: Canvas) -> [UInt8]? {
        guard canvas.isIndexed else { return nil }
        var (map, rows) = ([UInt8](), [UInt8]())
        _ = Palette(canvas, map: &map)
        Palette.renumber(canvas, through: map, into: &rows)
        return rows
    }

    /// PNG bytes for a `width` × `height` image, given its rows as PNG scanlines: each a filter
    /// byte (0) and `width` straight (not premultiplied) RGBA pixels. Compresses with the
    /// thread's ``RenderScratch`` stream, into its output buffer, with `compression` when given
    /// (benchmarks) or the default of the image's colour type.
    package static func encode(
        scanlines: [UInt8], width: Int, height: Int, compression: Compression? = nil,
        allowPalette: Bool = true, scratch: RenderScratch = .current
    ) -> [UInt8] {
        precondition(scanlines.count == height * (width * 4 + 1) && width > 0 && height > 0)
        if allowPalette,
            let palette = scanlines.withUnsafeBytes({
                Palette(
                    rows: $0, stride: width * 4 + 1, offset: 1, width: width, height: height, premultiplied: false,
                    into: &scratch.indexed)
            })
        {
            return encode(
                rows: scratch.indexed, bytesPerPixel: 1, palette: palette, width: width, height: height, compression,
                scratch)
        }
        return encode(
            rows: scanlines, bytesPerPixel: 4, palette: nil, width: width, height: height, compression, scratch)
    }

    /// Filters (when asked) and compresses `rows`, `bytesPerPixel` bytes a pixel, into the file:
    /// a palette image's indices (one byte a pixel) or an RGBA image's scanlines (four), each
    /// with its own default setting.
    private static func encode(
        rows: [UInt8], bytesPerPixel: Int, palette: Palette?, width: Int, height: Int,
        _ compression: Compression?, _ scratch: RenderScratch
    ) -> [UInt8] {
        let compression = compression ?? (palette == nil ? rgbaCompression : paletteCompression)
        let filteredRows =
            compression.filter == .none
            ? rows : filtered(rows, compression.filter, width * bytesPerPixel, bytesPerPixel)
        let compressed = deflate(filteredRows, compression, into: &scratch.output, scratch: scratch)
        return container(width: width, height: height, palette: palette, idat: scratch.output[0..<compressed])
    }

    /// The file around the compressed rows.
    private static func container(width: Int, height: Int, palette: Palette?, idat: ArraySlice<UInt8>) -> [UInt8] {
        var png: [UInt8] = []
        // Exactly what follows: the cache counts a body by its bytes, and spare capacity would
        // be memory it does not see. Each chunk is 12 bytes around its data.
        let paletteBytes = palette.map { 12 + $0.rgb.count + ($0.alpha.isEmpty ? 0 : 12 + $0.alpha.count) } ?? 0
        png.reserveCapacity(8 + (12 + 13) + (12 + 1) + paletteBytes + (12 + idat.count) + 12)
        appendBigEndian(0x8950_4E47, to: &png)
        appendBigEndian(0x0D0A_1A0A, to: &png)
        // Width and height; 8 bits, palette or RGBA, deflate, adaptive filtering, no interlace.
        let kind: UInt8 = palette == nil ? 6 : 3
        let header: (UInt32, UInt32, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            UInt32(width).bigEndian, UInt32(height).bigEndian, 8, kind, 0, 0, 0
        )
        withUnsafeBytes(of: header) { chunk("IHDR", UnsafeRawBufferPointer(rebasing: $0[0..<13]), into: &png) }
        withUnsafeBytes(of: UInt8(0)) { chunk("sRGB", $0, into: &png) }  // perceptual: the SVG's colours are sRGB
        if let palette {
            palette.rgb.withUnsafeBytes { chunk("PLTE", $0, into: &png) }
            if !palette.alpha.isEmpty { palette.alpha.withUnsafeBytes { chunk("tRNS", $0, into: &png) } }
        }
        idat.withUnsafeBytes { chunk("IDAT", $0, into: &png) }
        chunk("IEND", UnsafeRawBufferPointer(start: nil, count: 0), into: &png)
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
        /// For a canvas's palette: whether its rows read through the map are the image's rows
        /// with the same runs. So when transparent, canvas index 0 and the rows' filter byte's
        /// value, is in the image as entry 0: then the filter bytes stay 0 and no two indices
        /// share an entry. When the image has no transparent pixel (a background), entry 0 is
        /// another colour, and the filter bytes would cut the runs that cross rows.
        private(set) var readsThroughMap = false

        /// Nil when the image has more than 256 colours. `rows` holds `height` rows of `width`
        /// 4-byte pixels, `stride` bytes apart and `offset` bytes into each; `premultiplied`
        /// pixels (a canvas's) are keyed as they are, and only the entries are straightened.
        /// `indexed` receives the rows: each a filter byte (0) and one index a pixel.
        init?(
            rows lines: UnsafeRawBufferPointer, stride: Int, offset: Int, width: Int, height: Int, premultiplied: Bool,
            into indexed: inout [UInt8]
        ) {
            // Open addressing over 512 slots, keyed by the pixel's 32 bits: at most 256 are ever
            // filled, so a probe ends quickly. A slot holds the colour and its index + 1.
            var keys = [UInt32](repeating: 0, count: 512)
            var slots = [UInt16](repeating: 0, count: 512)
            var colours: [UInt32] = []
            colours.reserveCapacity(256)
            indexed.resetToZeros(count: height * (width + 1))
            let complete = indexed.withUnsafeMutableBufferPointer { indexed in
                keys.withUnsafeMutableBufferPointer { keys in
                    slots.withUnsafeMutableBufferPointer { slots in
                        var previous: UInt32 = 0
                        var previousIndex: UInt8 = 0
                        var havePrevious = false
                        for row in 0..<height {
                            let source = row * stride + offset
                            let target = row * (width + 1) + 1
                            var column = 0
                            while column < width {
                                // Runs of one colour are most of a ring: four pixels at a time
                                // while they repeat the last one.
                                if havePrevious {
                                    let repeated = SIMD4<UInt32>(repeating: previous.littleEndian)
                                    let indices = UInt32(previousIndex) &* 0x0101_0101
                                    while column + 4 <= width,
                                        lines.loadUnaligned(fromByteOffset: source + 4 * column, as: SIMD4<UInt32>.self)
                                            == repeated
                                    {
                                        UnsafeMutableRawPointer(indexed.baseAddress! + target + column).storeBytes(
                                            of: indices, as: UInt32.self)
                                        column += 4
                                    }
                                    guard column < width else { break }
                                }
                                let colour = UInt32(
                                    littleEndian: lines.loadUnaligned(
                                        fromByteOffset: source + 4 * column, as: UInt32.self))
                                column += 1
                                if havePrevious && colour == previous {
                                    indexed[target + column - 1] = previousIndex
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
                                indexed[target + column - 1] = previousIndex
                            }
                        }
                        return true
                    }
                }
            }
            guard complete else { return nil }
            let map = Self.translucentFirst(colours)
            indexed.withUnsafeMutableBufferPointer { indexed in
                Self.renumber(
                    UnsafePointer(indexed.baseAddress!), through: map, into: indexed.baseAddress!, width, height)
            }
            setEntries(colours, map, premultiplied: premultiplied)
        }

        /// The palette of an indexed canvas: its colours as they first appear row by row —
        /// the numbering the pixel pass above gives the same image, so the bytes are the same
        /// — without those it painted over. `map` receives each canvas index's entry (256, 0
        /// for an index the image does not show), for ``renumber(_:through:into:)`` or an
        /// encoder that reads the canvas through it.
        init(_ canvas: Canvas, map: inout [UInt8]) {
            let (width, height) = (canvas.width, canvas.height)
            var seen = [Bool](repeating: false, count: 256)
            var appearing: [UInt8] = []
            appearing.reserveCapacity(256)
            canvas.indices.withUnsafeBufferPointer { indices in
                seen.withUnsafeMutableBufferPointer { seen in
                    let indices = indices.baseAddress!
                    let bytes = UnsafeRawPointer(indices)
                    func visit(_ index: Int) {
                        guard !seen[index] else { return }
                        appearing.append(UInt8(truncatingIfNeeded: index))
                        seen[index] = true
                    }
                    for row in 0..<height {
                        let start = row * (width + 1) + 1
                        var column = 0
                        // Eight at a time: skipped with one load when they are one index seen
                        // before (most of a ring), or with eight look-ups when each was (most of
                        // its edges); one by one only where a colour first appears.
                        while column + 8 <= width {
                            let eight = bytes.loadUnaligned(fromByteOffset: start + column, as: UInt64.self)
                            let first = eight & 0xFF
                            if eight == first &* 0x0101_0101_0101_0101, seen[Int(first)] {
                                column += 8
                                continue
                            }
                            var unseen = false
                            for byte in 0..<8 { unseen = unseen || !seen[Int(eight >> (8 * byte) & 0xFF)] }
                            if unseen {
                                for byte in 0..<8 { visit(Int(eight >> (8 * byte) & 0xFF)) }
                            }
                            column += 8
                        }
                        while column < width {
                            visit(Int(indices[start + column]))
                            column += 1
                        }
                    }
                }
            }
            self.init(canvas, appearing: appearing, map: &map)
        }

        /// The palette of an indexed canvas whose indices first appear in the order
        /// `appearing`, each once (from the pixels, or from a deflate's tokens).
        init(_ canvas: Canvas, appearing: [UInt8], map: inout [UInt8]) {
            let colours = appearing.map { canvas.colours[Int($0)] }
            let order = Self.translucentFirst(colours)
            // Canvas index → final index, through the order of appearance.
            map.resetToZeros(count: 256)
            for (position, index) in appearing.enumerated() { map[Int(index)] = order[position] }
            readsThroughMap = appearing.contains(0) && map[0] == 0
            setEntries(colours, order, premultiplied: true)
        }

        /// `canvas`'s rows through `map` (from ``init(_:map:)``) into `indexed`.
        static func renumber(_ canvas: Canvas, through map: [UInt8], into indexed: inout [UInt8]) {
            let (width, height) = (canvas.width, canvas.height)
            indexed.resetToZeros(count: height * (width + 1))
            canvas.indices.withUnsafeBufferPointer { source in
                indexed.withUnsafeMutableBufferPointer { target in
                    renumber(source.baseAddress!, through: map, into: target.baseAddress!, width, height)
                }
            }
        }

        /// For colours numbered in order of first appearance, their final numbers: translucent
        /// entries first, each group in that order, so `tRNS` stops at the last translucent one.
        private static func translucentFirst(_ colours: [UInt32]) -> [UInt8] {
            var map = [UInt8](repeating: 0, count: colours.count)
            var next = 0
            for translucent in [true, false] {
                for (old, colour) in colours.enumerated() where (colour >> 24 != 255) == translucent {
                    map[old] = UInt8(next)
                    next += 1
                }
            }
            return map
        }

        /// `rgb` and `alpha` of `colours` (numbered as they appeared) in their final order `map`.
        private mutating func setEntries(_ colours: [UInt32], _ map: [UInt8], premultiplied: Bool) {
            // Written on the stack and appended once each: the standard library's ways of
            // making an array of a given size (`repeating:count:`, `unsafeUninitializedCapacity`)
            // look the element type up at run time, about 500 instructions, under a lock.
            let count = colours.count
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { byFinal in
                for (old, colour) in colours.enumerated() { byFinal[Int(map[old])] = colour }
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * 256) { entries in
                    // Red in the low byte, alpha in the high one.
                    var translucent = 0
                    for index in 0..<count {
                        let stored = byFinal[index]
                        let colour = premultiplied ? Canvas.straight(stored) : stored
                        entries[3 * index] = UInt8(truncatingIfNeeded: colour)
                        entries[3 * index + 1] = UInt8(truncatingIfNeeded: colour >> 8)
                        entries[3 * index + 2] = UInt8(truncatingIfNeeded: colour >> 16)
                        // The translucent entries come first (straightening keeps alpha):
                        // `tRNS` is theirs, and this reuses the bytes below for it.
                        if translucent == index, stored >> 24 != 255 { translucent += 1 }
                    }
                    rgb.removeAll(keepingCapacity: true)
                    alpha.removeAll(keepingCapacity: true)
                    rgb.reserveCapacity(3 * count)
                    rgb.append(contentsOf: UnsafeBufferPointer(rebasing: entries[0..<3 * count]))
                    for index in 0..<translucent { entries[index] = UInt8(truncatingIfNeeded: byFinal[index] >> 24) }
                    alpha.reserveCapacity(translucent)
                    alpha.append(contentsOf: UnsafeBufferPointer(rebasing: entries[0..<translucent]))
                }
            }
        }

        /// `source`'s rows (a filter byte, then `width` indices) through `map` into `target`'s,
        /// which may be the same: eight at a time where eight are one index, most of a ring.
        private static func renumber(
            _ source: UnsafePointer<UInt8>, through map: [UInt8], into target: UnsafeMutablePointer<UInt8>,
            _ width: Int, _ height: Int
        ) {
            map.withUnsafeBufferPointer { map in
                let (from, to) = (UnsafeRawPointer(source), UnsafeMutableRawPointer(target))
                for row in 0..<height {
                    let start = row * (width + 1) + 1
                    target[start - 1] = 0
                    var column = 0
                    while column + 8 <= width {
                        let eight = from.loadUnaligned(fromByteOffset: start + column, as: UInt64.self)
                        let index = eight & 0xFF  // all eight bytes, if they are equal
                        if eight == index &* 0x0101_0101_0101_0101 {
                            to.storeBytes(
                                of: UInt64(map[Int(index)]) &* 0x0101_0101_0101_0101, toByteOffset: start + column,
                                as: UInt64.self)
                        } else {
                            for cell in start + column..<start + column + 8 { target[cell] = map[Int(source[cell])] }
                        }
                        column += 8
                    }
                    while column < width {
                        target[start + column] = map[Int(source[start + column])]
                        column += 1
                    }
                }
            }
        }
    }

    /// `rows` (each a filter byte and `rowBytes` bytes of pixels of `bytesPerPixel` bytes) with
    /// `filter` applied to every row. Only benchmarks and tests choose a filter: none is the
    /// default (docs/performance.md has the measurement).
    static func filtered(_ rows: [UInt8], _ filter: Filter, _ rowBytes: Int, _ bytesPerPixel: Int) -> [UInt8] {
        var output = rows
        let stride = rowBytes + 1
        for row in 0..<rows.count / stride {
            let start = row * stride
            output[start] = filter.rawValue
            for index in 1...rowBytes {
                let reference: UInt8 =
                    switch filter {
                    case .none: 0
                    case .sub: index > bytesPerPixel ? rows[start + index - bytesPerPixel] : 0
                    case .up: row > 0 ? rows[start - stride + index] : 0
                    }
                output[start + index] = rows[start + index] &- reference
            }
        }
        return output
    }

    /// A zlib stream of `data`, with this thread's scratch.
    package static func deflate(_ data: [UInt8], _ compression: Compression = rgbaCompression) -> [UInt8] {
        let scratch = RenderScratch.current
        let count = deflate(data, compression, into: &scratch.output, scratch: scratch)
        return Array(scratch.output[0..<count])
    }

    /// Compresses `data` into `output` (grown as needed) with `scratch`'s zlib stream or run
    /// encoder; returns the byte count.
    private static func deflate(
        _ data: [UInt8], _ compression: Compression, into output: inout [UInt8], scratch: RenderScratch
    ) -> Int {
        guard case .zlib(let level, let strategy) = compression.engine else {
            return data.withUnsafeBytes { scratch.runs.compress($0, into: &output) }
        }
        let stream = scratch.stream
        // Reset keeps the stream's memory; only its hash table is cleared.
        precondition(deflateReset(stream) == Z_OK && deflateParams(stream, level, strategy) == Z_OK)
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

    /// One chunk: its length, type, data and the CRC of type and data; no temporary arrays.
    private static func chunk(_ type: StaticString, _ data: UnsafeRawBufferPointer, into png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeBytes = UnsafeRawBufferPointer(start: type.utf8Start, count: type.utf8CodeUnitCount)
        png.append(contentsOf: typeBytes)
        png.append(contentsOf: data)
        var crc = crc32(0, type.utf8Start, uInt(typeBytes.count))
        if let base = data.baseAddress {
            crc = crc32(crc, base.assumingMemoryBound(to: UInt8.self), uInt(data.count))
        }
        appendBigEndian(UInt32(crc), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
