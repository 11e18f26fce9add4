import Primitives

/// A TrueType font, read by our own code from the file's bytes: the embedded DejaVu Sans Bold
/// and the fallback fonts loaded at run time go through this one reader.
///
/// It reads what drawing a label needs and nothing more: `head`, `hhea`, `maxp`, `hmtx`, a
/// Unicode `cmap` (format 4 or 12), `loca` and `glyf` (simple and composite glyphs), the
/// legacy `kern` pairs, and the full name from `name`. A TrueType collection (`.ttc`) gives its
/// first face. Fonts with CFF outlines (`OTTO`, such as Noto Sans CJK's `.otf`) and bitmap-only
/// fonts (Noto Color Emoji) are refused with a message saying so.
///
/// Opening a font checks its directory and the tables' sizes; glyphs are decoded when a label
/// first asks for them and kept in a bounded cache. A glyph whose data is malformed draws
/// nothing: a hostile file can spoil its own glyphs, never the server.
///
/// **Only what every character needs stays in memory:** `cmap`, `loca`, `hmtx` and `kern`,
/// copied together at start-up. The outlines (`glyf`, nine tenths of a CJK font) stay in the
/// file, read a glyph at a time when the glyph is first drawn. Read whole, the two standard
/// fallback fonts held 8.3 MiB for the life of the process, a seventh of the memory bound's
/// 64 MiB beside the cache; their kept tables are 0.6 MiB. The file is read, not mapped: one
/// cut short while the process runs makes its glyphs draw nothing instead of a fault.
public final class TrueTypeFont: Sendable {
    /// The font's full name from its `name` table, reduced to printable ASCII, for the start-up
    /// line; `fallbackName` when the table has none.
    public let name: String
    /// Where the font was read from; nil for the embedded one.
    public let path: String?
    /// Glyphs in the font.
    public let glyphCount: Int
    let unitsPerEm: Double
    /// Which file this is: the fallback fonts' fingerprints go into PNG entity tags.
    let fingerprint: UInt64

    /// The tables kept in memory (`cmap`, `loca`, `hmtx`, `kern`), one after another; the
    /// ranges below are offsets into these bytes, not into the file.
    private let data: FontBytes
    private let limits: FontLimits
    private let characterMap: CharacterMap
    private let outlines: Outlines
    private let loca: Range<Int>
    private let longOffsets: Bool
    private let metrics: Range<Int>
    private let metricCount: Int
    private let kerning: Range<Int>?
    /// Behind a `Locked`, not a `Mutex`: ThreadSanitizer sees its pthread lock (see Primitives).
    private let cache: Locked<[UInt16: Glyph]>

    /// Reads the font in `bytes`, checking its directory and tables, and keeps its outlines
    /// in memory. `fallbackName` names it if its `name` table does not.
    public convenience init(bytes: [UInt8], fallbackName: String, limits: FontLimits = FontLimits()) throws(FontError) {
        try self.init(bytes: bytes, fallbackName: fallbackName, limits: limits, file: nil)
    }

