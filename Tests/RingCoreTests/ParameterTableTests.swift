import Testing

@testable import RingCore

/// The parameter table is the contract's one declaration: these fail when a parameter is
/// missing from it, from the canonical key, or when its declared texts lie.
@Suite struct ParameterTableTests {
    static let definitions = RingParameter.Definition.all

    @Test func declaresEveryParameterOnceInContractOrder() {
        #expect(Self.definitions.map(\.parameter) == RingParameter.allCases)
        #expect(Set(Self.definitions.map(\.name)).count == Self.definitions.count)
        #expect(
            RingParameter.Definition.names.map { String(decoding: $0, as: UTF8.self) } == Self.definitions.map(\.name))
    }

    /// A parameter left out of the canonical key would let two rings share a cache entry.
    /// `scale` alone stays out: it is how a PNG is rasterised, not which ring it shows.
    /// (`from` and `to` come as a pair, with no ring to compare without one:
    /// `TimeProgressTests` checks that both enter the key.)
    @Test(arguments: RingParameter.allCases.filter { $0 != .scale && !Self.timed.contains($0) })
    func exampleValueEntersTheCanonicalKey(parameter: RingParameter) throws {
        let definition = parameter.definition
        let base = Self.base(for: parameter)
        let query = Self.query(parameter, encode(definition.example))
        let spec = try RingSpec(query: query)
        #expect(spec.canonicalKey != (try RingSpec(query: base)).canonicalKey, "\(query)")
        #expect(spec.canonicalKey.contains("\(definition.name)="), "\(spec.canonicalKey)")
        #expect(try RingSpec(query: spec.canonicalKey) == spec)
    }

    /// The SVG of `scale=2` is the SVG of the same ring without it: same key, digest and bytes.
    @Test func scaleStaysOutOfTheRingsIdentity() throws {
        let scaled = try RingSpec(query: "p=72&scale=\(RingParameter.scale.definition.example)")
        let plain = try RingSpec(query: "p=72")
        #expect(scaled.scale == 2)
        #expect(scaled.canonicalKey == plain.canonicalKey)
        #expect(scaled.digest == plain.digest)
        #expect(RingRenderer.render(scaled) == RingRenderer.render(plain))
    }

    /// The literal default, where there is one, is the default: it changes neither the spec nor the key.
    @Test(arguments: RingParameter.allCases)
    func literalDefaultIsTheDefault(parameter: RingParameter) throws {
        guard let value = parameter.definition.defaultValue else { return }
        let spelled = try RingSpec(query: "p=72&\(parameter.rawValue)=\(value)")
        #expect(spelled.canonicalKey == (try RingSpec(query: "p=72")).canonicalKey, "\(parameter)=\(value)")
    }

    @Test(arguments: RingParameter.allCases)
    func aSecondOccurrenceIsADuplicate(parameter: RingParameter) {
        let value = encode(parameter.definition.example)
        let query = "p=72&\(parameter.rawValue)=\(value)&\(parameter.rawValue)=\(value)"
        #expect(throws: RingSpecError.duplicate(parameter: parameter.rawValue)) { try RingSpec(query: query) }
    }

    /// With every parameter given, a repeated one is still found (one flag per parameter).
    @Test func aDuplicateAmongEveryParameterIsFound() {
        let all = Self.definitions.filter { $0.parameter != .half && $0.parameter != .gradient }
            .map { "\($0.name)=\(encode($0.example))" }
        let last = all.last!
        #expect(throws: RingSpecError.duplicate(parameter: String(last.prefix { $0 != "=" }))) {
            try RingSpec(query: (all + [last]).joined(separator: "&"))
        }
    }

    /// `perRing` in the table is what the parser does: a per-ring parameter takes a list of one
    /// per ring (and a list of equal items names the ring one item names), any other single
    /// value refuses a list.
    @Test(arguments: RingParameter.allCases.filter { $0 != .p })
    func perRingIsWhatTheParserDoes(parameter: RingParameter) throws {
        let definition = parameter.definition
        let example = encode(definition.example)
        let list = "p=1,2&\(definition.name)=\(example),\(example)"
        if definition.perRing {
            #expect(try RingSpec(query: list) == RingSpec(query: "p=1,2&\(definition.name)=\(example)"), "\(list)")
            let error = try #require(failure("p=1,2,3&\(definition.name)=\(example),\(example)"))
            #expect(error.parameter == definition.name, "\(error)")
            return
        }
        switch definition.kind {
        case .colors, .thresholds, .text, .source, .paths: return  // lists and text of their own
        case .decimal, .length, .integer, .boolean, .keyword, .color, .locale, .moment:
            #expect(failure(list)?.parameter == definition.name, "\(list) was accepted")
        }
    }

    /// Declared ranges are the ones the parser enforces, in the same words as its errors.
    @Test(arguments: RingParameter.allCases)
    func declaredRangesAreEnforced(parameter: RingParameter) throws {
        let definition = parameter.definition
        switch definition.kind {
        case .decimal(let range?):
            let above = RingLimits.plain(range.upperBound + 1)
            let error = try #require(failure("p=72&\(definition.name)=\(above)"))
            #expect(error.description.contains(RingLimits.text(range)), "\(error)")
            #expect(definition.values.contains(RingLimits.text(range)))
        case .length(let limit):
            let error = try #require(failure("p=72&segments=4&\(definition.name)=1000"))
            #expect(error.description.hasSuffix("is out of range \(limit.range(size: 120))"), "\(error)")
            #expect(definition.values == limit.rule)
        case .integer(let range):
            let error = try #require(failure("p=72&\(definition.name)=\(range.upperBound + 1)"))
            #expect(error.description.contains(RingLimits.text(range)), "\(error)")
            #expect(definition.values.contains(RingLimits.text(range)))
        case .keyword(let words):
            for word in words { #expect(failure("p=72&\(definition.name)=\(word)") == nil) }
            let error = try #require(failure("p=72&\(definition.name)=nope"))
            #expect(error.description.contains(words.joined(separator: ", ")))
        case .locale(let tags):
            // Every tag of the table, in any letter case, and longer tags by their prefix.
            for tag in tags {
                let locale = try RingSpec(query: "p=72&\(definition.name)=\(tag.lowercased())").locale
                // A locale that writes `72%` and `72.5%` is no locale at all.
                #expect(locale?.tag == tag || (locale == nil && PercentFormat.named(tag)?.isStandard == true), "\(tag)")
            }
            #expect(try RingSpec(query: "p=72&\(definition.name)=de-DE&decimals=1").locale?.tag == "de")
            for refused in ["nope", "x", "", "fr--CA", "-fr", String(repeating: "fr-", count: 12) + "x"] {
                #expect(failure("p=72&\(definition.name)=\(refused)")?.parameter == definition.name, "\(refused)")
            }
        case .colors(let count):
            let many = Array(repeating: "red", count: count.upperBound + 1).joined(separator: ",")
            #expect(failure("p=72&\(definition.name)=\(many)")?.parameter == definition.name)
        case .thresholds(let steps):
            let many = (0...steps.upperBound).map { "\($0 * 10):red" }.joined(separator: ",")
            #expect(failure("p=72&\(definition.name)=blue,\(many)")?.parameter == definition.name)
            #expect(definition.values.contains(RingLimits.text(steps)))
        case .text(let limit) where parameter == .parts:
            // A list: at most `limit` characters in all, each name at most its own limit.
            let name = RingLimits.partNameScalars
            let count = RingLimits.parts.upperBound
            #expect(limit == name * count + count - 1)
            let long = String(repeating: "x", count: name + 1)
            #expect(failure("p=1,2&stack&parts=\(long),y")?.description.contains("at most \(name)") == true)
        case .text(let limit):
            let long = String(repeating: "x", count: limit + 1)
            #expect(failure("p=72&\(definition.name)=\(long)")?.description.contains("at most \(limit)") == true)
        case .decimal(nil), .boolean, .color:
            #expect(failure("p=72&\(definition.name)=%3Cx%3E")?.parameter == definition.name)
        case .source:
            let error = try #require(failure(Self.query(parameter, "ftp://example.com/x")))
            #expect(error.parameter == definition.name && error.description.contains("http or https"), "\(error)")
        case .moment:
            let error = try #require(failure(Self.query(parameter, "2026-02-30")))
            #expect(error.parameter == definition.name, "\(error)")
        case .paths:
            let error = try #require(failure(Self.query(parameter, "a..b")))
            #expect(error.parameter == definition.name, "\(error)")
            let many = Array(repeating: "a", count: RingLimits.rings.upperBound + 1).joined(separator: ",")
            #expect(failure(Self.query(parameter, many))?.parameter == definition.name)
        }
    }

    /// Every numeric parameter, at several sizes: each bound its out-of-range error states is
    /// the enforced one. A value just inside it draws a ring (or is refused for another rule,
    /// such as `max` above `min`), and a value just outside it is refused with that range.
    @Test(arguments: RingParameter.allCases)
    func everyStatedBoundIsTheEnforcedOne(parameter: RingParameter) throws {
        let definition = parameter.definition
        let name = definition.name
        var probes: [String] = []
        switch definition.kind {
        case .decimal, .length: probes = ["10000000000000", "-10000000000000", "1000", "-1", "0"]
        case .integer: probes = ["0", "100000"]
        default: return
        }
        var checked = 0
        for size in [16, 20, 120, 1000] {
            let base = "size=\(size)" + (name == "ticks" ? "" : "&segments=2") + (name == "p" ? "" : "&p=50")
            let context = name == "size" || name == "segments" ? (name == "p" ? "" : "p=50") : base
            for probe in probes {
                guard case .outOfRange(_, _, let range)? = failure("\(context)&\(name)=\(probe)") else { continue }
                let integral: Bool
                if case .integer = definition.kind { integral = true } else { integral = false }
                for (inside, outside) in try Self.edges(of: range, integral: integral) {
                    let accepted = "\(context)&\(name)=\(inside)"
                    let insideFailure = failure(accepted)
                    if case .outOfRange(let refused, _, let stated)? = insideFailure, refused == name,
                        stated == range
                    {
                        Issue.record("\(accepted) is inside \(range) but refused as out of it")
                    }
                    // Where the ring narrows the range, the error states the narrowed one:
                    // nothing inside it is refused by another rule.
                    if Self.narrowedByTheRing.contains(parameter), let insideFailure {
                        Issue.record("\(accepted) is inside \(range) but refused: \(insideFailure)")
                    }
                    let refusedQuery = "\(context)&\(name)=\(outside)"
                    guard let error = failure(refusedQuery), error.parameter == name else {
                        Issue.record("\(refusedQuery) is outside \(range) but was not refused for \(name)")
                        continue
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 0, "no bound of \(name) was checked")
    }

    /// The parameters whose range depends on the rest of the ring: `p` and `target` on its
    /// `min` and `max` (the percentage the label can show), `ticks` on its layout.
    static let narrowedByTheRing: Set<RingParameter> = [.p, .target, .ticks]

    /// For a range as errors state it, each bound as (a value just inside, one just outside),
    /// one step of the stated precision apart: 0.001, or 1 for whole numbers.
    static func edges(of range: String, integral: Bool) throws -> [(String, String)] {
        func number(_ text: Substring) throws -> Double { try #require(Double(text), "\(text) in \(range)") }
        func text(_ value: Double) -> String {
            integral ? String(Int(value)) : RingLimits.plain(value)
        }
        let step = integral ? 1.0 : 0.001
        if range.hasPrefix("> 0 and ≤ ") || range.hasPrefix("≥ 0 and ≤ ") {
            let upper = try number(range.dropFirst(10).prefix { $0 != " " })
            let lower = range.hasPrefix(">") ? ("0.001", "0") : ("0", "-0.001")
            return [lower, (text(upper), text(upper + step))]
        }
        let bounds = range.prefix { $0 != " " }.split(separator: "…")
        guard bounds.count == 2 else {
            Issue.record("a range in no known form: \(range)")
            return []
        }
        let (lower, upper) = (try number(bounds[0]), try number(bounds[1]))
        return [(text(lower), text(lower - step)), (text(upper), text(upper + step))]
    }

    /// The field's initial value in `RingSpec` is the default its codec declares, so the
    /// table and the struct cannot disagree about what an absent parameter means.
    @Test func everyFieldStartsAtItsDeclaredDefault() {
        var reader = DefaultReader()
        var spec = RingSpec(value: 50)
        RingParameter.declare(to: &reader, in: &spec)
        #expect(reader.visited == RingParameter.allCases)
        #expect(reader.notAtDefault == [.p], "fields whose initial value is not the declared default")
    }

    /// Every parameter but `scale` changes what is drawn: the SVG differs even with the ids
    /// (which follow the digest) held equal.
    /// (A live ring's parameters change what is drawn through the values they read:
    /// `LiveSourceTests` checks those.)
    /// (Time progress draws what the moment gives: `TimeProgressTests` checks that.)
    @Test(
        arguments: RingParameter.allCases.filter { $0 != .scale && !Self.live.contains($0) && !Self.timed.contains($0) }
    )
    func exampleValueChangesTheDrawing(parameter: RingParameter) throws {
        let definition = parameter.definition
        let base = Self.base(for: parameter)
        let query = Self.query(parameter, encode(definition.example))
        let digest = try RingSpec(query: base).digest
        let drawn = RingRenderer.render(try RingSpec(query: query), digest: digest)
        #expect(drawn != RingRenderer.render(try RingSpec(query: base), digest: digest), "\(query)")
    }

    /// A ring on which `parameter`'s example means something: segmentGap only with segments,
    /// gap with several rings, captionColor with a caption, overflow past max, targetColor
    /// with a target, tickColor with ticks.
    static func base(for parameter: RingParameter) -> String {
        switch parameter {
        case .segmentGap: "p=72&segments=5"
        case .gap: "p=72,45"
        case .captionColor: "p=72&caption=done"
        case .overflow: "p=130"
        case .targetColor: "p=72&target=80"
        case .tickColor: "p=72&ticks=10"
        case .src, .field, .maxField: liveBase
        case .stack: "p=72,45"
        case .parts: "p=72,45,20&stack"
        default: "p=72"
        }
    }

    /// The parameters of a live ring, which has `src` and `field` instead of `p`.
    static let live: Set<RingParameter> = [.src, .field, .maxField]
    /// Time progress: a pair, each meaningless without the other.
    static let timed: Set<RingParameter> = [.from, .to]
    static let liveBase = "src=https://example.com/ring.json&field=value"

    /// `parameter` at `value` on its ``base(for:)`` ring; `p` and a live ring's `src` and
    /// `field` replace the base's.
    static func query(_ parameter: RingParameter, _ value: String) -> String {
        switch parameter {
        case .p: "p=\(value)"
        case .src: "src=\(value)&field=value"
        case .field: "src=https://example.com/ring.json&field=\(value)"
        default: "\(base(for: parameter))&\(parameter.rawValue)=\(value)"
        }
    }

    private func encode(_ value: String) -> String {
        value.replacing("{", with: "%7B").replacing("}", with: "%7D").replacing(" ", with: "+")
    }
}

/// Records, for every parameter of the table in order, whether a spec's value is its default.
private struct DefaultReader: ParameterVisitor {
    typealias Failure = Never
    var visited: [RingParameter] = []
    var notAtDefault: [RingParameter] = []

    mutating func visit<Codec: ParameterCodec>(
        _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
        _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
    ) {
        visited.append(parameter)
        if !codec.isDefault(spec[keyPath: field], in: spec) { notAtDefault.append(parameter) }
    }
}
