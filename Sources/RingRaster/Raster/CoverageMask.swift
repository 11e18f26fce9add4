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
/// A mask is painted from its accumulated edges (``forEachRun(_:)``): the running sum only
/// changes in the cells an edge wrote to, so each row is read through one flag per
/// ``blockCells`` cells, and a block no edge touched continues the run before it without
/// being read. Most of a ring's mask is such blocks: the hole, the corners and the inside of
/// the bar. ``resolve()`` turns the cells into coverage in place, for what needs every
/// pixel's (the blur and the gradient's shader).
struct CoverageMask {
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    /// Row-major, `stride` cells a row: two more than `width`, so an edge at the right border
    /// has a cell to write its remainder to.
    var cells: [Float]
    let stride: Int
    /// Per row, one flag for each ``blockCells`` cells: whether an edge wrote to any of them.
    private var touched: [UInt8]
    private let blocksPerRow: Int
    /// Whether ``resolve()`` has turned the cells into coverage.
    private(set) var isResolved = false

    /// The cells one ``touched`` flag stands for.
    static let blockCells = 8

    /// An empty mask, in `storage` when given (its capacity is reused: see ``RenderScratch``).
    init(originX: Int, originY: Int, width: Int, height: Int, storage: [Float] = []) {
        self.originX = originX
        self.originY = originY
        self.width = max(width, 0)
        self.height = max(height, 0)
        stride = self.width + 2
        cells = storage
        cells.resetToZeros(count: stride * self.height)
        blocksPerRow = (stride + Self.blockCells - 1) / Self.blockCells
        touched = [UInt8](repeating: 0, count: blocksPerRow * self.height)
    }

    /// Gives the cells' storage back for the next mask.
    mutating func takeStorage() -> [Float] {
        var storage: [Float] = []
        swap(&storage, &cells)
        return storage
    }

    /// Adds every contour of `polygon` (in image pixels). Call ``resolve()`` once after the last.
    mutating func add(_ polygon: Polygon) {
        for contour in polygon.contours where contour.count > 1 {
            var previous = contour[contour.count - 1]
            for point in contour {
                line(from: previous, to: point)
                previous = point
            }
        }
    }

    /// Accumulates one edge.
    private mutating func line(from start: Point, to end: Point) {
        let x0 = start.x - Double(originX)
        let y0 = start.y - Double(originY)
        let x1 = end.x - Double(originX)
        let y1 = end.y - Double(originY)
        guard y0 != y1, y0.isFinite, y1.isFinite, x0.isFinite, x1.isFinite else { return }
        // Downwards edges add, upwards ones subtract: the winding direction.
        let (direction, top, bottom, topX, bottomX): (Float, Double, Double, Double, Double) =
            y0 < y1 ? (1, y0, y1, x0, x1) : (-1, y1, y0, x1, x0)
        let rows = Double(height)
        guard bottom > 0, top < rows else { return }
        let slope = (bottomX - topX) / (bottom - top)
        guard slope.isFinite else { return }  // only for numbers near the limits of Double
        let limit = Double(width)
        var row = Int(max(top, 0).rounded(.down))
        let lastRow = Int(min(bottom, rows).rounded(.up))
        let blocksPerRow = self.blocksPerRow
        precondition(!isResolved, "edges added to a resolved mask")
        cells.withUnsafeMutableBufferPointer { cells in
            touched.withUnsafeMutableBufferPointer { touched in
                while row < lastRow {
                    let rowTop = max(Double(row), top)
                    let rowBottom = min(Double(row + 1), bottom)
                    let dy = Float(rowBottom - rowTop)
                    let xa = min(max(topX + (rowTop - top) * slope, 0), limit)
                    let xb = min(max(topX + (rowBottom - top) * slope, 0), limit)
                    if xa.isFinite, xb.isFinite {
                        Self.accumulate(cells, at: row * stride, xa, xb, dy * direction)
                        // The cells `accumulate` wrote: from the left end's cell to the one
                        // after the right end's.
                        let firstBlock = Int(min(xa, xb)) / Self.blockCells
                        let lastBlock = Int(max(xa, xb).rounded(.up)) / Self.blockCells
                        for block in firstBlock...lastBlock { touched[row * blocksPerRow + block] = 1 }
                    }
                    row += 1
                }
            }
        }
    }

    /// Spreads one row's share of an edge, from `xa` to `xb` (both within 0…width), over the
    /// cells it passes: each cell gets the area left of the edge's track within it, and the
    /// next cell the rest, so that the running sum reaches `delta` after the edge.
    @inline(__always)
    private static func accumulate(
        _ cells: UnsafeMutableBufferPointer<Float>, at start: Int, _ xa: Double, _ xb: Double, _ delta: Float
    ) {
        let left = min(xa, xb)
        let right = max(xa, xb)
        let first = Int(left)
        let last = Int(right.rounded(.up))
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

    /// Calls `body(row, column, count, level)` for each run of `count` pixels of one row with
    /// the same non-zero coverage ``level(_:)``, left to right and top to bottom: a level, not
    /// its weight, so that the loop over the cells does no more than round the coverage. Before
    /// ``resolve()`` the cells are summed as they are read, and blocks no edge touched are
    /// skipped; after it, every cell is read.
    @inline(__always)
    func forEachRun(_ body: (_ row: Int, _ column: Int, _ count: Int, _ level: Int) -> Void) {
        let (width, stride, blocksPerRow, resolved) = (self.width, self.stride, self.blocksPerRow, isResolved)
        let blockCells = Self.blockCells
        cells.withUnsafeBufferPointer { cells in
            touched.withUnsafeBufferPointer { touched in
                for row in 0..<height {
                    let start = row * stride
                    var sum: Float = 0
                    var runStart = 0
                    var runLevel = 0
                    var column = 0
                    for block in 0..<(width + blockCells - 1) / blockCells {
                        let end = min(column + blockCells, width)
                        // An untouched block adds nothing to the sum: the run goes on.
                        if resolved || touched[row * blocksPerRow + block] != 0 {
                            for cell in column..<end {
                                let cover: Float
                                if resolved {
                                    cover = cells[start + cell]
                                } else {
                                    // Most cells of a touched block are beside the edge's, and
                                    // add nothing: the weight stays, and the run goes on.
                                    // (Tested as bits: an integer compare, where a float
                                    // one also tests for NaN; -0 takes the longer way, alike.)
                                    let delta = cells[start &+ cell]
                                    if delta.bitPattern == 0 { continue }
                                    sum += delta
                                    cover = min(abs(sum), 1)
                                }
                                // Full cover, the inside of a shape next to its edges, skips
                                // the rounding.
                                let level = cover == 1 ? Canvas.coverageLevels : Self.level(cover)
                                if level != runLevel {
                                    if runLevel > 0 { body(row, runStart, cell &- runStart, runLevel) }
                                    runStart = cell
                                    runLevel = level
                                }
                            }
                        }
                        column = end
                    }
                    if runLevel > 0 { body(row, runStart, width - runStart, runLevel) }
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