    /// Reads the font in `bytes`, checking its directory and tables. Its outlines are read from
    /// `file` when drawn if there is one (`bytes` are then the file's contents), else kept.
    init(bytes: [UInt8], fallbackName: String, limits: FontLimits, file: FontFile?) throws(FontError) {
        guard bytes.count <= limits.maximumFileBytes else {
            throw FontError(message: "is \(bytes.count) bytes, more than the limit of \(limits.maximumFileBytes)")
        }
        let data = FontBytes(bytes: bytes)
        let tables = try Self.tableDirectory(data)
        func table(_ tag: String) throws(FontError) -> Range<Int> {
            guard let range = tables[tag] else { throw FontError(message: "has no '\(tag)' table") }
            return range
        }
        if tables["glyf"] == nil {
            if tables["CFF "] != nil || tables["CFF2"] != nil {
                throw FontError(
                    message:
                        "has CFF (PostScript) outlines, which ring does not read; use a TrueType font (.ttf or .ttc)")
            }
            throw FontError(message: "has no TrueType outlines ('glyf'), only bitmaps or none")
        }
        let head = try table("head")
        let unitsPerEm = Int(try data.u16(head.lowerBound + 18))
        guard (16...16384).contains(unitsPerEm) else {
            throw FontError(message: "has \(unitsPerEm) units per em, outside 16…16384")
        }
        let locaFormat = try data.i16(head.lowerBound + 50)
        guard locaFormat == 0 || locaFormat == 1 else { throw FontError(message: "has an unknown 'loca' format") }
        let glyphCount = Int(try data.u16(try table("maxp").lowerBound + 4))
        guard glyphCount > 0 else { throw FontError(message: "has no glyphs") }
        let loca = try table("loca")
        guard loca.count >= (glyphCount + 1) * (locaFormat == 1 ? 4 : 2) else {
            throw FontError(message: "has a 'loca' table too short for its \(glyphCount) glyphs")
        }
        let metricCount = Int(try data.u16(try table("hhea").lowerBound + 34))
        let metrics = try table("hmtx")
        guard metricCount >= 1, metricCount <= glyphCount, metrics.count >= metricCount * 4 else {
            throw FontError(message: "has an 'hmtx' table that does not match 'hhea'")
        }
        let glyf = try table("glyf")
        var kept: [UInt8] = []
        func keep(_ range: Range<Int>) -> Range<Int> {
            let start = kept.count
            kept += data.bytes[range]
            return start..<kept.count
        }
        let characterMap = keep(try table("cmap"))
        self.loca = keep(loca)
        self.metrics = keep(metrics)
        let kerning = tables["kern"].map(keep)
        self.data = FontBytes(bytes: kept)
        self.path = file?.path
        self.limits = limits
        self.unitsPerEm = Double(unitsPerEm)
        self.glyphCount = glyphCount
        self.outlines =
            if let file { Outlines(file: file, offset: glyf.lowerBound, count: glyf.count) } else {
                Outlines(table: FontBytes(bytes: Array(data.bytes[glyf])))
            }
        self.longOffsets = locaFormat == 1
        self.metricCount = metricCount
        self.characterMap = try CharacterMap(self.data, table: characterMap)
        self.kerning = kerning.flatMap { [kept = self.data] in try? Self.kernPairs(kept, table: $0) }
        self.name = tables["name"].flatMap { try? Self.fullName(data, table: $0) } ?? fallbackName
        self.fingerprint = data.fingerprint
        self.cache = Locked([:])
    }

    /// The glyph `scalar` maps to, or nil when the font does not have it.
    func glyphID(for scalar: Unicode.Scalar) -> UInt16? {
        guard let id = try? characterMap.glyph(for: scalar.value, in: data), id != 0, Int(id) < glyphCount else {
            return nil
        }
        return id
    }

    /// Whether the font has its own glyph for `scalar`.
    func covers(_ scalar: Unicode.Scalar) -> Bool { glyphID(for: scalar) != nil }

    /// Glyph `id`'s advance, in font units.
    func advance(of id: UInt16) -> Int {
        let index = min(Int(id), metricCount - 1)
        return Int((try? data.u16(metrics.lowerBound + index * 4)) ?? 0)
    }

