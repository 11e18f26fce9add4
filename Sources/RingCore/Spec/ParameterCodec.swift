/// How one parameter's value is read from a query, checked, normalised and written into the
/// canonical key, and how its help describes it. The table (``RingParameter/declare(to:)``)
/// gives each parameter one codec; the parser, validation, normalisation, the canonical key and
/// the docs all ask that codec, so no rule is written twice.
///
/// Codecs are small structs with methods, not closures: every walk over the table is a
/// generic function specialised for its visitor, so each codec's methods inline into it
/// (docs/performance.md, "The miss path").
protocol ParameterCodec: Sendable {
    associatedtype Value: Equatable & Sendable

    /// The value of `text`, the percent-decoded query value (nil for a bare name without `=`).
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Value

    /// The rules the value keeps on its own at `spec`'s size, for a spec built in code (the
    /// parser's `read` already applied those that do not depend on other parameters).
    func check(_ value: Value, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError)

    /// Whether `value` says what leaving the parameter out says, in `spec`: such a value is
    /// normalised away and stays out of the canonical key.
    func isDefault(_ value: Value, in spec: borrowing RingSpec) -> Bool

    /// The one form of `value` among those that draw the same ring: what ``isDefault(_:in:)``
    /// accepts becomes the absent form, lists of equal items become one item.
    func normalized(_ value: Value, in spec: borrowing RingSpec) -> Value

    /// Appends `value`'s canonical text (after `name=`).
    func write(_ value: Value, into w: inout ByteWriter)

    /// What the parameter accepts, for the docs and the playground.
    var kind: RingParameter.Kind { get }
    /// The values it takes, as the help and the docs show them.
    var values: String { get }
    /// What applies when it is absent, when the codec can say (`size/10`); else the table's
    /// help says it.
    var defaultText: String? { get }
    /// The value that spells the default out, when one does.
    var defaultLiteral: String? { get }
    /// One value for every ring, or a list of one per ring.
    var perRing: Bool { get }
    /// Whether the value enters the ring's identity (canonical key, digest, ETag). Only
    /// `scale` does not: it says how a PNG is rasterised, not which ring it shows.
    var identifiesRing: Bool { get }
}

extension ParameterCodec {
    var defaultText: String? { defaultLiteral }
    var perRing: Bool { false }
    var identifiesRing: Bool { true }
}

/// One kind of value's grammar: how it reads, what it keeps on its own, how the canonical key
/// spells it. ``Standard``, ``Absent`` and ``PerRing`` add what a parameter's default is.
protocol ValueGrammar: Sendable {
    associatedtype Value: Equatable & Sendable
    /// The value of `text` (nil for a bare name without `=`).
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Value
    /// What a value from code must keep; the parser's `read` already kept what does not
    /// depend on other parameters.
    func check(_ value: Value, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError)
    func write(_ value: Value, into w: inout ByteWriter)
    /// Whether `value` draws what leaving out an ``Absent`` parameter draws: a length equal to
    /// the one its absence derives (`width=12` at size 120).
    func meansAbsence(_ value: Value, in spec: borrowing RingSpec) -> Bool
    /// What an ``Absent`` parameter's absence means, when the grammar derives it (`size/10`).
    var absenceText: String? { get }
    var kind: RingParameter.Kind { get }
    var values: String { get }
}

extension ValueGrammar {
    /// What an ``Absent`` parameter's absence means, when the grammar derives it (`size/10`).
    var absenceText: String? { nil }

    /// `value` as a query spells it, when that reads back as `value`: the literal that spells
    /// a default out (`size=120`). Nil for one that has no spelling (an empty list, `track`'s
    /// scheme colour).
    func literal(of value: Value) -> String? {
        var w = ByteWriter(capacity: 16)
        write(value, into: &w)
        let text = w.text
        guard !text.isEmpty, (try? read(text, .p)) == value else { return nil }
        return text
    }

    func check(_ value: Value, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {}
    @inline(__always)
    func meansAbsence(_ value: Value, in spec: borrowing RingSpec) -> Bool { false }
}

/// A parameter with one fixed default: `size` is 120 unless given.
struct Standard<Grammar: ValueGrammar>: ParameterCodec {
    let grammar: Grammar
    let standard: Grammar.Value
    let identifiesRing: Bool

