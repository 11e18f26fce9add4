/// A bar colour that follows the value, as Grafana's gauge thresholds do: `base` below the first
/// step, and from each step's value upward (that value included) the step's colour.
///
/// Values are in the units of `p`, before `min` and `max` scale it, and strictly increasing.
public struct Thresholds: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        public var value: Double
        public var color: RingColor

        public init(value: Double, color: RingColor) {
            self.value = value
            self.color = color
        }
    }

    public var base: RingColor
    public var steps: [Step]

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