    /// The kerning between two glyphs, in font units, from the `kern` table's pairs.
    func kerning(_ left: UInt16, _ right: UInt16) -> Int {
        guard let pairs = kerning else { return 0 }
        let key = UInt32(left) << 16 | UInt32(right)
        var (low, high) = (0, pairs.count / 6)
        while low < high {
            let middle = (low + high) / 2
            let offset = pairs.lowerBound + middle * 6
            guard let found = try? data.u32(offset) else { return 0 }
            if found == key { return Int((try? data.i16(offset + 4)) ?? 0) }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return 0
    }

    /// Glyph `id`'s outline and advance, decoded once and then cached.
    func glyph(_ id: UInt16) -> Glyph {
        if let cached = cache.withLock({ $0[id] }) { return cached }
        var budget = limits.maximumComponents
        let contours = (try? decode(id, depth: 0, budget: &budget)) ?? []
        let glyph = Glyph(advance: advance(of: id), contours: contours)
        cache.withLock { cache in
            if cache.count >= limits.cachedGlyphs { cache.removeAll(keepingCapacity: true) }
            cache[id] = glyph
        }
        return glyph
    }

    /// The number of glyphs decoded and cached now.
    var cachedGlyphCount: Int { cache.withLock { $0.count } }
}

/// One glyph: its advance and its TrueType outline, quadratic, in font units (y up).
struct Glyph: Sendable {
    var advance: Int
    var contours: [[OutlinePoint]]
}

/// A point of a TrueType outline, in font units.
struct OutlinePoint: Sendable, Equatable {
    var x: Double
    var y: Double
    var onCurve: Bool
}

// MARK: - The directory and the small tables

extension TrueTypeFont {
    /// Each table's bytes, by tag, checked to lie inside the file. A collection gives its
    /// first face's tables.
    fileprivate static func tableDirectory(_ data: FontBytes) throws(FontError) -> [String: Range<Int>] {
        var start = 0
        let tag = try data.u32(0)
        if tag == 0x7474_6366 {  // "ttcf"
            guard try data.u32(8) > 0 else { throw FontError(message: "is a collection with no fonts") }
            start = Int(try data.u32(12))
        }
        switch try data.u32(start) {
        case 0x0001_0000, 0x7472_7565: break  // TrueType, "true"
        case 0x4F54_544F:  // "OTTO"
            throw FontError(
                message: "has CFF (PostScript) outlines, which ring does not read; use a TrueType font (.ttf or .ttc)")
        default: throw FontError(message: "is not a TrueType font or collection")
        }
        let count = Int(try data.u16(start + 4))
        var tables: [String: Range<Int>] = [:]
        for index in 0..<count {
            let record = start + 12 + index * 16
            let tag = try data.u32(record)
            let offset = Int(try data.u32(record + 8))
            let length = Int(try data.u32(record + 12))
            guard data.contains(offset, count: length) else {
                throw FontError(message: "has a table that runs past the end of the file")
            }
            let name = String(
                decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: Unicode.ASCII.self)
            tables[name] = offset..<offset + length
        }
        return tables
    }

    /// The pairs of the first horizontal format-0 subtable of a version-0 `kern` table, as a
    /// range of 6-byte records sorted by (left, right).
    fileprivate static func kernPairs(_ data: FontBytes, table: Range<Int>) throws(FontError) -> Range<Int>? {
        guard try data.u16(table.lowerBound) == 0 else { return nil }  // Apple's version 1 is not read
        var subtable = table.lowerBound + 4
        for _ in 0..<Int(try data.u16(table.lowerBound + 2)) {
            let length = Int(try data.u16(subtable + 2))
            let coverage = try data.u16(subtable + 4)
            // Format 0, horizontal, neither minimum values nor cross-stream.
            if coverage >> 8 == 0, coverage & 0x7 == 1 {
                let pairs = Int(try data.u16(subtable + 6))
                let first = subtable + 14
                guard data.contains(first, count: pairs * 6), first + pairs * 6 <= table.upperBound else { return nil }
                return first..<first + pairs * 6
            }
            guard length > 0 else { return nil }
            subtable += length
        }
        return nil
    }

    /// The full name (name ID 4), preferring Windows' English record, as printable ASCII of at
    /// most 64 characters: the name is the file's word, and it goes into a log line.
    fileprivate static func fullName(_ data: FontBytes, table: Range<Int>) throws(FontError) -> String? {
        let count = Int(try data.u16(table.lowerBound + 2))
        let strings = table.lowerBound + Int(try data.u16(table.lowerBound + 4))
        var best: (rank: Int, text: String)?
        for index in 0..<min(count, 1024) {
            let record = table.lowerBound + 6 + index * 12
            let platform = try data.u16(record)
            let encoding = try data.u16(record + 2)
            let language = try data.u16(record + 4)
            guard try data.u16(record + 6) == 4 else { continue }
            let length = Int(try data.u16(record + 8))
            let offset = strings + Int(try data.u16(record + 10))
            guard data.contains(offset, count: length) else { continue }
            let raw = data.bytes[offset..<offset + length]
            let rank: Int
            var scalars: [Unicode.Scalar] = []
            switch (platform, encoding) {
            case (3, 1), (3, 10), (0, _):
                rank = platform == 3 && language == 0x409 ? 0 : 1
                var index = raw.startIndex
                while index + 1 < raw.endIndex {
                    scalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: raw[index] == 0 ? raw[index + 1] : 0)))
                    index += 2
                }
            case (1, 0):
                rank = 2
                scalars = raw.map { Unicode.Scalar($0 < 0x80 ? $0 : 0) }
            default: continue
            }
            let text = String(String.UnicodeScalarView(scalars.filter { (0x20..<0x7F).contains($0.value) }.prefix(64)))
            if !text.isEmpty, best.map({ rank < $0.rank }) ?? true { best = (rank, text) }
        }
        return best?.text
    }
}

