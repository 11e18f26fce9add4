/// The contract's numeric limits, in one place so the parser, the docs and the tests agree.
package enum RingLimits {
    package static let size: ClosedRange<Int> = 16...1024
    /// `p`: how many concentric rings one image holds.
    package static let rings: ClosedRange<Int> = 1...4
    /// A count's range as a list's errors state it: `1 to 4`.
    package static func words(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound) to \(range.upperBound)" }
    /// `p` with `stack`: how many parts one ring holds end to end.
    package static let parts: ClosedRange<Int> = 2...8
    /// `parts`: the characters of one part's name.
    package static let partNameScalars = 40
    /// `segments`: how many equal parts the usable arc is split into.
    package static let segments: ClosedRange<Int> = 2...100
    /// The shortest segment drawn, in px along the innermost ring's centre line (caps included):
    /// shorter ones leave a faint wash instead of a segmented ring.
    package static let segmentLength = 1.0
    /// `thresholds`: steps after the base colour, as in Grafana.
    package static let thresholdSteps: ClosedRange<Int> = 1...8
    /// `scale`: the PNG's pixels per SVG pixel, for high-density screens.
    package static let scale: ClosedRange<Int> = 1...4
    package static let slice: ClosedRange<Double> = 0...0.9
    package static let decimals: ClosedRange<Int> = 0...3
    package static let animation: ClosedRange<Double> = 0...10
    package static let gradientColors: ClosedRange<Int> = 2...8
    /// Longest `label`, in unicode scalars (not graphemes, which can hide unbounded bytes).
    package static let labelScalars = 64
    /// `caption`: the second line under the label.
    package static let captionScalars = 32
    /// Longest `title`, in unicode scalars.
    package static let titleScalars = 128
    /// Largest magnitude of `p`, `min`, `max` and `start`.
    package static let magnitude: Double = 1e12
    /// `-1e12…1e12`: ``magnitude`` as errors state it.
    package static let magnitudeText = "-1e12…1e12"
    /// Numbers are read to this: a smaller magnitude reads as 0, since no ring differs below it
    /// and the canonical key keeps every number short.
    package static let smallestMagnitude: Double = 1e-9
    /// Largest magnitude of the percentage the label shows.
    package static let percentage: Double = 1e9
    /// Longest number text accepted, in bytes.
    package static let numberLength = 32

    /// `width` and `trackWidth`: more than 0, at most a third of `size`.
    package static let strokeWidth = LengthLimit(includesZero: false, sizeDivisor: 3)
    /// `gap` between concentric rings: 0 or more, at most a quarter of `size`.
    package static let ringGap = LengthLimit(includesZero: true, sizeDivisor: 4)
    /// `segmentGap`: more than 0, at most a quarter of `size`.
    package static let segmentGap = LengthLimit(includesZero: false, sizeDivisor: 4)

    /// `16…1024`: how a range reads in error messages, help and docs.
    package static func text(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)…\(range.upperBound)"
    }

    /// `0…0.9`, numbers without trailing zeros.
    package static func text(_ range: ClosedRange<Double>) -> String {
        "\(plain(range.lowerBound))…\(plain(range.upperBound))"
    }

    /// A number as the messages write it: at most three decimals, no trailing zeros. Past
    /// 1e15, where three decimals no longer fit the writer, in Swift's shortest form (`1e+16`).
    package static func plain(_ number: Double) -> String {
        guard number.magnitude < 1e15 else { return "\(number)" }
        var writer = ByteWriter(capacity: 16)
        writer.append(number: number, decimals: 3)
        return writer.text
    }
}

/// The range of a length in px whose upper bound follows `size`: from 0 (included or not) to
/// `size / sizeDivisor`.
///
/// The bound is the one the error states, at the three decimals it states: `size=20` allows
/// widths up to 6.666, and says so, rather than stating 6.667 and refusing it.
public struct LengthLimit: Sendable, Equatable {
    /// Whether 0 itself is allowed (a gap may be 0, a stroke may not).
    public var includesZero: Bool
    /// The upper bound is `size / sizeDivisor`.
    public var sizeDivisor: Int

    /// The largest value for `size`, rounded down to what `RingLimits.plain(_:)` writes.
    public func upperBound(size: Int) -> Double {
        (Double(size) / Double(sizeDivisor) * 1000).rounded(.down) / 1000
    }

    /// Whether `value` is allowed at `size`.
    public func contains(_ value: Double, size: Int) -> Bool {
        (includesZero ? value >= 0 : value > 0) && value <= upperBound(size: size)
    }

    /// `> 0 and ≤ size/3`: the rule, for help texts and docs.
    public var rule: String {
        "\(includesZero ? "≥ 0" : "> 0") and ≤ size/\(sizeDivisor)"
    }

    /// `> 0 and ≤ 6.666 (size/3)`: the range at `size`, for errors.
    public func range(size: Int) -> String {
        "\(includesZero ? "≥ 0" : "> 0") and ≤ \(RingLimits.plain(upperBound(size: size))) (size/\(sizeDivisor))"
    }
}
