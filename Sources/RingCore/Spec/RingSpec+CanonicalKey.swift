extension RingSpec {
    /// A query string that names this ring and no other: parameters in contract order, only
    /// those that differ from their defaults, numbers as plain decimals (`72`, not `72.0`), colours as
    /// lowercase `rrggbbaa`, `start` normalised to 0…360. `p=72&color=ff0000` and
    /// `color=%23FF0000&p=72.0` both give `p=72&color=ff0000ff`.
    ///
    /// It is itself a valid query for the same ring.
    public var canonicalKey: String {
        var writer = ByteWriter(capacity: 64)
        writeCanonicalKey(into: &writer)
        return writer.text
    }

    /// This ring's identity: SHA-256 of ``canonicalKey``, truncated to 128 bits. The same on
    /// every process, machine and Swift version (unlike Swift's seeded `Hasher`), and not
    /// collidable by a URL's author. The cache, the ETag and the SVG's element ids use it.
    public var digest: RingDigest {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { scratch in
            var writer = ByteWriter(scratch: scratch)
            writeCanonicalKey(into: &writer)
            return writer.withBytes { RingDigest(of: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes the key straight into bytes: every parameter's own rule, in contract order,
    /// spelled out so each rule inlines to a comparison or two rather than a jump through a
    /// loop. `ParameterTableTests` fails for a parameter missing here.
    func writeCanonicalKey(into w: inout ByteWriter) {
        RingParameter.p.writeKey(of: self, into: &w)
        RingParameter.min.writeKey(of: self, into: &w)
        RingParameter.max.writeKey(of: self, into: &w)
        RingParameter.slice.writeKey(of: self, into: &w)
        RingParameter.half.writeKey(of: self, into: &w)
        RingParameter.start.writeKey(of: self, into: &w)
        RingParameter.dir.writeKey(of: self, into: &w)
        RingParameter.segments.writeKey(of: self, into: &w)
        RingParameter.segmentGap.writeKey(of: self, into: &w)
        RingParameter.size.writeKey(of: self, into: &w)
        RingParameter.scale.writeKey(of: self, into: &w)
        RingParameter.width.writeKey(of: self, into: &w)
        RingParameter.trackWidth.writeKey(of: self, into: &w)
        RingParameter.gap.writeKey(of: self, into: &w)
        RingParameter.color.writeKey(of: self, into: &w)
        RingParameter.gradient.writeKey(of: self, into: &w)
        RingParameter.track.writeKey(of: self, into: &w)
        RingParameter.thresholds.writeKey(of: self, into: &w)
        RingParameter.fill.writeKey(of: self, into: &w)
        RingParameter.bg.writeKey(of: self, into: &w)
        RingParameter.outline.writeKey(of: self, into: &w)
        RingParameter.cap.writeKey(of: self, into: &w)
        RingParameter.label.writeKey(of: self, into: &w)
        RingParameter.labelColor.writeKey(of: self, into: &w)
        RingParameter.caption.writeKey(of: self, into: &w)
        RingParameter.captionColor.writeKey(of: self, into: &w)
        RingParameter.decimals.writeKey(of: self, into: &w)
        RingParameter.theme.writeKey(of: self, into: &w)
        RingParameter.anim.writeKey(of: self, into: &w)
        RingParameter.shadow.writeKey(of: self, into: &w)
        RingParameter.title.writeKey(of: self, into: &w)
    }
}

extension RingParameter {
    /// Appends this parameter to a canonical key: `&name=value`, unless `spec` has the
    /// default (`p` always, and first).
    @inline(__always)
    func writeKey(of spec: borrowing RingSpec, into w: inout ByteWriter) {
        switch self {
        case .p:
            w.append("p=")
            for (index, value) in spec.values.enumerated() {
                if index > 0 { w.append(byte: UInt8(ascii: ",")) }
                CanonicalKey.number(value, into: &w)
            }
        case .min: CanonicalKey.numbers("min", spec.minimum, unless: 0, into: &w)
        case .max: CanonicalKey.numbers("max", spec.maximum, unless: 100, into: &w)
        case .slice: CanonicalKey.number("slice", spec.slice, unless: 0, into: &w)
        case .half: if spec.half { CanonicalKey.keyword("half", "1", into: &w) }
        case .start: CanonicalKey.number("start", spec.start, unless: 0, into: &w)
        case .dir: if spec.direction != .cw { CanonicalKey.keyword("dir", "ccw", into: &w) }
        case .size: if spec.size != 120 { CanonicalKey.integer("size", spec.size, into: &w) }
        case .segments: if let segments = spec.segments { CanonicalKey.integer("segments", segments, into: &w) }
        case .segmentGap:
            if let gap = spec.segmentGap {
                CanonicalKey.number("segmentGap", gap, unless: Double(spec.size) / 40, into: &w)
            }
        case .scale: break  // how the ring is rasterised, not which ring: see `RingSpec.scale`
        case .width:
            if let width = spec.width { CanonicalKey.number("width", width, unless: Double(spec.size) / 10, into: &w) }
        case .trackWidth:
            if let trackWidth = spec.trackWidth {
                CanonicalKey.number("trackWidth", trackWidth, unless: spec.resolvedWidth, into: &w)
            }
        case .gap: if let gap = spec.gap { CanonicalKey.number("gap", gap, unless: Double(spec.size) / 60, into: &w) }
        case .color: if spec.gradient.isEmpty { CanonicalKey.colors("color", spec.colors, into: &w) }
        case .gradient: CanonicalKey.colors("gradient", spec.gradient, into: &w)
        case .track:
            guard spec.tracks != [.standard] else { break }
            CanonicalKey.name("track", into: &w)
            for (index, track) in spec.tracks.enumerated() {
                if index > 0 { w.append(byte: UInt8(ascii: ",")) }
                switch track {
                // Validation refuses the default in a list; if it is there, it still differs.
                case .standard: w.append("default")
                case .none: w.append("none")
                case .color(let color): CanonicalKey.hex(color, into: &w)
                }
            }
        case .fill: CanonicalKey.color("fill", spec.fill, into: &w)
        case .bg: CanonicalKey.color("bg", spec.background, into: &w)
        case .outline: CanonicalKey.color("outline", spec.outline, into: &w)
        case .cap: if spec.cap != .round { CanonicalKey.keyword("cap", "butt", into: &w) }
        case .label:
            switch spec.label {
            case .auto: break
            case .none: CanonicalKey.keyword("label", "none", into: &w)
            case .text(let text): CanonicalKey.text("label", text, into: &w)
            }
        case .labelColor:
            switch spec.labelColor {
            case .color(let color)?: CanonicalKey.color("labelColor", color, into: &w)
            case .bar?: CanonicalKey.keyword("labelColor", "bar", into: &w)
            case nil: break
            }
        case .caption: if let caption = spec.caption { CanonicalKey.text("caption", caption, into: &w) }
        case .captionColor: CanonicalKey.color("captionColor", spec.captionColor, into: &w)
        case .thresholds:
            guard let thresholds = spec.thresholds else { break }
            CanonicalKey.name("thresholds", into: &w)
            CanonicalKey.hex(thresholds.base, into: &w)
            for step in thresholds.steps {
                w.append(byte: UInt8(ascii: ","))
                CanonicalKey.number(step.value, into: &w)
                w.append(byte: UInt8(ascii: ":"))
                CanonicalKey.hex(step.color, into: &w)
            }
        case .decimals: if spec.decimals != 0 { CanonicalKey.integer("decimals", spec.decimals, into: &w) }
        case .theme:
            switch spec.theme {
            case .auto: break
            case .light: CanonicalKey.keyword("theme", "light", into: &w)
            case .dark: CanonicalKey.keyword("theme", "dark", into: &w)
            }
        case .anim: CanonicalKey.number("anim", spec.animation, unless: 0, into: &w)
        case .shadow: if spec.shadow { CanonicalKey.keyword("shadow", "1", into: &w) }
        case .title: if let title = spec.title { CanonicalKey.text("title", title, into: &w) }
        }
    }
}

/// The pieces canonical keys are written with, one per kind of value.
enum CanonicalKey {
    /// `&name=`.
    static func name(_ parameter: StaticString, into w: inout ByteWriter) {
        w.append(byte: UInt8(ascii: "&"))
        w.append(parameter)
        w.append(byte: UInt8(ascii: "="))
    }

    static func keyword(_ parameter: StaticString, _ value: StaticString, into w: inout ByteWriter) {
        name(parameter, into: &w)
        w.append(value)
    }

    static func integer(_ parameter: StaticString, _ value: Int, into w: inout ByteWriter) {
        name(parameter, into: &w)
        w.append(integer: value)
    }

    /// The parameter, unless its value is the default.
    static func number(
        _ parameter: StaticString, _ value: Double, unless standard: Double, into w: inout ByteWriter
    ) {
        guard value != standard else { return }
        name(parameter, into: &w)
        number(value, into: &w)
    }

    /// The parameter, unless its one value is the default: one number for every ring, or a list.
    static func numbers(
        _ parameter: StaticString, _ values: [Double], unless standard: Double, into w: inout ByteWriter
    ) {
        guard values.count != 1 || values[0] != standard else { return }
        name(parameter, into: &w)
        for (index, value) in values.enumerated() {
            if index > 0 { w.append(byte: UInt8(ascii: ",")) }
            number(value, into: &w)
        }
    }

    /// The parameter, when a colour is given.
    static func color(_ parameter: StaticString, _ value: RingColor?, into w: inout ByteWriter) {
        guard let value else { return }
        name(parameter, into: &w)
        hex(value, into: &w)
    }

    /// The parameter, when the list is not empty.
    static func colors(_ parameter: StaticString, _ values: [RingColor], into w: inout ByteWriter) {
        guard !values.isEmpty else { return }
        name(parameter, into: &w)
        for (index, color) in values.enumerated() {
            if index > 0 { w.append(byte: UInt8(ascii: ",")) }
            hex(color, into: &w)
        }
    }

    static func text(_ parameter: StaticString, _ value: String, into w: inout ByteWriter) {
        name(parameter, into: &w)
        escape(value, into: &w)
    }

    /// A number's canonical text, a function of the `Double` alone and always a plain decimal
    /// the parser accepts: values exact in six decimals use the fixed-point writer, anything
    /// else the shortest round-trip digits, with an exponent spelled out as zeros.
    static func number(_ value: Double, into w: inout ByteWriter) {
        let scaled = value * 1_000_000
        if scaled.magnitude < 9e15, scaled.rounded() == scaled, scaled / 1_000_000 == value {
            w.append(number: value, decimals: 6)
            return
        }
        for byte in plainDecimal(value.description).utf8 { w.append(byte: byte) }
    }

    /// `6.3e-07` → `0.00000063`; text without an exponent is returned as it is. Validated
    /// numbers lie within 1e-9…1e12 in magnitude, where Swift prints positive exponents never.
    static func plainDecimal(_ text: String) -> String {
        // A byte scan first: Character-level search costs thousands of instructions per key.
        guard text.utf8.contains(UInt8(ascii: "e")), let e = text.firstIndex(of: "e"),
            let exponent = Int(text[text.index(after: e)...]), exponent < 0
        else {
            return text
        }
        var mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let digits = mantissa.filter { $0 != "." }
        let zeros = String(repeating: "0", count: -exponent - 1)
        var result = (negative ? "-" : "") + "0." + zeros + digits
        while result.hasSuffix("0") { result.removeLast() }
        return result
    }

    static func hex(_ color: RingColor, into w: inout ByteWriter) {
        w.append(hexByte: color.red)
        w.append(hexByte: color.green)
        w.append(hexByte: color.blue)
        w.append(hexByte: color.alpha)
    }

    /// Percent-encodes everything but unreserved characters, so the key stays a valid query.
    private static func escape(_ text: String, into w: inout ByteWriter) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                w.append(byte: byte)
            default:
                w.append(byte: UInt8(ascii: "%"))
                w.append(hexByte: byte)
            }
        }
    }
}
