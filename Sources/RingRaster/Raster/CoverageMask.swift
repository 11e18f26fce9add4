/// How much of each pixel a filled shape covers, 0…1, computed exactly from the shape's edges.
///
/// The technique of the small fast rasterisers (font-rs's accumulation buffer, stb_truetype v2):
/// every edge adds, to the cells of the rows it crosses, the signed area it sweeps towards the
/// right; a running sum along each row then gives the winding-weighted coverage of every pixel.
/// Coverage is exact for straight edges, so anti-aliasing needs no sampling. Curves are
/// flattened into lines first (``Polygon``). The fill rule is non-zero: a pixel covered by
/// contours of the same direction stays at 1, and a contour of the opposite direction cuts a hole.
///
/// The mask covers the pixels `originX..<originX+width`, `originY..<originY+height` of the
/// image; edges outside it are clipped to it.
///
/// A mask is painted from its accumulated edges (``forEachRun(columns:rows:_:)``): the running sum only
/// changes in the cells an edge wrote to, so each row keeps one bit a cell saying which, and
/// the walk visits only those, in order, by their bits; between two of them the coverage, and
/// so the run, goes on unread. Most of a ring's mask is such cells: the hole, the corners and
/// the inside of the bar. ``resolve()`` turns the cells into coverage in place, for what needs
/// every pixel's (the blur and the gradient's shader).
struct CoverageMask {
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    /// Row-major, `stride` cells a row: two more than `width`, so an edge at the right border
    /// has a cell to write its remainder to.
    var cells: [Float]
    let stride: Int
    /// Per row, ``wordsPerRow`` words of one bit a cell: whether an edge wrote to it.
    private var touched: [UInt64]
    private let wordsPerRow: Int
    /// Whether ``resolve()`` has turned the cells into coverage.
    private(set) var isResolved = false

    /// An empty mask, in `storage` when given: cells all zero, as ``takeStorage()`` gives them
    /// back, so that a mask no larger than the last needs no clearing (see ``RenderScratch``).
    init(originX: Int, originY: Int, width: Int, height: Int, storage: [Float] = []) {
        self.originX = originX
        self.originY = originY
        self.width = max(width, 0)
        self.height = max(height, 0)
        stride = self.width + 2
        assert(storage.allSatisfy { $0 == 0 }, "a mask's storage must be given back cleared")
        cells = storage
        if cells.count < stride * self.height { cells.resetToZeros(count: stride * self.height) }
        wordsPerRow = (stride + 63) >> 6
        touched = [UInt64](repeating: 0, count: wordsPerRow * self.height)
    }

    /// Gives the cells' storage back for the next mask, cleared: only the cells an edge wrote
    /// to, by their bits (a ring's mask is mostly cells none did), unless resolved.
    mutating func takeStorage() -> [Float] {
        let (stride, wordsPerRow, height) = (self.stride, self.wordsPerRow, self.height)
        if isResolved {
            cells.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            cells.withUnsafeMutableBufferPointer { cells in
                touched.withUnsafeBufferPointer { touched in
                    for row in 0..<height {
                        for word in 0..<wordsPerRow {
                            var bits = touched[row &* wordsPerRow &+ word]
                            while bits != 0 {
                                cells[row &* stride &+ (word << 6 | bits.trailingZeroBitCount)] = 0
                                bits &= bits &- 1
                            }
                        }
                    }
                }
            }
        }
        var storage: [Float] = []
        swap(&storage, &cells)
        return storage
    }

    /// The same mask in storage of its own size: to be kept while the scratch cells it was
    /// drawn in go on to the next mask.
    func compacted() -> CoverageMask {
        var copy = self
        copy.cells = Array(cells[0..<stride * height])
        return copy
    }

    /// Adds every contour of `polygon` (in image pixels). Call ``resolve()`` once after the last.
    mutating func add(_ polygon: Polygon) {
        precondition(!isResolved, "edges added to a resolved mask")
        let (originX, originY, width, height, stride, wordsPerRow) = (
            Double(originX), Double(originY), self.width, self.height, stride, wordsPerRow
        )
        cells.withUnsafeMutableBufferPointer { cells in
            touched.withUnsafeMutableBufferPointer { touched in
                let edges = Edges(
                    cells: cells.baseAddress!, touched: touched.baseAddress!, originX: originX, originY: originY,
                    width: width, height: height, stride: stride, wordsPerRow: wordsPerRow)
                for contour in polygon.contours where contour.count > 1 {
                    var previous = contour[contour.count - 1]
                    for point in contour {
                        edges.line(from: previous, to: point)
                        previous = point
                    }
                }
            }
        }
    }

    /// Where ``add(_:)`` writes: the mask's cells and bits, held for all of a polygon's edges.
    private struct Edges {
        let cells: UnsafeMutablePointer<Float>
        let touched: UnsafeMutablePointer<UInt64>
        let originX: Double
        let originY: Double
        let width: Int
        let height: Int
        let stride: Int
        let wordsPerRow: Int

