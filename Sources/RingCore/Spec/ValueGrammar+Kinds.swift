/// The grammars the table's parameters use. Each reads with ``QueryValue``, whose errors name
/// the parameter, the value and what would have been accepted, and states its range in the
/// words its errors use.

/// A plain decimal: within `range`, or of magnitude at most 1e12 without one.
struct DecimalGrammar: ValueGrammar {
    var range: ClosedRange<Double>?
    /// An angle, read modulo 360 into 0…360 (`start=-90` is `start=270`).
    var turns = false
    /// A value on the ring's scale (`p`, `target`): its range follows the ring's `min` and
    /// `max` as well (``RingSpec/valueRange(of:)``), so validation checks it once the ring is
    /// known and states the range it enforces; reading only bounds the text.
    var onScale = false

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Double {
        let number =
            if let range {
                try QueryValue.decimal(text ?? "", parameter.rawValue, in: range)
            } else if onScale {
                try QueryValue.number(text ?? "", parameter.rawValue)
            } else {
                try QueryValue.decimal(text ?? "", parameter.rawValue)
            }
        guard turns else { return number }
        let degrees = number.truncatingRemainder(dividingBy: 360)
        return degrees < 0 ? degrees + 360 : degrees + 0  // + 0 turns -0 into 0
    }

    func check(_ value: Double, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        guard !onScale else { return }
        let inside = range?.contains(value) ?? (value.isFinite && value.magnitude <= RingLimits.magnitude)
        guard inside else {
            throw .outOfRange(
                parameter: parameter.rawValue, value: "\(value)",
                range: range.map(RingLimits.text) ?? RingLimits.magnitudeText)
        }
    }

    @inline(__always)
    func write(_ value: Double, into w: inout ByteWriter) { CanonicalKey.number(value, into: &w) }
    var kind: RingParameter.Kind { .decimal(range: range) }
    var values: String { range.map(RingLimits.text) ?? "decimal, -1e12…1e12" }
}

/// A whole number within `range`.
struct CountGrammar: ValueGrammar {
    var range: ClosedRange<Int>
    /// The ring's layout may narrow the range (`ticks`): validation checks the count once
    /// the layout is known and states the range it enforces; reading only bounds the text.
    var fitted = false

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Int {
        try QueryValue.integer(text ?? "", parameter.rawValue, in: fitted ? 0...Int.max : range)
    }

    func check(_ value: Int, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        guard !fitted else { return }
        guard range.contains(value) else {
            throw .outOfRange(parameter: parameter.rawValue, value: "\(value)", range: RingLimits.text(range))
        }
    }

    @inline(__always)
    func write(_ value: Int, into w: inout ByteWriter) { w.append(integer: value) }
    var kind: RingParameter.Kind { .integer(range: range) }
    var values: String { "whole number \(RingLimits.text(range))" }
}

/// A length in px, from 0 to a bound that follows `size`; `absence` is what the parameter's
/// absence means.
struct LengthGrammar: ValueGrammar {
    var limit: LengthLimit
    var absence: DerivedLength

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Double {
        try QueryValue.number(text ?? "", parameter.rawValue)
    }

    /// The bound the error states, at the three decimals it states (`LengthLimit`).
    func check(_ value: Double, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        guard limit.contains(value, size: spec.size) else {
            throw .outOfRange(
                parameter: parameter.rawValue, value: RingLimits.plain(value), range: limit.range(size: spec.size))
        }
    }

    @inline(__always)
    func meansAbsence(_ value: Double, in spec: borrowing RingSpec) -> Bool { value == absence.value(in: spec) }
    @inline(__always)
    func write(_ value: Double, into w: inout ByteWriter) { CanonicalKey.number(value, into: &w) }
    var kind: RingParameter.Kind { .length(limit) }
    var values: String { limit.rule }
    var absenceText: String? { absence.text }
}

/// `1/0`, `true/false`, `yes/no`, `on/off`; a bare name is true.
struct FlagGrammar: ValueGrammar {
    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Bool {
        try QueryValue.boolean(text, parameter.rawValue)
    }
    @inline(__always)
    func write(_ value: Bool, into w: inout ByteWriter) { w.append(value ? "1" : "0") }
    var kind: RingParameter.Kind { .boolean }
    var values: String { "boolean" }
}

