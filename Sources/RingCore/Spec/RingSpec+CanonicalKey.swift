extension RingSpec {
    /// A query string that names this ring and no other: parameters in contract order, only
    /// those that differ from their defaults, numbers in shortest round-trip form, colours as
    /// lowercase `rrggbbaa`, `start` normalised to 0…360. `p=72&color=ff0000` and
    /// `color=%23FF0000&p=72.0` both give `p=72&color=ff0000ff`.
    ///
    /// It is itself a valid query for the same ring.
    public var canonicalKey: String {
        var parts: [String] = ["p=" + Self.number(value)]
        func add(_ name: RingParameter, _ text: String) { parts.append(name.rawValue + "=" + text) }
        if minimum != 0 { add(.min, Self.number(minimum)) }
        if maximum != 100 { add(.max, Self.number(maximum)) }
        if slice != 0 { add(.slice, Self.number(slice)) }
        if half { add(.half, "1") }
        if start != 0 { add(.start, Self.number(start)) }
        if direction != .cw { add(.dir, direction.rawValue) }
        if size != 120 { add(.size, String(size)) }
        if let width, width != Double(size) / 10 { add(.width, Self.number(width)) }
        if let trackWidth, trackWidth != resolvedWidth { add(.trackWidth, Self.number(trackWidth)) }
        if gradient.isEmpty, let color { add(.color, Self.hex(color)) }
        if !gradient.isEmpty { add(.gradient, gradient.map(Self.hex).joined(separator: ",")) }
        switch track {
        case .standard: break
        case .none: add(.track, "none")
        case .color(let color): add(.track, Self.hex(color))
        }
        if let fill { add(.fill, Self.hex(fill)) }
        if let background { add(.bg, Self.hex(background)) }
        if let outline { add(.outline, Self.hex(outline)) }
        if cap != .round { add(.cap, cap.rawValue) }
        switch label {
        case .auto: break
        case .none: add(.label, "none")
        case .text(let text): add(.label, Self.escape(text))
        }
        if let labelColor { add(.labelColor, Self.hex(labelColor)) }
        if decimals != 0 { add(.decimals, String(decimals)) }
        if theme != .auto { add(.theme, theme.rawValue) }
        if animation != 0 { add(.anim, Self.number(animation)) }
        if shadow { add(.shadow, "1") }
        if let title { add(.title, Self.escape(title)) }
        return parts.joined(separator: "&")
    }

    /// A 64-bit FNV-1a hash of ``canonicalKey``: the same on every process and machine
    /// (unlike Swift's seeded `Hasher`). The cache, the ETag and the SVG's element ids use it.
    public var stableHash: UInt64 {
        StableHash.fnv1a64(canonicalKey.utf8)
    }

    private static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    private static func hex(_ color: RingColor) -> String {
        var writer = ByteWriter(capacity: 8)
        for channel in [color.red, color.green, color.blue, color.alpha] { writer.append(hexByte: channel) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Percent-encodes everything but unreserved characters, so the key stays a valid query.
    private static func escape(_ text: String) -> String {
        var writer = ByteWriter(capacity: text.utf8.count * 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                writer.append(byte: byte)
            default:
                writer.append(byte: UInt8(ascii: "%"))
                writer.append(hexByte: byte)
            }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Hashes that do not change between processes, machines or Swift versions.
public enum StableHash {
    /// 64-bit FNV-1a.
    @inlinable
    public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