        /// Accumulates one edge, row by row.
        @inline(__always)
        func line(from start: Point, to end: Point) {
            let x0 = start.x - originX
            let y0 = start.y - originY
            let x1 = end.x - originX
            let y1 = end.y - originY
            guard y0 != y1, y0.isFinite, y1.isFinite, x0.isFinite, x1.isFinite else { return }
            // Downwards edges add, upwards ones subtract: the winding direction.
            let (direction, top, bottom, topX, bottomX): (Float, Double, Double, Double, Double) =
                y0 < y1 ? (1, y0, y1, x0, x1) : (-1, y1, y0, x1, x0)
            let rows = Double(height)
            guard bottom > 0, top < rows else { return }
            let slope = (bottomX - topX) / (bottom - top)
            guard slope.isFinite else { return }  // only for numbers near the limits of Double
            let limit = Double(width)
            // Within 0…width; NaN, which no finite edge makes, to 0.
            func clamped(_ x: Double) -> Double { x > 0 ? (x < limit ? x : limit) : 0 }
            var row = Int(max(top, 0))  // not negative: truncation is the floor
            let lastRow = Self.ceiling(min(bottom, rows))
            // Where the edge enters the row; a row's exit is the next row's entry.
            var xa = clamped(topX + (max(Double(row), top) - top) * slope)
            while row < lastRow {
                let rowTop = max(Double(row), top)
                let rowBottom = min(Double(row &+ 1), bottom)
                let dy = Float(rowBottom - rowTop)
                let xb = clamped(topX + (rowBottom - top) * slope)
                let (left, right) = xa < xb ? (xa, xb) : (xb, xa)
                let (first, last) = (Int(left), Self.ceiling(right))
                accumulate(at: row &* stride, left, right, first, last, dy * direction)
                // The cells `accumulate` wrote: the left end's, to the right end's or the one
                // after the left end's, whichever is further.
                mark(row: row, first, max(last, first &+ 1))
                xa = xb
                row &+= 1
            }
        }

        /// The least whole number at least `x`, for `x` ≥ 0 (without a call to `ceil`).
        @inline(__always)
        static func ceiling(_ x: Double) -> Int {
            let whole = Int(x)
            return Double(whole) < x ? whole &+ 1 : whole
        }

        /// Sets the bits of cells `first...last` of `row`.
        @inline(__always)
        func mark(row: Int, _ first: Int, _ last: Int) {
            let words = touched + row * wordsPerRow
            let (firstWord, lastWord) = (first >> 6, last >> 6)
            let head = UInt64.max << UInt64(first & 63)
            let tail = UInt64.max >> UInt64(63 - last & 63)
            if firstWord == lastWord {
                words[firstWord] |= head & tail
                return
            }
            words[firstWord] |= head
            var word = firstWord + 1
            while word < lastWord {
                words[word] = .max
                word += 1
            }
            words[lastWord] |= tail
        }

        /// Spreads one row's share of an edge, from `left` to `right` (both within 0…width),
        /// over the cells it passes: each cell gets the area left of the edge's track within
        /// it, and the next cell the rest, so that the running sum reaches `delta` after the edge.
        /// `first` and `last` are the cells of `left` and of `right` rounded up.
        @inline(__always)
        func accumulate(at start: Int, _ left: Double, _ right: Double, _ first: Int, _ last: Int, _ delta: Float) {
            if last <= first + 1 {
                // Within one cell: the covered share is right of the track's middle.
                let middle = Float((left + right) / 2 - Double(first))
                cells[start + first] += delta * (1 - middle)
                cells[start + first + 1] += delta * middle
                return
            }
            // Across several cells: the edge is a line of slope 1/(right − left) cells per cell.
            let inverse = 1 / (right - left)
            let firstFraction = left - Double(first)
            let firstArea = 0.5 * inverse * (1 - firstFraction) * (1 - firstFraction)
            let lastFraction = right - Double(last) + 1
            let lastArea = 0.5 * inverse * lastFraction * lastFraction
            cells[start + first] += delta * Float(firstArea)
            if last == first + 2 {
                cells[start + first + 1] += delta * Float(1 - firstArea - lastArea)
            } else {
                let secondArea = inverse * (1.5 - firstFraction)
                cells[start + first + 1] += delta * Float(secondArea - firstArea)
                let step = delta * Float(inverse)
                var index = first + 2
                while index < last - 1 {
                    cells[start + index] += step
                    index += 1
                }
                let beforeLast = secondArea + Double(last - first - 3) * inverse
                cells[start + last - 1] += delta * Float(1 - beforeLast - lastArea)
            }
            cells[start + last] += delta * Float(lastArea)
        }
    }