    init(_ grammar: Grammar, _ standard: Grammar.Value, identifiesRing: Bool = true) {
        self.grammar = grammar
        self.standard = standard
        self.identifiesRing = identifiesRing
    }

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Grammar.Value {
        try grammar.read(text, parameter)
    }
    @inline(__always)
    func check(_ value: Grammar.Value, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        try grammar.check(value, parameter, in: spec)
    }
    @inline(__always)
    func isDefault(_ value: Grammar.Value, in spec: borrowing RingSpec) -> Bool { value == standard }
    @inline(__always)
    func normalized(_ value: Grammar.Value, in spec: borrowing RingSpec) -> Grammar.Value { value }
    @inline(__always)
    func write(_ value: Grammar.Value, into w: inout ByteWriter) { grammar.write(value, into: &w) }
    var kind: RingParameter.Kind { grammar.kind }
    var values: String { grammar.values }
    /// The default as the grammar writes it, when that reads back as the default.
    var defaultLiteral: String? { grammar.literal(of: standard) }
}

/// A parameter that is absent (nil) unless given. What absence means may follow other
/// parameters (`width` is `size/10`); a value equal to that is normalised back to nil.
struct Absent<Grammar: ValueGrammar>: ParameterCodec {
    let grammar: Grammar
    /// Whether `none` spells absence (`fill=none`).
    let allowsNone: Bool

    init(_ grammar: Grammar, allowsNone: Bool = false) {
        self.grammar = grammar
        self.allowsNone = allowsNone
    }

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Grammar.Value? {
        if allowsNone, text == "none" { return nil }
        return try grammar.read(text, parameter)
    }
    @inline(__always)
    func check(_ value: Grammar.Value?, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        if let value { try grammar.check(value, parameter, in: spec) }
    }
    @inline(__always)
    func isDefault(_ value: Grammar.Value?, in spec: borrowing RingSpec) -> Bool {
        guard let value else { return true }
        return grammar.meansAbsence(value, in: spec)
    }
    @inline(__always)
    func normalized(_ value: Grammar.Value?, in spec: borrowing RingSpec) -> Grammar.Value? {
        isDefault(value, in: spec) ? nil : value
    }
    @inline(__always)
    func write(_ value: Grammar.Value?, into w: inout ByteWriter) {
        if let value { grammar.write(value, into: &w) }
    }
    var kind: RingParameter.Kind {
        guard allowsNone, case .color(let light, let dark, _) = grammar.kind else { return grammar.kind }
        return .color(light: light, dark: dark, allowsNone: true)
    }
    var values: String { allowsNone ? "\(grammar.values) or none" : grammar.values }
    var defaultText: String? { grammar.absenceText }
    var defaultLiteral: String? { allowsNone ? "none" : nil }
}

/// A parameter that takes one value for every ring, or a list of one per ring, outermost
/// first.
struct PerRing<Grammar: ValueGrammar>: ParameterCodec {
    /// What applies when the parameter is absent. An enum, not a list, so that walking the
    /// table builds no array.
    enum Default: Sendable {
        /// None: the values, `p`, are required, and their count is the number of rings.
        case required
        /// An empty list: the scheme's or another parameter's choice (`color`).
        case empty
        /// One item for every ring (`min=0`).
        case item(Grammar.Value)
    }

    let grammar: Grammar
    let standard: Default
    /// With `stack`, one item per part instead of one per ring (`p`, `color`).
    let perPart: Bool

    init(_ grammar: Grammar, _ standard: Default, perPart: Bool = false) {
        self.grammar = grammar
        self.standard = standard
        self.perPart = perPart
    }

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> [Grammar.Value] {
        guard perPart else {
            return try QueryValue.perRing(text ?? "", parameter.rawValue) { item throws(RingSpecError) in
                try grammar.read(item, parameter)
            }
        }
        return try QueryValue.perPart(text ?? "", parameter.rawValue) { item throws(RingSpecError) in
            try grammar.read(item, parameter)
        }
    }

    func check(_ value: [Grammar.Value], _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError)
    {
        let stacked = perPart && spec.stack
        if case .required = standard {
            // A live ring's values are its fields': the error names them.
            let name = spec.isLive ? RingParameter.field.rawValue : parameter.rawValue
            if stacked {
                // A ring of `from` and `to` has no values to count, nor has an endpoint document's
                // (no `field`): `checkStack` names what is wrong.
                guard
                    RingLimits.parts.contains(value.count) || spec.from != nil || spec.to != nil
                        || (spec.isLive && spec.fields.isEmpty)
                else {
                    throw .invalid(
                        parameter: name, value: "\(value.count) values",
                        expected: "\(RingLimits.text(RingLimits.parts)) values with stack, one per part")
                }
            } else {
                guard RingLimits.rings.contains(value.count) else {
                    throw .invalid(
                        parameter: name, value: "\(value.count) values",
                        expected: "\(RingLimits.words(RingLimits.rings)) values, one per ring (or "
                            + "\(RingLimits.words(RingLimits.parts)) parts of one ring with stack)")
                }
            }
        } else {
            let (count, noun) = stacked ? (spec.values.count, "part") : (spec.ringCount, "ring")
            guard value.count == 1 || value.count == count else {
                throw .unfit(
                    parameter: parameter.rawValue,
                    rule: "\(value.count) values for \(count) \(noun)\(count == 1 ? "" : "s"): give one value, "
                        + "or one per \(noun)")
            }
        }
        for item in value { try grammar.check(item, parameter, in: spec) }
    }

