import RingFontData

/// The label's font: DejaVu Sans Bold's outlines for printable ASCII, Latin-1 and common
/// typographic punctuation, embedded in the binary (`RingFontData`, written by
/// `scripts/make-glyphs.py`). Other characters draw the font's `.notdef` box.
///
/// Text is laid out with the font's advance widths alone: no kerning, no hinting, as a
/// resolution-independent outline rasterised exactly.
struct GlyphSet: Sendable {
    /// One glyph: its advance and its TrueType outline, quadratic, in font units (y up).
    struct Glyph: Sendable {
        var advance: Int
        /// Each contour's points, with whether each lies on the curve.
        var contours: [[(x: Double, y: Double, onCurve: Bool)]]
    }

    let unitsPerEm: Double
    private let glyphs: [UInt32: Glyph]
    let notdef: Glyph

    /// The embedded font, parsed once.
    static let labelFont = GlyphSet(
        bytes: UnsafeBufferPointer(start: ring_font_data(), count: Int(ring_font_data_size())))

    /// Parses the format of `scripts/make-glyphs.py`. The data is ours and checked by tests, so a
    /// malformed table is a build error, not an input to recover from.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        func u8() -> UInt8 {
            defer { offset += 1 }
            return bytes[offset]
        }
        func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
        func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
        precondition(bytes.count > 8 && Array(bytes[0..<4]) == Array("RGF1".utf8), "RingFontData is not RGF1")
        offset = 4
        unitsPerEm = Double(u16())
        let count = Int(u16())
        var glyphs: [UInt32: Glyph] = [:]
        var notdef: Glyph?
        for _ in 0..<count {
            let code = u32()
            let advance = Int(u16())
            let contourCount = Int(u16())
            let pointCount = Int(u16())
            let ends = (0..<contourCount).map { _ in Int(u16()) }
            var points: [(x: Double, y: Double, onCurve: Bool)] = []
            points.reserveCapacity(pointCount)
            for _ in 0..<pointCount {
                let x = Double(Int16(bitPattern: u16()))
                let y = Double(Int16(bitPattern: u16()))
                points.append((x, y, u8() & 1 == 1))
            }
            var contours: [[(x: Double, y: Double, onCurve: Bool)]] = []
            var start = 0
            for end in ends where end >= start && end < points.count {
                contours.append(Array(points[start...end]))
                start = end + 1
            }
            let glyph = Glyph(advance: advance, contours: contours)
            if code == 0 { notdef = glyph } else { glyphs[code] = glyph }
        }
        self.glyphs = glyphs
        self.notdef = notdef ?? Glyph(advance: 0, contours: [])
    }

    /// Whether the font has its own glyph for `scalar`.
    func covers(_ scalar: Unicode.Scalar) -> Bool { glyphs[scalar.value] != nil }

    func glyph(for scalar: Unicode.Scalar) -> Glyph { glyphs[scalar.value] ?? notdef }

    /// The width of `text` at `fontSize` pixels.
    func advance(of text: String, fontSize: Double) -> Double {
        let units = text.unicodeScalars.reduce(0) { $0 + glyph(for: $1).advance }
        return Double(units) * fontSize / unitsPerEm
    }

    /// The outlines of `text` at `fontSize` pixels, centred on `centreX` (SVG's
    /// `text-anchor="middle"`) with its baseline at `baseline`, flattened to polygons.
    func outline(of text: String, fontSize: Double, centreX: Double, baseline: Double) -> Polygon {
        let scale = fontSize / unitsPerEm
        var penX = centreX - advance(of: text, fontSize: fontSize) / 2
        var polygon = Polygon()
        for scalar in text.unicodeScalars {
            let glyph = glyph(for: scalar)
            for contour in glyph.contours {
                let points = contour.map { Point(x: penX + $0.x * scale, y: baseline - $0.y * scale) }
                polygon.contours.append(Self.flatten(points, onCurve: contour.map(\.onCurve)))
            }
            penX += Double(glyph.advance) * scale
        }
        return polygon
    }

    /// A closed TrueType contour as straight edges. Between two off-curve points lies an
    /// implied on-curve point at their middle; each off-curve point is the control point of a
    /// quadratic Bézier, split into enough lines to stay within ``Polygon/tolerance``.
    static func flatten(_ points: [Point], onCurve: [Bool]) -> [Point] {
        let count = points.count
        guard count > 1 else { return points }
        func middle(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
        // Start on the curve: at an on-curve point, or between two off-curve ones.
        let first = onCurve.firstIndex(of: true)
        let start = first.map { points[$0] } ?? middle(points[0], points[1])
        let origin = first ?? 0
        var result = [start]
        var current = start
        var control: Point?
        for step in 1...count {
            let index = (origin + step) % count
            let point = points[index]
            if onCurve[index] {
                if let pending = control {
                    quadratic(from: current, pending, to: point, into: &result)
                    control = nil
                } else {
                    result.append(point)
                }
                current = point
            } else if let pending = control {
                let implied = middle(pending, point)
                quadratic(from: current, pending, to: implied, into: &result)
                current = implied
                control = point
            } else {
                control = point
            }
        }
        if let pending = control { quadratic(from: current, pending, to: start, into: &result) }
        return result
    }

    private static func quadratic(from start: Point, _ control: Point, to end: Point, into result: inout [Point]) {
        // A quadratic strays at most |p0 − 2p1 + p2| / 4 from its chord; n lines cut that by n².
        let dx = start.x - 2 * control.x + end.x
        let dy = start.y - 2 * control.y + end.y
        let deviation = (dx * dx + dy * dy).squareRoot() / 4
        let wanted = (deviation / Polygon.tolerance).squareRoot().rounded(.up)
        let count = wanted.isFinite ? Int(min(max(wanted, 1), Double(Polygon.maximumSegments))) : 1
        for index in 1...count {
            let t = Double(index) / Double(count)
            let u = 1 - t
            result.append(
                Point(
                    x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
                    y: u * u * start.y + 2 * u * t * control.y + t * t * end.y))
        }
    }
}