// MARK: - cmap

/// The font's Unicode character map: the subtable chosen at start-up, looked up in place by
/// binary search (no table of the whole map is built).
private enum CharacterMap: Sendable {
    /// Segments of the Basic Multilingual Plane: the subtable's start and its segment count.
    case segments(start: Int, count: Int, end: Int)
    /// Groups of code points, any plane: the first group's offset and the group count.
    case groups(start: Int, count: Int)

    init(_ data: FontBytes, table: Range<Int>) throws(FontError) {
        var best: (rank: Int, map: CharacterMap)?
        let count = Int(try data.u16(table.lowerBound + 2))
        for index in 0..<min(count, 256) {
            let record = table.lowerBound + 4 + index * 8
            let platform = try data.u16(record)
            let encoding = try data.u16(record + 2)
            let offset = table.lowerBound + Int(try data.u32(record + 4))
            guard platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10)) else { continue }
            guard let format = try? data.u16(offset) else { continue }
            switch format {
            case 12:
                let groups = Int(try data.u32(offset + 12))
                guard data.contains(offset + 16, count: groups * 12), groups <= table.count / 12 else { continue }
                best = (0, .groups(start: offset + 16, count: groups))
            case 4 where (best?.rank ?? 2) > 1:
                let segments = Int(try data.u16(offset + 6)) / 2
                guard data.contains(offset + 16, count: segments * 8) else { continue }
                best = (1, .segments(start: offset, count: segments, end: table.upperBound))
            default: continue
            }
        }
        guard let map = best?.map else {
            throw FontError(message: "has no Unicode character map ('cmap' format 4 or 12)")
        }
        self = map
    }

    func glyph(for code: UInt32, in data: FontBytes) throws(FontError) -> UInt16 {
        switch self {
        case .groups(let start, let count):
            var (low, high) = (0, count)
            while low < high {
                let middle = (low + high) / 2
                let group = start + middle * 12
                if code < (try data.u32(group)) {
                    high = middle
                } else if code > (try data.u32(group + 4)) {
                    low = middle + 1
                } else {
                    let id = UInt64(try data.u32(group + 8)) + UInt64(code - (try data.u32(group)))
                    return id <= 0xFFFF ? UInt16(id) : 0
                }
            }
            return 0
        case .segments(let start, let count, let tableEnd):
            guard code <= 0xFFFF, count > 0 else { return 0 }
            let ends = start + 14
            let starts = ends + count * 2 + 2
            let deltas = starts + count * 2
            let rangeOffsets = deltas + count * 2
            var (low, high) = (0, count)
            while low < high {
                let middle = (low + high) / 2
                if UInt32(try data.u16(ends + middle * 2)) < code { low = middle + 1 } else { high = middle }
            }
            guard low < count else { return 0 }
            let first = UInt32(try data.u16(starts + low * 2))
            guard code >= first else { return 0 }
            let delta = try data.u16(deltas + low * 2)
            let rangeOffset = Int(try data.u16(rangeOffsets + low * 2))
            if rangeOffset == 0 { return UInt16(truncatingIfNeeded: code) &+ delta }
            let at = rangeOffsets + low * 2 + rangeOffset + Int(code - first) * 2
            guard at + 2 <= tableEnd else { return 0 }
            let id = try data.u16(at)
            return id == 0 ? 0 : id &+ delta
        }
    }
}

// MARK: - glyf

/// The `glyf` table, where a glyph's outline is read when it is first drawn: in memory (the
/// embedded font, and fonts given as bytes), or in the font file.
///
/// A struct with an optional file, not an enum with a payload for each place: Swift keeps a
/// multi-payload enum's case in spare bits of the class reference, and LeakSanitizer, which
/// then does not see a pointer there, reported every open font file as leaked at exit.
private struct Outlines: Sendable {
    /// The table's bytes when it is kept in memory; empty when it is read from ``file``.
    private let table: FontBytes
    /// The font's file, when the table is read from it, ``offset`` bytes in.
    private let file: FontFile?
    private let offset: Int
    /// The table's length.
    let count: Int