    @inline(__always)
    func isDefault(_ value: [Grammar.Value], in spec: borrowing RingSpec) -> Bool {
        switch standard {
        case .required: false
        case .empty: value.isEmpty
        case .item(let item): value.count == 1 && value[0] == item
        }
    }

    /// A list whose items are all equal says what one item says (the values excepted: they
    /// count the rings).
    @inline(__always)
    func normalized(_ value: [Grammar.Value], in spec: borrowing RingSpec) -> [Grammar.Value] {
        if case .required = standard { return value }
        guard value.count > 1, value.allSatisfy({ $0 == value[0] }) else { return value }
        return [value[0]]
    }

    @inline(__always)
    func write(_ value: [Grammar.Value], into w: inout ByteWriter) {
        for index in value.indices {
            if index > 0 { w.append(byte: UInt8(ascii: ",")) }
            grammar.write(value[index], into: &w)
        }
    }

    var kind: RingParameter.Kind { grammar.kind }
    var values: String {
        let parts = perPart ? " (or per part with stack)" : ""
        if case .required = standard {
            return "\(grammar.values); or \(RingLimits.text(RingLimits.rings)) comma-separated, one per ring"
                + (perPart ? " (\(RingLimits.text(RingLimits.parts)) parts of one ring with stack)" : "")
        }
        return "\(grammar.values); or one per ring\(parts)"
    }
    var defaultLiteral: String? {
        guard case .item(let item) = standard else { return nil }
        return grammar.literal(of: item)
    }
    var perRing: Bool { true }
}

/// A length whose default follows other parameters, written once: the spec's resolved
/// lengths, normalisation, the canonical key and the docs all read it from here.
enum DerivedLength: Sendable, Equatable {
    /// `size / divisor`.
    case sizeOver(Int)
    /// The bar's width (itself derived or given).
    case barWidth

    @inline(__always)
    func value(in spec: borrowing RingSpec) -> Double {
        switch self {
        case .sizeOver(let divisor): Double(spec.size) / Double(divisor)
        case .barWidth: spec.resolvedWidth
        }
    }

    var text: String {
        switch self {
        case .sizeOver(let divisor): "size/\(divisor)"
        case .barWidth: RingParameter.width.rawValue
        }
    }
}

/// What the table says about a parameter beyond its codec: where the docs put it, how a form
/// labels it, and a valid value other than the default.
struct ParameterAbout: Sendable {
    var group: RingParameter.Group
    /// A short human name, as a form label: `Bar colour`.
    var title: String
    /// What it does, in a few words.
    var summary: String
    /// A valid value other than the default, for docs and tests.
    var example: String
    /// What applies when it is absent, when the codec cannot say it: `required`, `none`,
    /// `#e1e4e8, dark scheme #30363d`.
    var defaultText: String?
    /// Names people write for this parameter, from other services and from CSS, UIKit and
    /// SwiftUI (`background` for `bg`, `lineWidth` for `width`): an unknown parameter with one
    /// of these names is answered with a suggestion of this one. Never accepted as the parameter.
    var aliases: [String]

    init(
        _ group: RingParameter.Group, _ title: String, _ summary: String, example: String,
        default defaultText: String? = nil, aliases: [String] = []
    ) {
        self.group = group
        self.title = title
        self.summary = summary
        self.example = example
        self.defaultText = defaultText
        self.aliases = aliases
    }
}

/// What walks the table: each parameter, in contract order, hands its visitor the spec's field,
/// its codec and what the docs say about it. `about` is built only when a visitor asks (only
/// the docs' does), so the walks on the request path handle no strings.
protocol ParameterVisitor: ~Copyable {
    associatedtype Failure: Error
    mutating func visit<Codec: ParameterCodec>(
        _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
        _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
    ) throws(Failure)
}
