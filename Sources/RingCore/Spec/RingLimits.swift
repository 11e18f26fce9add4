/// The contract's numeric limits, in one place so the parser, the docs and the tests agree.
public enum RingLimits {
    public static let size: ClosedRange<Int> = 16...1024
    /// `p`: how many concentric rings one image holds.
    public static let rings: ClosedRange<Int> = 1...4
    /// `segments`: how many equal parts the usable arc is split into.
    public static let segments: ClosedRange<Int> = 2...100
    /// The shortest segment drawn, in px along the innermost ring's centre line (caps included):
    /// shorter ones leave a faint wash instead of a segmented ring.
    public static let segmentLength = 1.0
    /// `thresholds`: steps after the base colour, as in Grafana.
    public static let thresholdSteps: ClosedRange<Int> = 1...8
    /// `scale`: the PNG's pixels per SVG pixel, for high-density screens.
    public static let scale: ClosedRange<Int> = 1...4
    public static let slice: ClosedRange<Double> = 0...0.9
    public static let decimals: ClosedRange<Int> = 0...3
    public static let animation: ClosedRange<Double> = 0...10
    public static let gradientColors: ClosedRange<Int> = 2...8
    /// Longest `label`, in unicode scalars (not graphemes, which can hide unbounded bytes).
    public static let labelScalars = 64
    /// `caption`: the second line under the label.
    public static let captionScalars = 32
    /// Longest `title`, in unicode scalars.
    public static let titleScalars = 128
    /// Largest magnitude of `p`, `min`, `max` and `start`.
    public static let magnitude: Double = 1e12
    /// Smallest magnitude of a non-zero number: below it no ring differs, and the canonical key
    /// could not write the value back within `numberLength` characters.
    public static let smallestMagnitude: Double = 1e-9
    /// Largest magnitude of the percentage the label shows.
    public static let percentage: Double = 1e9
    /// Longest number text accepted, in bytes.
    public static let numberLength = 32

    /// `16…1024`: how a range reads in error messages, help and docs.
    public static func text(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)…\(range.upperBound)"
    }

    /// `0…0.9`, numbers without trailing zeros.
    public static func text(_ range: ClosedRange<Double>) -> String {
        "\(plain(range.lowerBound))…\(plain(range.upperBound))"
    }

    /// A number as the messages write it: at most three decimals, no trailing zeros.
    package static func plain(_ number: Double) -> String {
        var writer = ByteWriter(capacity: 16)
        writer.append(number: number, decimals: 3)
        return writer.text
    }
}