    /// The table kept in memory.
    init(table: FontBytes) {
        (self.table, file, offset, count) = (table, nil, 0, table.count)
    }

    /// The table in `file`, `count` bytes from `offset`.
    init(file: FontFile, offset: Int, count: Int) {
        (table, self.file, self.offset, self.count) = (FontBytes(bytes: []), file, offset, count)
    }

    /// The bytes in `range` of the table, on their own. A file cut short since it was opened
    /// is an error, and the glyph draws nothing.
    func read(_ range: Range<Int>) throws(FontError) -> FontBytes {
        guard let file else { return FontBytes(bytes: Array(table.bytes[range])) }
        let bytes = file.read(count: range.count, at: offset + range.lowerBound)
        guard bytes.count == range.count else { throw FontError(message: "is shorter than when it was opened") }
        return FontBytes(bytes: bytes)
    }
}

/// A component's scale or 2 × 2 matrix, in a composite glyph.
private struct Transform {
    var xx = 1.0, yx = 0.0, xy = 0.0, yy = 1.0

    static let identity = Transform()

    func apply(_ point: OutlinePoint) -> OutlinePoint {
        OutlinePoint(x: xx * point.x + xy * point.y, y: yx * point.x + yy * point.y, onCurve: point.onCurve)
    }
}

extension TrueTypeFont {
    /// Where glyph `id`'s data lies in `glyf`, from the table's start; empty for a glyph with
    /// no outline.
    private func location(of id: UInt16) throws(FontError) -> Range<Int> {
        let index = Int(id)
        let (start, end) =
            longOffsets
            ? (Int(try data.u32(loca.lowerBound + index * 4)), Int(try data.u32(loca.lowerBound + index * 4 + 4)))
            : (
                Int(try data.u16(loca.lowerBound + index * 2)) * 2,
                Int(try data.u16(loca.lowerBound + index * 2 + 2)) * 2
            )
        guard start <= end, end <= outlines.count else { throw FontError(message: "glyph \(id) lies outside 'glyf'") }
        return start..<end
    }

    /// The most bytes a glyph's data can take within the point limit: a simple glyph's header,
    /// its contours' ends and its instructions (at most 65 535 bytes), a flag and two 2-byte
    /// coordinates a point, and padding to 4 bytes. A larger claim in `loca` is refused before
    /// anything is read.
    private var maximumGlyphBytes: Int { 16 + 65_535 + 7 * limits.maximumPoints }

    /// Glyph `id`'s data, on its own: offsets in it start at 0.
    private func glyphData(_ id: UInt16) throws(FontError) -> FontBytes {
        let range = try location(of: id)
        guard range.count <= maximumGlyphBytes else { throw FontError(message: "glyph \(id) is too large") }
        return try outlines.read(range)
    }

