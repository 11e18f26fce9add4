import RingTestSupport
import Testing

@testable import RingCore

/// Time progress: `from` and `to` instead of `p`, read at a moment the tests choose.
@Suite struct TimeProgressTests {
    static let year = "from=2026-01-01&to=2027-01-01"
    static let start = 1_767_225_600.0  // 2026-01-01T00:00:00Z
    static let end = 1_798_761_600.0  // 2027-01-01T00:00:00Z

    @Test func momentsAreRFC3339() {
        #expect(Moment.seconds("2026-01-01") == Self.start)
        #expect(Moment.seconds("2026-01-01T02:00:00+02:00") == Self.start)
        #expect(Moment.seconds("2025-12-31T19:00:00-05:00") == Self.start)
        #expect(Moment.seconds("2026-01-01T00:00:00.250Z") == Self.start + 0.25)
        #expect(Moment.seconds("2026-01-01t00:00:00z") == Self.start)
        #expect(Moment.seconds("2026-01-01T02:00:00 02:00") == Self.start, "a + that a query read as a space")
        #expect(Moment.seconds("2024-02-29") != nil && Moment.seconds("2000-02-29") != nil)
        for refused in [
            "2026-02-29", "1900-02-29", "2026-13-01", "2026-04-31", "2026-01-01T24:00:00Z", "2026-01-01T10:00:60Z",
            "2026-01-01T10:00:00", "2026-01-01T10:00Z", "2026-1-01", "26-01-01", "2026-01-01T10:00:00+2:00",
            "2026-01-01T10:00:00Z ", "0000-01-01", "2026-01-01T10:00:00.Z", "", "today",
        ] {
            #expect(Moment.seconds(refused) == nil, "\(refused)")
        }
        #expect(Moment.text(Self.start) == "2026-01-01T00:00:00Z")
        #expect(Moment.text(Self.start + 0.25) == "2026-01-01T00:00:00.25Z")
        #expect(Moment.text(-1) == "1969-12-31T23:59:59Z")
        // Whatever the offset, one moment is one canonical key.
        let offset = try? RingSpec(query: "from=2026-01-01T02:00:00%2B02:00&to=2027-01-01")
        #expect(offset?.canonicalKey == (try? RingSpec(query: Self.year))?.canonicalKey)
        #expect((try? RingSpec(query: Self.year))?.canonicalKey == "from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z")
    }

    @Test func theRulesNameTheirParameters() {
        #expect(failure("p=5&\(Self.year)") == .conflict(parameter: "p", with: "from"))
        #expect(failure("from=2026-01-01") == .missing(parameter: "to"))
        #expect(failure("to=2026-01-01") == .missing(parameter: "from"))
        #expect(failure("from=2027-01-01&to=2026-01-01")?.parameter == "from")
        #expect(failure("from=2026-01-01&to=2026-01-01")?.parameter == "from")
        #expect(failure("from=2026-02-30&to=2027-01-01")?.parameter == "from")
        #expect(failure("from=2026-01-01&to=2027-02-30")?.parameter == "to")
        #expect(failure("\(Self.year)&max=50")?.parameter == "from")
        #expect(failure("p=5&label={left}")?.parameter == "label")
        #expect(failure("p=5&caption={left}")?.parameter == "caption")
        #expect(failure("\(Self.year)&label={left}+left") == nil)
    }

    @Test func theValueIsTheShareElapsed() throws {
        let spec = try RingSpec(query: Self.year)
        let before = spec.resolving(at: Self.start - 100)
        #expect(before.ring.values == [0] && before.nextChange == Self.start)
        let after = spec.resolving(at: Self.end + 100)
        #expect(after.ring.values == [100] && after.nextChange == nil)
        let middle = spec.resolving(at: (Self.start + Self.end) / 2)
        #expect(middle.percentage == 50 && abs(middle.ring.values[0] - 50) < 0.1)
        #expect(RingScene(spec: middle.ring).title == "50%")
    }

    /// Over a year of moments: the drawn value is the elapsed percentage cut to a step no
    /// longer than a quarter pixel of bar, the label reads as `p` at the exact percentage
    /// would, the ring is the same until `nextChange` and another just after it.
    @Test(arguments: ["", "&decimals=1", "&size=400", "&half", "&decimals=2&size=1024"])
    func theDrawingChangesWhenNextChangeSays(extra: String) throws {
        let spec = try RingSpec(query: Self.year + extra)
        var moment = Self.start + 1
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            moment += Double(generator.next() % 200_000)
            guard moment < Self.end else { break }
            let elapsed = spec.resolving(at: moment)
            let drawn = elapsed.ring.values[0]
            #expect(abs(drawn - elapsed.percentage) < 0.25)
            let exact = try RingSpec(query: "p=\(elapsed.percentage)" + extra)
            #expect(RingScene.percentageText(elapsed.ring) == RingScene.percentageText(exact), "\(moment)")
            let next = try #require(elapsed.nextChange)
            #expect(next > moment)
            if next - 0.01 > moment { #expect(spec.resolving(at: next - 0.01).ring == elapsed.ring, "\(moment)") }
            #expect(spec.resolving(at: next + 0.01).ring != elapsed.ring, "\(moment)")
        }
    }

    @Test func leftIsTheTimeLeftInItsLargestUnit() throws {
        let spec = try RingSpec(query: "\(Self.year)&label={left}&caption={p}")
        func left(_ seconds: Double) -> String? {
            if case .text(let text) = spec.resolving(at: Self.end - seconds).ring.label { text } else { nil }
        }
        #expect(left(3.5 * 86_400) == "3 days")
        #expect(left(86_400) == "1 day")
        #expect(left(86_399) == "23 hours")
        #expect(left(5 * 3600 + 10) == "5 hours")
        #expect(left(12 * 60 + 59) == "12 minutes")
        #expect(left(1.5) == "1 second")
        #expect(left(-5) == "0 seconds")
        // The ring changes when the text does: 3 days until fewer than 3 are left.
        let at = Self.end - 3.5 * 86_400
        let elapsed = spec.resolving(at: at)
        #expect(try #require(elapsed.nextChange) <= at + 0.5 * 86_400)
        #expect(spec.resolving(at: Self.end + 1).nextChange == nil)
    }

}
