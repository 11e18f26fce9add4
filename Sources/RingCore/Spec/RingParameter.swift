/// The names of the URL query parameters: the public contract, in canonical-key order. Any
/// other name is ignored.
///
/// Each parameter is declared in ``definition``: what it accepts, its default and its help.
/// Error texts, `ring render --help`, the playground's controls and the tables in
/// docs/parameters.md come from there. How a value enters a ``RingSpec`` (`assign`) and how
/// it is written into the canonical key (``writeKey(of:into:)``) are exhaustive switches: the
/// compiler asks for every case, and `ParameterTableTests` checks both against the table.
/// They are switches, not closures in the table, because they run on every cache miss and a
/// switch inlines (docs/performance.md has the measurement).
public enum RingParameter: String, Sendable, CaseIterable {
    case p, min, max, slice, half, start, dir, segments, segmentGap, size, scale, width, trackWidth, gap, color
    case gradient
    case track
    case thresholds, fill, bg, outline, cap, label, labelColor, caption, captionColor, decimals, theme, anim
    case shadow, title

    /// Every case in order, built once (`allCases` builds a new array at each use).
    static let ordered: [RingParameter] = allCases

    /// This parameter's declaration.
    public var definition: Definition {
        Definition.all.first { $0.parameter == self }!
    }

    /// The docs section a parameter is described in, in page order.
    public enum Group: String, Sendable, CaseIterable {
        case value, shape, size, colour, text, effects
    }

    /// What a parameter accepts, for help texts, the docs and the playground's controls.
    public enum Kind: Sendable, Equatable {
        /// A plain decimal, within `range` when one is given.
        case decimal(range: ClosedRange<Double>?)
        /// A length in px whose upper bound follows `size`.
        case length(LengthLimit)
        case integer(range: ClosedRange<Int>)
        /// `1/0`, `true/false`, `yes/no`, `on/off`; a bare name is true.
        case boolean
        case keyword([String])
        /// A colour; `light` and `dark` are what the ring draws in each scheme when none is
        /// given (nil: nothing).
        case color(light: RingColor?, dark: RingColor?, allowsNone: Bool)
        /// A comma-separated list of colours, as many as `count` allows.
        case colors(count: ClosedRange<Int>)
        /// A base colour and `steps` comma-separated `value:colour` pairs.
        case thresholds(steps: ClosedRange<Int>)
        /// Text of at most `limit` Unicode scalars.
        case text(limit: Int)
    }

    /// One parameter, declared once. A class, so walking the table moves references, not
    /// copies of its strings.
    public final class Definition: Sendable {
        public let parameter: RingParameter
        public let group: Group
        /// A short human name, as a form label: `Bar colour`.
        public let title: String
        /// What it does, in a few words: `bar colour along the arc`.
        public let summary: String
        public let kind: Kind
        /// The values it takes, as the docs and the help show them.
        public let values: String
        /// What applies when it is absent: `120`, `size/10`, `required`.
        public let defaultText: String
        /// The value that spells the default out, when one does: `120` for `size`, nil for
        /// `width` (whose default follows `size`).
        public let defaultValue: String?
        /// A valid value other than the default, for docs and tests.
        public let example: String
        /// The parameter takes one value for every ring or a comma-separated list of one per
        /// ring, each item of `kind` (`p` always has one per ring).
        public let perRing: Bool

        public var name: String { parameter.rawValue }
        /// The name's bytes, for matching query bytes without building a `String`.
        let nameBytes: [UInt8]

        init(
            _ parameter: RingParameter, _ group: Group, title: String, summary: String, kind: Kind, values: String,
            default defaultText: String, literal defaultValue: String?, example: String, perRing: Bool = false
        ) {
            self.parameter = parameter
            self.group = group
            self.title = title
            self.summary = summary
            self.kind = kind
            self.values = values
            self.defaultText = defaultText
            self.defaultValue = defaultValue
            self.example = example
            self.perRing = perRing
            self.nameBytes = Array(parameter.rawValue.utf8)
        }
    }
}
