extension RingParameter {
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
        /// A BCP 47 tag naming one of `tags` (CLDR's locales), or a longer tag one of them
        /// starts (`de-DE` is `de`).
        case locale(tags: [String])
        /// A colour; `light` and `dark` are what the ring draws in each scheme when none is
        /// given (nil: nothing).
        case color(light: RingColor?, dark: RingColor?, allowsNone: Bool)
        /// A comma-separated list of colours, as many as `count` allows.
        case colors(count: ClosedRange<Int>)
        /// A base colour and `steps` comma-separated `value:colour` pairs.
        case thresholds(steps: ClosedRange<Int>)
        /// Text of at most `limit` Unicode scalars.
        case text(limit: Int)
        /// An absolute URL (`src`).
        case source
        /// Paths into a JSON document (`field`, `maxField`).
        case paths
        /// An RFC 3339 date or date-time (`from`, `to`).
        case moment
    }

    /// One parameter, declared once. A class, so walking the table moves references, not
    /// copies of its strings.
    public final class Definition: Sendable {
        /// The parameter declared.
        public let parameter: RingParameter
        /// The docs section it is described in.
        public let group: Group
        /// A short human name, as a form label: `Bar colour`.
        public let title: String
        /// What it does, in a few words: `bar colour along the arc`.
        public let summary: String
        /// What it accepts.
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
        /// Whether the value enters the canonical key, the digest and the ETag (all but `scale`).
        public let identifiesRing: Bool
        /// Other names people write for it (`background` for `bg`), suggested when a query
        /// uses one; never accepted in its place.
        public let aliases: [String]

        /// Its name in a query: `segmentGap`.
        public var name: String { parameter.rawValue }
        /// The name's bytes, for matching query bytes without building a `String`.
        let nameBytes: [UInt8]

        init<Codec: ParameterCodec>(_ parameter: RingParameter, _ codec: Codec, _ about: ParameterAbout) {
            self.parameter = parameter
            self.group = about.group
            self.title = about.title
            self.summary = about.summary
            self.kind = codec.kind
            self.values = codec.values
            self.defaultText = about.defaultText ?? codec.defaultText ?? "none"
            self.defaultValue = codec.defaultLiteral
            self.example = about.example
            self.perRing = codec.perRing
            self.identifiesRing = codec.identifiesRing
            self.aliases = about.aliases
            self.nameBytes = Array(parameter.rawValue.utf8)
        }
    }
}

extension RingParameter.Definition {
    /// Every parameter's declaration, in contract order: the table, described.
    public static let all: [RingParameter.Definition] = {
        var describer = Describer()
        var spec = RingSpec(values: [])
        RingParameter.declare(to: &describer, in: &spec)
        return describer.definitions
    }()

    /// Each parameter's name bytes, by position: the parser matches every name of every query
    /// against these.
    static let names: [[UInt8]] = all.map(\.nameBytes)

    private struct Describer: ParameterVisitor {
        typealias Failure = Never
        var definitions: [RingParameter.Definition] = []

        mutating func visit<Codec: ParameterCodec>(
            _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
            _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
        ) {
            definitions.append(RingParameter.Definition(parameter, codec, about()))
        }
    }
}
