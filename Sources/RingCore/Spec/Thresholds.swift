/// A bar colour that follows the value, as Grafana's gauge thresholds do: `base` below the first
/// step, and from each step's value upward (that value included) the step's colour.
///
/// Values are in the units of `p`, before `min` and `max` scale it, and strictly increasing.
public struct Thresholds: Sendable, Hashable {
    /// From `value` upward (that value included), the bar is `color`.
    public struct Step: Sendable, Hashable {
        /// In the units of `p`.
        public var value: Double
        /// The bar's colour from ``value`` on.
        public var color: RingColor

        /// A step at `value`.
        public init(value: Double, color: RingColor) {
            self.value = value
            self.color = color
        }
    }

    /// The bar's colour below the first step.
    public var base: RingColor
    /// The steps, their values strictly increasing.
    public var steps: [Step]

    /// Thresholds from a base colour and steps (``RingSpec/validate()`` checks them).
    public init(base: RingColor, steps: [Step]) {
        self.base = base
        self.steps = steps
    }

    /// The colour for `value`: the last step at or below it, else the base.
    public func color(for value: Double) -> RingColor {
        var color = base
        for step in steps where value >= step.value { color = step.color }
        return color
    }
}