    /// Turns the accumulated edges into coverage, in place: the running sum of each row,
    /// its magnitude clamped to 1 (non-zero winding).
    mutating func resolve() {
        guard !isResolved else { return }
        isResolved = true
        let stride = self.stride
        let width = self.width
        cells.withUnsafeMutableBufferPointer { cells in
            for row in 0..<height {
                var sum: Float = 0
                let start = row * stride
                for column in 0..<width {
                    sum += cells[start + column]
                    cells[start + column] = min(abs(sum), 1)
                }
            }
        }
    }

    /// `cover` (0…1) as one of the ``Canvas/coverageLevels`` steps of coverage, 0…31.
    @inline(__always)
    static func level(_ cover: Float) -> Int {
        // Below half a step the level is 0; so is NaN's, which hostile scene numbers can make.
        guard cover >= 0.016 else { return 0 }
        return min(Int(min(cover, 1) * Float(Canvas.coverageLevels) + 0.5), Canvas.coverageLevels)
    }

    /// A ``level(_:)`` as the 0…255 weight compositing uses.
    @inline(__always)
    static func weight(level: Int) -> Int { level &* 255 / Canvas.coverageLevels }

    /// `cover` (0…1) as the 0…255 weight compositing uses, in ``Canvas/coverageLevels`` steps.
    @inline(__always)
    static func weight(_ cover: Float) -> Int { weight(level: level(cover)) }

    /// Calls `body(row, column, count, level)` for runs of `count` pixels of one row with the
    /// same non-zero coverage ``level(_:)``, left to right and top to bottom, within the mask's
    /// `columns` and `rows` (those on the canvas); stops when `body` returns false. A level,
    /// not its weight, so that the loop over the cells does no more than round the coverage.
    ///
    /// Before ``resolve()`` only the cells an edge wrote to are read, in order by their bits:
    /// each is a run of one, and the cells up to the next written one, whose coverage is the
    /// same, a run of their own. An edge pixel is thus painted as it is read, without first
    /// comparing its level with its neighbour's; neighbouring runs may have the same level.
    /// After ``resolve()`` every cell is read, and runs are as long as they go.
    @inline(__always)
    func forEachRun(
        columns: Range<Int>, rows: Range<Int>,
        _ body: (_ row: Int, _ column: Int, _ count: Int, _ level: Int) -> Bool
    ) {
        let (stride, wordsPerRow, isResolved) = (self.stride, self.wordsPerRow, self.isResolved)
        let (first, end) = (columns.lowerBound, columns.upperBound)
        cells.withUnsafeBufferPointer { cells in
            touched.withUnsafeBufferPointer { touched in
                for row in rows {
                    let start = row &* stride
                    if isResolved {
                        var runStart = first
                        var runLevel = 0
                        for cell in first..<end {
                            let cover = cells[start &+ cell]
                            let level = cover == 1 ? Canvas.coverageLevels : Self.level(cover)
                            if level != runLevel {
                                if runLevel > 0, !body(row, runStart, cell &- runStart, runLevel) { return }
                                runStart = cell
                                runLevel = level
                            }
                        }
                        if runLevel > 0, !body(row, runStart, end &- runStart, runLevel) { return }
                        continue
                    }
                    var sum: Float = 0
                    // The level since the last written cell, and where its run (of the unwritten
                    // cells after it) began.
                    var gapLevel = 0
                    var gapStart = 0
                    for word in 0..<wordsPerRow {
                        var bits = touched[row &* wordsPerRow &+ word]
                        while bits != 0 {
                            let cell = word << 6 | bits.trailingZeroBitCount
                            bits &= bits &- 1
                            guard cell < end else { break }
                            // A cell whose writes cancelled adds nothing, and continues the gap.
                            // (Tested as bits: an integer compare, where a float one also tests
                            // for NaN; -0 takes the longer way, alike.)
                            let delta = cells[start &+ cell]
                            if delta.bitPattern == 0 { continue }
                            if gapLevel > 0, cell > gapStart, cell > first {
                                let from = max(gapStart, first)
                                if !body(row, from, cell &- from, gapLevel) { return }
                            }
                            sum += delta
                            let cover = min(abs(sum), 1)
                            // Full cover, the inside of a shape next to its edges, skips the rounding.
                            let level = cover == 1 ? Canvas.coverageLevels : Self.level(cover)
                            if level > 0, cell >= first, !body(row, cell, 1, level) { return }
                            gapLevel = level
                            gapStart = cell &+ 1
                        }
                    }
                    if gapLevel > 0, gapStart < end {
                        let from = max(gapStart, first)
                        if !body(row, from, end &- from, gapLevel) { return }
                    }
                }
            }
        }
    }

    /// The coverage of the pixel at (`column`, `row`) of the mask, after ``resolve()``.
    @inline(__always)
    func coverage(_ column: Int, _ row: Int) -> Float {
        cells[row * stride + column]
    }

    /// The cells of one row, after ``resolve()``: `width` coverages.
    func withRow<Result>(_ row: Int, _ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        cells.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[row * stride..<row * stride + width])) }
    }
}