    /// Glyph `id`'s contours in its own units, assembling a composite glyph from its
    /// components within the limits' depth, component and point budgets.
    private func decode(_ id: UInt16, depth: Int, budget: inout Int) throws(FontError) -> [[OutlinePoint]] {
        guard Int(id) < glyphCount else { throw FontError(message: "a component names a missing glyph") }
        let data = try glyphData(id)
        guard data.count > 0 else { return [] }
        let contourCount = Int(try data.i16(0))
        if contourCount >= 0 { return try simpleGlyph(data, contours: contourCount) }
        guard depth < limits.maximumComponentDepth else { throw FontError(message: "components nest too deep") }
        var assembled: [[OutlinePoint]] = []
        var pointCount = 0
        var offset = 10
        var more = true
        while more {
            budget -= 1
            guard budget >= 0 else { throw FontError(message: "a glyph has too many components") }
            let flags = try data.u16(offset)
            let component = try data.u16(offset + 2)
            offset += 4
            let (first, second): (Int, Int)
            if flags & 0x0001 != 0 {  // the arguments are words
                (first, second) = (Int(try data.i16(offset)), Int(try data.i16(offset + 2)))
                offset += 4
            } else {
                (first, second) = (
                    Int(Int8(bitPattern: try data.u8(offset))), Int(Int8(bitPattern: try data.u8(offset + 1)))
                )
                offset += 2
            }
            var local = Transform.identity
            func f2dot14(_ at: Int) throws(FontError) -> Double { Double(try data.i16(at)) / 16384 }
            if flags & 0x0008 != 0 {  // one scale
                local.xx = try f2dot14(offset)
                local.yy = local.xx
                offset += 2
            } else if flags & 0x0040 != 0 {  // x and y scales
                (local.xx, local.yy) = (try f2dot14(offset), try f2dot14(offset + 2))
                offset += 4
            } else if flags & 0x0080 != 0 {  // a 2 × 2 matrix
                (local.xx, local.yx) = (try f2dot14(offset), try f2dot14(offset + 2))
                (local.xy, local.yy) = (try f2dot14(offset + 4), try f2dot14(offset + 6))
                offset += 8
            }
            var part = try decode(component, depth: depth + 1, budget: &budget).map { $0.map(local.apply) }
            pointCount += part.reduce(0) { $0 + $1.count }
            guard pointCount <= limits.maximumPoints else { throw FontError(message: "a glyph has too many points") }
            var shift: (x: Double, y: Double)
            if flags & 0x0002 != 0 {  // the arguments are an offset
                shift = (Double(first), Double(second))
                if flags & 0x0800 != 0 {  // scaled by the component's matrix (Apple's reading)
                    shift = (local.xx * shift.x + local.xy * shift.y, local.yx * shift.x + local.yy * shift.y)
                }
            } else {  // they match a point of the glyph so far to a point of the component
                let placed = assembled.joined()
                let own = part.joined()
                guard first >= 0, first < placed.count, second >= 0, second < own.count else {
                    throw FontError(message: "a component matches a missing point")
                }
                let (target, anchor) = (Array(placed)[first], Array(own)[second])
                shift = (target.x - anchor.x, target.y - anchor.y)
            }
            if shift != (0, 0) {
                part = part.map { $0.map { OutlinePoint(x: $0.x + shift.x, y: $0.y + shift.y, onCurve: $0.onCurve) } }
            }
            assembled += part
            more = flags & 0x0020 != 0
        }
        return assembled
    }

    /// A simple glyph's contours, in font units, from its data.
    private func simpleGlyph(_ data: FontBytes, contours contourCount: Int) throws(FontError) -> [[OutlinePoint]] {
        guard contourCount > 0 else { return [] }
        var ends: [Int] = []
        ends.reserveCapacity(contourCount)
        var previous = -1
        for index in 0..<contourCount {
            let end = Int(try data.u16(10 + index * 2))
            guard end > previous else { throw FontError(message: "a glyph's contours are out of order") }
            ends.append(end)
            previous = end
        }
        let pointCount = previous + 1
        guard pointCount <= limits.maximumPoints else { throw FontError(message: "a glyph has too many points") }
        let instructions = 10 + contourCount * 2
        var offset = instructions + 2 + Int(try data.u16(instructions))
        var flags: [UInt8] = []
        flags.reserveCapacity(pointCount)
        while flags.count < pointCount {
            let flag = try data.u8(offset)
            offset += 1
            var repeats = 1
            if flag & 0x08 != 0 {
                repeats += Int(try data.u8(offset))
                offset += 1
            }
            for _ in 0..<min(repeats, pointCount - flags.count) { flags.append(flag) }
        }
        func coordinates(short: UInt8, same: UInt8) throws(FontError) -> [Int] {
            var values: [Int] = []
            values.reserveCapacity(pointCount)
            var value = 0
            for flag in flags {
                if flag & short != 0 {
                    let delta = Int(try data.u8(offset))
                    offset += 1
                    value += flag & same != 0 ? delta : -delta
                } else if flag & same == 0 {
                    value += Int(try data.i16(offset))
                    offset += 2
                }
                values.append(value)
            }
            return values
        }
        let xs = try coordinates(short: 0x02, same: 0x10)
        let ys = try coordinates(short: 0x04, same: 0x20)
        guard offset <= data.count else { throw FontError(message: "a glyph runs past its end") }
        var result: [[OutlinePoint]] = []
        var start = 0
        for end in ends {
            result.append(
                (start...end).map { OutlinePoint(x: Double(xs[$0]), y: Double(ys[$0]), onCurve: flags[$0] & 1 != 0) })
            start = end + 1
        }
        return result
    }
}
