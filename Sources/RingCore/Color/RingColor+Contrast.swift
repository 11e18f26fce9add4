#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RingColor {
    /// WCAG 2 relative luminance of the colour's RGB, 0 (black) … 1 (white).
    package var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio with `other`, 1 … 21, of the colours' RGB.
    package func contrast(with other: RingColor) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// `self` painted over the opaque `backdrop`.
    package func over(_ backdrop: RingColor) -> RingColor {
        let alpha = opacity
        func channel(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Double(top) * alpha + Double(bottom) * (1 - alpha)).rounded())
        }
        return RingColor(
            red: channel(red, backdrop.red), green: channel(green, backdrop.green), blue: channel(blue, backdrop.blue))
    }
}