/// One of an enum's raw values.
struct KeywordGrammar<Keyword: RawRepresentable & CaseIterable & Equatable & Sendable>: ValueGrammar
where Keyword.RawValue == String {
    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Keyword {
        try QueryValue.keyword(text ?? "", parameter.rawValue)
    }
    @inline(__always)
    func write(_ value: Keyword, into w: inout ByteWriter) {
        for byte in value.rawValue.utf8 { w.append(byte: byte) }
    }
    var kind: RingParameter.Kind { .keyword(QueryValue.keywords(Keyword.self)) }
    var values: String { QueryValue.keywords(Keyword.self).joined(separator: ", ") }
}

/// A colour parameter's default: what the ring draws in each scheme when none is given.
struct SchemeDefault: Sendable, Equatable {
    let light: RingColor
    let dark: RingColor
}

/// A colour, with its ``SchemeDefault`` if it has one.
struct ColorGrammar: ValueGrammar {
    var standard: SchemeDefault?

    init(_ standard: SchemeDefault? = nil) { self.standard = standard }

    var light: RingColor? { standard?.light }
    var dark: RingColor? { standard?.dark }

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> RingColor {
        try QueryValue.color(text ?? "", parameter.rawValue)
    }
    @inline(__always)
    func write(_ value: RingColor, into w: inout ByteWriter) { CanonicalKey.hex(value, into: &w) }
    var kind: RingParameter.Kind { .color(light: light, dark: dark, allowsNone: false) }
    var values: String { "colour" }
    /// `#24292f, dark scheme #e6edf3`: what an absent colour draws, for the docs.
    var schemeText: String { RingColor.schemeText(light: light, dark: dark) }
}

/// A value that is a colour or one keyword: a track's `none`, a label's `bar`.
protocol ColorOrKeyword: Equatable, Sendable {
    /// The keyword, and the value it reads as.
    static var keyword: StaticString { get }
    static var keywordValue: Self { get }
    init(color: RingColor)
    /// The colour, for a value that is one.
    var color: RingColor? { get }
}

extension RingSpec.Paint: ColorOrKeyword {
    static var keyword: StaticString { "none" }
    static var keywordValue: Self { .none }
    init(color: RingColor) { self = .color(color) }
    var color: RingColor? {
        if case .color(let color) = self { return color }
        return nil
    }
}

extension RingSpec.LabelColor: ColorOrKeyword {
    static var keyword: StaticString { "bar" }
    static var keywordValue: Self { .bar }
    init(color: RingColor) { self = .color(color) }
    var color: RingColor? {
        if case .color(let color) = self { return color }
        return nil
    }
}

/// A colour, or the value's keyword: `track=none`, `labelColor=bar`.
struct ColorOrKeywordGrammar<Value: ColorOrKeyword>: ValueGrammar {
    var colors: ColorGrammar

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Value {
        if let text,
            text.utf8.elementsEqual(
                UnsafeBufferPointer(start: Value.keyword.utf8Start, count: Value.keyword.utf8CodeUnitCount))
        {
            return Value.keywordValue
        }
        return Value(color: try colors.read(text, parameter))
    }

    @inline(__always)
    func write(_ value: Value, into w: inout ByteWriter) {
        if let color = value.color {
            CanonicalKey.hex(color, into: &w)
        } else if value == Value.keywordValue {
            w.append(Value.keyword)
        } else {
            // A track list's scheme default, which validation refuses; if it is there, it
            // still differs from every value that reads.
            w.append("default")
        }
    }

    var kind: RingParameter.Kind {
        .color(light: colors.light, dark: colors.dark, allowsNone: "\(Value.keyword)" == "none")
    }
    var values: String { "colour or \(Value.keyword)" }
}

/// `count` comma-separated colours.
struct ColorListGrammar: ValueGrammar {
    var count: ClosedRange<Int>

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> [RingColor] {
        try QueryValue.colors(text ?? "", parameter.rawValue, count: count)
    }

    func check(_ value: [RingColor], _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        guard count.contains(value.count) else {
            throw .invalid(
                parameter: parameter.rawValue, value: "\(value.count) colours",
                expected: "\(count.lowerBound) to \(count.upperBound) colours")
        }
    }

    @inline(__always)
    func write(_ value: [RingColor], into w: inout ByteWriter) {
        for index in value.indices {
            if index > 0 { w.append(byte: UInt8(ascii: ",")) }
            CanonicalKey.hex(value[index], into: &w)
        }
    }

