/// The label's and the caption's words: percentages as the label reads them, and placeholders
/// replaced.
extension RingScene {
    /// Label or caption text with `{p}` (the first ring) and `{p1}`…`{p4}` (each ring) replaced
    /// by the percentages: the first ring's, then the others'. Validation has refused
    /// placeholders of rings that do not exist.
    static func substitute(_ text: String, _ first: String, _ others: [String]) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = text.replacing("{p}", with: first).replacing("{p1}", with: first)
        for (index, percentage) in others.enumerated() {
            result = result.replacing("{p\(index + 2)}", with: percentage)
        }
        return result
    }

    /// The percentage as the label shows it, e.g. `72%` or `72.50%` with `decimals=2`.
    ///
    /// It never claims more or less than the ring shows: a ring with a mark (above 0 %) whose
    /// value rounds to 0 at its precision reads `<1%` (`<0.1%`), since rounding up to `1%` would
    /// overstate 0.001 % a thousand times; an open ring (below 100 %) whose value rounds to 100
    /// reads the largest value under 100 (`99%`, `99.9%`), which is off by less than one unit
    /// and, unlike `>99%`, no wider than `100%`, so labels keep their size.
    package static func percentageText(_ spec: borrowing RingSpec, ring index: Int = 0) -> String {
        percentageText(spec.shown(index).percentage, spec)
    }

    /// `percentage` as ``percentageText(_:ring:)`` writes a ring's: a stack's whole, say.
    package static func percentageText(_ percentage: Double, _ spec: borrowing RingSpec) -> String {
        var shown = percentage
        let scale = [1.0, 10, 100, 1000][spec.decimals]
        if shown > 0, shown < 100 {
            let units = (shown * scale).rounded(.toNearestOrAwayFromZero)
            if units >= 100 * scale { shown = (100 * scale - 1) / scale }
            if units <= 0 { return text("<", 1 / scale, decimals: spec.decimals, spec.locale) }
        }
        return text(nil, shown, decimals: spec.decimals, spec.locale)
    }

    /// `value`'s percentage of ring `index`'s range, as the title names a target: exact to the
    /// ring's decimals, unclamped.
    static func percentageText(of value: Double, _ spec: borrowing RingSpec, ring index: Int) -> String {
        let ring = spec.ring(index)
        return text(
            nil, (value - ring.minimum) / (ring.maximum - ring.minimum) * 100, decimals: spec.decimals, spec.locale)
    }

    /// A stack's accessible name: each part's name (`parts`), value and percentage, e.g.
    /// `passed 120 (88%), failed 12 (9%), skipped 5 (4%)`, and the target's percentage.
    static func stackTitle(_ spec: borrowing RingSpec, percentages: [String]) -> String {
        var items: [String] = []
        for index in spec.values.indices {
            let name = index < spec.partNames.count ? "\(spec.partNames[index]) " : ""
            items.append("\(name)\(RingLimits.plain(spec.values[index])) (\(percentages[index]))")
        }
        if let target = spec.ring(0).target {
            items.append("target \(percentageText(of: target, spec, ring: 0))")
        }
        return items.joined(separator: ", ")
    }

    /// `72%`, or with a sign before it, `<1%`; with a locale, as it writes them (`72 %`, `<%1`).
    static func text(_ sign: Unicode.Scalar?, _ value: Double, decimals: Int, _ locale: PercentFormat?) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
            var writer = ByteWriter(scratch: scratch)
            if locale == nil, let sign { writer.append(byte: UInt8(sign.value)) }
            writer.append(number: value, decimals: decimals, keepZeros: true)
            guard let locale else {
                writer.append(byte: UInt8(ascii: "%"))
                return writer.text
            }
            return locale.write(writer.text, sign: sign.map(String.init) ?? "")
        }
    }

    /// The widest percentage a value within its range reads at `decimals`: `100%` (`<1%` and
    /// `99%` are narrower in the label's font). Labels are sized for it, so neighbouring values
    /// never change the label's size; a value beyond the range that needs more digits is sized
    /// for its own text.
    static func widestPercentageText(decimals: Int, _ locale: PercentFormat?) -> String {
        text(nil, 100, decimals: decimals, locale)
    }
}
