/// Writes small TrueType fonts for the reader's tests: the tables a label needs, with the
/// glyphs, character map, kerning and name a test asks for, so fallback fonts and hostile
/// files can be tested without any font installed.
public struct FontBuilder {
    /// A glyph: an outline of points (x, y, on the curve), or components of other glyphs.
    public enum Shape {
        case outline([[(Int, Int, Bool)]])
        /// Each component: its glyph, an offset (or, with `matching`, the point numbers of the
        /// glyph so far and of the component that must meet), and a scale.
        case composite([Component])
    }

    public struct Component {
        public var glyph: UInt16
        public var first: Int
        public var second: Int
        public var scale: Double?
        public var matching: Bool

        public init(glyph: UInt16, first: Int = 0, second: Int = 0, scale: Double? = nil, matching: Bool = false) {
            (self.glyph, self.first, self.second, self.scale, self.matching) = (glyph, first, second, scale, matching)
        }
    }

    public var unitsPerEm = 1000
    /// Glyph 0 is `.notdef`.
    public var glyphs: [(advance: Int, shape: Shape)] = [
        (500, .outline([[(50, 0, true), (450, 0, true), (450, 700, true)]]))
    ]
    public var characters: [UInt32: UInt16] = [:]
    /// 4 (the Basic Multilingual Plane) or 12.
    public var cmapFormat = 12
    public var kerning: [(UInt16, UInt16, Int16)] = []
    public var name: String?
    /// Replaces the sfnt version, for fonts that must be refused.
    public var sfntVersion: UInt32 = 0x0001_0000
    public var omitted: Set<String> = []

    /// Adds a square glyph `size` units wide for each scalar, returning its id.
    @discardableResult
    public mutating func square(for scalar: Unicode.Scalar, size: Int = 800, advance: Int = 1000) -> UInt16 {
        let id = UInt16(glyphs.count)
        glyphs.append(
            (advance, .outline([[(100, 0, true), (100 + size, 0, true), (100 + size, size, true), (100, size, true)]])))
        characters[scalar.value] = id
        return id
    }

    public init() {}

    public func bytes() -> [UInt8] {
        var glyf: [UInt8] = []
        var loca: [UInt8] = []
        for glyph in glyphs {
            loca += be32(glyf.count)
            glyf += encode(glyph.shape)
            while glyf.count % 4 != 0 { glyf.append(0) }
        }
        loca += be32(glyf.count)
        var head = [UInt8](repeating: 0, count: 54)
        head.replaceSubrange(0..<4, with: be32(0x0001_0000))
        head.replaceSubrange(18..<20, with: be16(unitsPerEm))
        head.replaceSubrange(50..<52, with: be16(1))
        var hhea = [UInt8](repeating: 0, count: 36)
        hhea.replaceSubrange(34..<36, with: be16(glyphs.count))
        let maxp = be32(0x0000_5000) + be16(glyphs.count)
        let hmtx = glyphs.flatMap { be16($0.advance) + be16(0) }
        var tables: [(String, [UInt8])] = [
            ("cmap", cmap()), ("glyf", glyf), ("head", head), ("hhea", hhea), ("hmtx", hmtx), ("loca", loca),
            ("maxp", maxp),
        ]
        if !kerning.isEmpty {
            let pairs = kerning.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            let subtable =
                be16(0) + be16(14 + pairs.count * 6) + be16(0x0001) + be16(pairs.count) + be16(0) + be16(0) + be16(0)
                + pairs.flatMap { be16(Int($0.0)) + be16(Int($0.1)) + be16(Int(UInt16(bitPattern: $0.2))) }
            tables.append(("kern", be16(0) + be16(1) + subtable))
        }
        if let name {
            let text = name.utf16.flatMap { be16(Int($0)) }
            tables.append(
                (
                    "name",
                    be16(0) + be16(1) + be16(18) + be16(3) + be16(1) + be16(0x409) + be16(4) + be16(text.count)
                        + be16(0) + text
                ))
        }
        tables.removeAll { omitted.contains($0.0) }
        var file = be32(Int(sfntVersion)) + be16(tables.count) + be16(0) + be16(0) + be16(0)
        var offset = 12 + tables.count * 16
        var body: [UInt8] = []
        for (tag, data) in tables {
            file += Array(tag.utf8) + be32(0) + be32(offset) + be32(data.count)
            var padded = data
            while padded.count % 4 != 0 { padded.append(0) }
            body += padded
            offset += padded.count
        }
        return file + body
    }

    private func encode(_ shape: Shape) -> [UInt8] {
        switch shape {
        case .outline(let contours):
            guard !contours.isEmpty else { return [] }
            var out = be16(contours.count) + [UInt8](repeating: 0, count: 8)
            var end = -1
            for contour in contours {
                end += contour.count
                out += be16(end)
            }
            out += be16(0)  // no instructions
            let points = contours.joined()
            out += points.map { $0.2 ? 1 : 0 }
            var (x, y) = (0, 0)
            for point in points {
                out += be16(Int(UInt16(bitPattern: Int16(point.0 - x))))
                x = point.0
            }
            for point in points {
                out += be16(Int(UInt16(bitPattern: Int16(point.1 - y))))
                y = point.1
            }
            return out
        case .composite(let components):
            var out = be16(0xFFFF) + [UInt8](repeating: 0, count: 8)
            for (index, component) in components.enumerated() {
                var flags = 0x0001  // words
                if !component.matching { flags |= 0x0002 }
                if component.scale != nil { flags |= 0x0008 }
                if index < components.count - 1 { flags |= 0x0020 }
                out += be16(flags) + be16(Int(component.glyph))
                out += be16(Int(UInt16(bitPattern: Int16(component.first))))
                out += be16(Int(UInt16(bitPattern: Int16(component.second))))
                if let scale = component.scale { out += be16(Int(UInt16(bitPattern: Int16(scale * 16384)))) }
            }
            return out
        }
    }

    private func cmap() -> [UInt8] {
        let sorted = characters.sorted { $0.key < $1.key }
        if cmapFormat == 12 {
            let groups = sorted.flatMap { be32(Int($0.key)) + be32(Int($0.key)) + be32(Int($0.value)) }
            let subtable = be16(12) + be16(0) + be32(16 + groups.count) + be32(0) + be32(sorted.count) + groups
            return be16(0) + be16(1) + be16(3) + be16(10) + be32(12) + subtable
        }
        let segments = sorted.filter { $0.key <= 0xFFFF }.map { (Int($0.key), Int($0.value)) } + [(0xFFFF, 0)]
        var ends: [UInt8] = []
        var starts: [UInt8] = []
        var deltas: [UInt8] = []
        for (code, id) in segments {
            ends += be16(code)
            starts += be16(code)
            deltas += be16(code == 0xFFFF ? 1 : (id - code) & 0xFFFF)
        }
        let body = ends + be16(0) + starts + deltas + [UInt8](repeating: 0, count: segments.count * 2)
        let subtable =
            be16(4) + be16(14 + body.count) + be16(0) + be16(segments.count * 2) + be16(0) + be16(0) + be16(0) + body
        return be16(0) + be16(1) + be16(3) + be16(1) + be32(12) + subtable
    }
}

public func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
public func be32(_ value: Int) -> [UInt8] { be16(value >> 16 & 0xFFFF) + be16(value & 0xFFFF) }