    var kind: RingParameter.Kind { .colors(count: count) }
    var values: String { "\(RingLimits.text(count)) comma-separated colours" }
}

/// `BASE,V1:C1,…`: a base colour and `steps` value:colour pairs, values increasing.
struct ThresholdsGrammar: ValueGrammar {
    var steps: ClosedRange<Int>

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Thresholds {
        try QueryValue.thresholds(text ?? "", parameter.rawValue, steps: steps)
    }

    func check(_ value: Thresholds, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        guard steps.contains(value.steps.count),
            zip(value.steps, value.steps.dropFirst()).allSatisfy({ $0.value < $1.value }),
            value.steps.allSatisfy({ $0.value.isFinite && $0.value.magnitude <= RingLimits.magnitude })
        else {
            throw .invalid(
                parameter: parameter.rawValue, value: "\(value.steps.count) steps",
                expected: "\(steps.lowerBound) to \(steps.upperBound) steps with finite values that increase")
        }
    }

    func write(_ value: Thresholds, into w: inout ByteWriter) {
        CanonicalKey.hex(value.base, into: &w)
        for step in value.steps {
            w.append(byte: UInt8(ascii: ","))
            CanonicalKey.number(step.value, into: &w)
            w.append(byte: UInt8(ascii: ":"))
            CanonicalKey.hex(step.color, into: &w)
        }
    }

    var kind: RingParameter.Kind { .thresholds(steps: steps) }
    var values: String { "BASE,V1:C1,… with \(RingLimits.text(steps)) steps, values increasing" }
}

/// Non-empty text of at most `limit` Unicode scalars; with `placeholders`, `{p}` and
/// `{p1}`…`{p4}` stand for percentages and must name rings that exist.
struct TextGrammar: ValueGrammar {
    var limit: Int
    var placeholders: Bool

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> String {
        let text = text ?? ""
        guard !text.isEmpty else {
            throw .invalid(parameter: parameter.rawValue, value: text, expected: "non-empty text")
        }
        return try QueryValue.text(text, parameter.rawValue, limit: limit)
    }

    func check(_ value: String, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        _ = try QueryValue.text(value, parameter.rawValue, limit: limit)
        guard placeholders else { return }
        // A stack's placeholders name its parts, as concentric rings' name the rings.
        let rings = spec.values.count
        let noun = spec.stack ? "part" : "ring"
        for index in 0...9 where !(1...rings).contains(index) && value.contains("{p\(index)}") {
            throw .unfit(
                parameter: parameter.rawValue,
                rule: "{p\(index)} names a \(noun) that is not there: with \(rings) "
                    + (rings == 1 ? "\(noun), use {p} or {p1}" : "\(noun)s, use {p1} to {p\(rings)}"))
        }
    }

    @inline(__always)
    func write(_ value: String, into w: inout ByteWriter) { CanonicalKey.escape(value, into: &w) }
    var kind: RingParameter.Kind { .text(limit: limit) }
    var values: String {
        "text of at most \(limit) characters" + (placeholders ? " in which {p} stands for the percentage" : "")
    }
}

/// The label: `auto` (the percentage, the default), `none`, or text. `{p}` alone is `auto`.
struct LabelCodec: ParameterCodec {
    var text: TextGrammar

    func read(_ value: String?, _ parameter: RingParameter) throws(RingSpecError) -> RingSpec.Label {
        switch value ?? "" {
        case "auto": return .auto
        case "none": return .none
        case "": throw .invalid(parameter: parameter.rawValue, value: "", expected: "auto, none or text")
        case let value: return .text(try text.read(value, parameter))
        }
    }

    func check(_ value: RingSpec.Label, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        if case .text(let value) = value { try text.check(value, parameter, in: spec) }
    }

    @inline(__always)
    func isDefault(_ value: RingSpec.Label, in spec: borrowing RingSpec) -> Bool {
        switch value {
        case .auto: true
        case .none: false
        case .text(let text): text == "{p}"
        }
    }

    @inline(__always)
    func normalized(_ value: RingSpec.Label, in spec: borrowing RingSpec) -> RingSpec.Label {
        isDefault(value, in: spec) ? .auto : value
    }

    func write(_ value: RingSpec.Label, into w: inout ByteWriter) {
        switch value {
        case .auto: break
        case .none: w.append("none")
        case .text(let value): text.write(value, into: &w)
        }
    }

