import ByteGrammar

/// An sRGB colour with 8-bit channels, parsed from a URL and written back only as hex.
///
/// A colour is never passed through as text: whatever the query says, the SVG receives
/// `#rrggbb` plus, when it is not opaque, a separate opacity number.
public struct RingColor: Sendable, Hashable {
    /// The red channel, 0–255.
    public var red: UInt8
    /// The green channel, 0–255.
    public var green: UInt8
    /// The blue channel, 0–255.
    public var blue: UInt8
    /// The opacity, 0 (transparent) to 255 (opaque).
    public var alpha: UInt8

    /// A colour from its channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates a colour from `0xRRGGBB`.
    public init(rgb: UInt32) {
        self.init(red: UInt8(rgb >> 16 & 0xFF), green: UInt8(rgb >> 8 & 0xFF), blue: UInt8(rgb & 0xFF))
    }

    /// Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (the `#` optional) or a CSS named
    /// colour, case-insensitively. Returns nil for anything else.
    public init?(parsing text: String) {
        var utf8 = Substring(text).utf8
        if utf8.first == UInt8(ascii: "#") { utf8 = utf8.dropFirst() }
        if let color = Self.hex(utf8) {
            self = color
        } else if text.utf8.first != UInt8(ascii: "#"), let color = NamedColors.lookup(text) {
            self = color
        } else {
            return nil
        }
    }

    /// `#24292f, dark scheme #e6edf3`, or one colour when both schemes draw it: how the docs
    /// state a default colour.
    static func schemeText(light: RingColor?, dark: RingColor?) -> String {
        guard let light else { return "none" }
        guard let dark, dark != light else { return light.cssHex }
        return "\(light.cssHex), dark scheme \(dark.cssHex)"
    }

    /// `#2f81f7`: the colour's channels, without its alpha.
    var cssHex: String {
        var w = ByteWriter(capacity: 8)
        w.append(byte: UInt8(ascii: "#"))
        w.append(hexByte: red)
        w.append(hexByte: green)
        w.append(hexByte: blue)
        return w.text
    }

    /// The opacity in 0…1.
    public var opacity: Double { Double(alpha) / 255 }

    /// The colour `t` of the way (0…1) from `self` to `other`, channel by channel in sRGB.
    package func mixed(with other: RingColor, by t: Double) -> RingColor {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded().clamped(to: 0...255))
        }
        return RingColor(
            red: channel(red, other.red), green: channel(green, other.green),
            blue: channel(blue, other.blue), alpha: channel(alpha, other.alpha))
    }

    private static func hex(_ digits: Substring.UTF8View) -> RingColor? {
        var values: [UInt8] = []
        values.reserveCapacity(8)
        for byte in digits {
            guard let value = ByteClass.hexValue(byte), values.count < 8 else { return nil }
            values.append(value)
        }
        switch values.count {
        case 3, 4:
            let alpha = values.count == 4 ? values[3] * 17 : 255
            return RingColor(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17, alpha: alpha)
        case 6, 8:
            let alpha = values.count == 8 ? values[6] << 4 | values[7] : 255
            return RingColor(
                red: values[0] << 4 | values[1], green: values[2] << 4 | values[3],
                blue: values[4] << 4 | values[5], alpha: alpha)
        default:
            return nil
        }
    }

}

extension Comparable {
    /// `self` limited to `range`.
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}

extension ByteWriter {
    /// Appends `#rrggbb` (opacity is written separately by the caller).
    mutating func append(rgb color: RingColor) {
        append(byte: UInt8(ascii: "#"))
        append(hexByte: color.red)
        append(hexByte: color.green)
        append(hexByte: color.blue)
    }
}
