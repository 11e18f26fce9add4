import Testing

@testable import RingCore

/// The rules between parameters, each declared once in `RingSpec+Validation.swift`, each
/// tested here through the parser and through `validate()` on a spec built in code.
@Suite struct CrossParameterRuleTests {
    /// A query that gives `parameter` a value other than its default (which its example is).
    static func given(_ parameter: RingParameter) -> String {
        "\(parameter.rawValue)=\(parameter.definition.example)"
    }

    /// The ring a conflict is tried on: a live one for `maxField`, which reads a document,
    /// and the other end of the span for `from`.
    static func base(_ conflict: RingSpec.Conflict) -> String {
        switch conflict.first {
        case .maxField: "src=https://example.com/ring.json&field=value&"
        case .from: "to=2099-01-01&"
        case .stack: "p=50,20&"
        default: "p=50&"
        }
    }

    /// The ring the second parameter is given on alone: `base`, or for `from`'s conflicts a
    /// ring without time (`src` alone reads an endpoint document).
    static func otherBase(_ conflict: RingSpec.Conflict) -> String {
        guard conflict.first == .from else { return base(conflict) }
        return conflict.second == .src ? "" : "p=50&"
    }

    /// Every declared conflict refuses the pair in either order, naming both, and the first
    /// at its default does not conflict.
    @Test(arguments: RingSpec.conflicts.indices)
    func everyDeclaredConflictIsRefused(index: Int) throws {
        let conflict = RingSpec.conflicts[index]
        let expected = RingSpecError.conflict(parameter: conflict.first.rawValue, with: conflict.second.rawValue)
        let pair = [Self.given(conflict.first), Self.given(conflict.second)]
        #expect(throws: expected) { try RingSpec(query: Self.base(conflict) + pair.joined(separator: "&")) }
        #expect(throws: expected) { try RingSpec(query: Self.base(conflict) + pair.reversed().joined(separator: "&")) }
        // The second named at its default still conflicts: the query asks for both.
        if let literal = conflict.second.definition.defaultValue {
            #expect(throws: expected) {
                try RingSpec(
                    query: Self.base(conflict) + "\(Self.given(conflict.first))&\(conflict.second.rawValue)=\(literal)")
            }
        }
        // The first at its default does not.
        if let literal = conflict.first.definition.defaultValue {
            #expect(throws: Never.self) {
                try RingSpec(
                    query: Self.base(conflict) + "\(conflict.first.rawValue)=\(literal)&\(Self.given(conflict.second))")
            }
        }
        // A spec built in code with both is refused by validate().
        var both = try RingSpec(query: Self.base(conflict) + Self.given(conflict.first))
        let other = try RingSpec(query: Self.otherBase(conflict) + Self.given(conflict.second))
        both.assign(conflict.second, from: other)
        #expect(throws: expected) { try both.validate() }
    }

    @Test func aListOfTracksNeedsAPaintForEveryRing() {
        var spec = RingSpec(values: [10, 20])
        spec.tracks = [.none, .standard]
        #expect(throws: RingSpecError.unfit(parameter: "track", rule: "a list needs a colour or none for every ring")) {
            try spec.validate()
        }
    }

    @Test(arguments: [RingParameter.min, .max, .color, .track])
    func aPerRingListHasOneItemOrOnePerRing(parameter: RingParameter) throws {
        let item = parameter == .max ? "200" : parameter.definition.example
        let error = try #require(failure("p=1,2,3&\(parameter.rawValue)=\(item),\(item)"))
        #expect(
            error
                == .unfit(parameter: parameter.rawValue, rule: "2 values for 3 rings: give one value, or one per ring"))
    }

    @Test func maxIsAboveMinForEveryRing() {
        #expect(throws: RingSpecError.invalid(parameter: "max", value: "5.0", expected: "greater than min (5.0)")) {
            try RingSpec(query: "p=1,2&min=0,5&max=10,5")
        }
    }

    @Test func thePercentageStaysWithinWhatALabelShows() throws {
        let error = try #require(failure("p=1000000000000&max=1"))
        #expect(error.parameter == "p")
        #expect(error.description.contains("within ±1e9"), "\(error)")
    }

    @Test func placeholdersNameRingsThatExist() throws {
        #expect(failure("p=1,2&label=%7Bp2%7D") == nil)
        let error = try #require(failure("p=1,2&caption=%7Bp3%7D"))
        #expect(
            error
                == .unfit(
                    parameter: "caption", rule: "{p3} names a ring that is not there: with 2 rings, use {p1} to {p2}"))
    }

    @Test func ringsAndSegmentsMustFit() throws {
        #expect(try #require(failure("p=1,2,3,4&size=32&width=10")).parameter == "p")
        #expect(try #require(failure("p=50&segments=100&size=16")).parameter == "segments")
    }

    /// What other parameters make meaningless is dropped, so the ring has one spec and one key.
    @Test(arguments: [
        ("p=50&gap=5", "p=50"),  // one ring has no neighbours to keep apart
        ("p=50&segmentGap=5", "p=50"),  // no segments to part
        ("p=50&gradient=red,blue&color=green", "p=50&gradient=red,blue"),  // the gradient colours the bar
    ])
    func meaninglessValuesAreNormalisedAway(query: String, same: String) throws {
        let spec = try RingSpec(query: query)
        #expect(spec == (try RingSpec(query: same)))
        #expect(spec.canonicalKey == (try RingSpec(query: same)).canonicalKey)
    }
}

extension RingSpec {
    /// Copies `parameter`'s field from `other`, through the table (for building specs with
    /// any two parameters in tests).
    mutating func assign(_ parameter: RingParameter, from other: RingSpec) {
        var copier = FieldCopier(parameter: parameter, source: other)
        RingParameter.declare(to: &copier, in: &self)
    }
}

private struct FieldCopier: ParameterVisitor {
    typealias Failure = Never
    let parameter: RingParameter
    let source: RingSpec

    mutating func visit<Codec: ParameterCodec>(
        _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
        _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
    ) {
        if parameter == self.parameter { spec[keyPath: field] = source[keyPath: field] }
    }
}