    var kind: RingParameter.Kind { text.kind }
    var values: String { "auto (the percentage), none, or \(text.values)" }
    var defaultLiteral: String? { "auto" }
}

/// A value of `Grammar`, or `none` for no value: a per-ring list's way of skipping a ring
/// (`target=80,none`).
struct NoneOr<Grammar: ValueGrammar>: ValueGrammar {
    var grammar: Grammar

    init(_ grammar: Grammar) { self.grammar = grammar }

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Grammar.Value? {
        text == "none" ? nil : try grammar.read(text, parameter)
    }

    func check(_ value: Grammar.Value?, _ parameter: RingParameter, in spec: borrowing RingSpec)
        throws(RingSpecError)
    {
        if let value { try grammar.check(value, parameter, in: spec) }
    }

    @inline(__always)
    func write(_ value: Grammar.Value?, into w: inout ByteWriter) {
        if let value { grammar.write(value, into: &w) } else { w.append("none") }
    }

    var kind: RingParameter.Kind { grammar.kind }
    var values: String { "\(grammar.values), or none" }
}

/// A decimal, or `sum`: the sum of a stack's parts (``RingSpec/sumOfParts``), for `max`.
struct SumOr<Grammar: ValueGrammar>: ValueGrammar where Grammar.Value == Double {
    var grammar: Grammar

    init(_ grammar: Grammar) { self.grammar = grammar }

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Double {
        text == "sum" ? RingSpec.sumOfParts : try grammar.read(text, parameter)
    }

    func check(_ value: Double, _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        if value != RingSpec.sumOfParts { try grammar.check(value, parameter, in: spec) }
    }

    @inline(__always)
    func write(_ value: Double, into w: inout ByteWriter) {
        if value == RingSpec.sumOfParts { w.append("sum") } else { grammar.write(value, into: &w) }
    }

    var kind: RingParameter.Kind { grammar.kind }
    var values: String { "\(grammar.values), or sum (with stack: the parts fill the ring)" }
}

/// Names of a stack's parts, one per part, for the title: comma-separated text.
struct NamesGrammar: ValueGrammar {
    var limit: Int

    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> [String] {
        try QueryValue.parts(text ?? "", parameter.rawValue) { item throws(RingSpecError) in
            try QueryValue.text(item, parameter.rawValue, limit: limit)
        }
    }

    func check(_ value: [String], _ parameter: RingParameter, in spec: borrowing RingSpec) throws(RingSpecError) {
        for name in value { _ = try QueryValue.text(name, parameter.rawValue, limit: limit) }
    }

    @inline(__always)
    func write(_ value: [String], into w: inout ByteWriter) {
        for index in value.indices {
            if index > 0 { w.append(byte: UInt8(ascii: ",")) }
            CanonicalKey.escape(value[index], into: &w)
        }
    }

    /// The whole list's characters: every name at its longest, and the commas.
    var kind: RingParameter.Kind {
        .text(limit: limit * RingLimits.parts.upperBound + RingLimits.parts.upperBound - 1)
    }
    var values: String {
        "\(RingLimits.text(RingLimits.parts)) comma-separated names of at most \(limit) characters, one per part"
    }
}

/// A BCP 47 tag naming one of CLDR's percent formats (``PercentFormat/named(_:)``), written in
/// the canonical key as CLDR spells the locale found (`fr-FR` is `fr`). A locale that writes
/// percentages as no locale does (`en`: `72%`, `72.5%`) means what its absence means.
struct LocaleGrammar: ValueGrammar {
    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> PercentFormat {
        let text = text ?? ""
        guard let format = PercentFormat.named(text) else {
            throw .invalid(
                parameter: parameter.rawValue, value: text,
                expected: "a BCP 47 tag of one of the \(PercentFormat.languages.count) languages with CLDR's "
                    + "percent formats here, such as fr, de-CH or ja")
        }
        return format
    }

    func meansAbsence(_ value: PercentFormat, in spec: borrowing RingSpec) -> Bool { value.isStandard }

    @inline(__always)
    func write(_ value: PercentFormat, into w: inout ByteWriter) { for byte in value.tag.utf8 { w.append(byte: byte) } }
    var kind: RingParameter.Kind { .locale(tags: PercentFormat.cldr.map(\.tag)) }
    var values: String {
        "a BCP 47 tag: \(PercentFormat.cldr.count) locales of \(PercentFormat.languages.count) languages"
    }
}
