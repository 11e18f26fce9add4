import Testing

@testable import RingCore

@Suite struct CanonicalKeyTests {
    @Test(arguments: [
        ("p=72&color=ff0000", "color=%23FF0000&p=72.0"),
        ("p=72", "p=072&v=3"),
        ("p=72", "p=72&min=0&max=100&slice=0&start=360&dir=cw&size=120&width=12&theme=auto&cap=round&label=auto"),
        ("p=72&color=red", "p=72&color=F00F"),
        ("p=50&start=270", "p=50&start=-90"),
        ("p=50&half", "p=50&half=yes"),
        ("p=50&shadow=on", "shadow&p=50"),
        ("p=5&gradient=red,blue&color=green", "p=5&gradient=f00,00f"),
        ("p=5&label=a+b", "p=5&label=a%20b"),
        ("p=5&width=7", "p=5&width=7&trackWidth=7"),
    ])
    func equivalentQueriesShareKeyAndDigest(a: String, b: String) throws {
        let first = try RingSpec(query: a)
        let second = try RingSpec(query: b)
        #expect(first.canonicalKey == second.canonicalKey)
        #expect(first.digest == second.digest)
        #expect(RingRenderer.render(first) == RingRenderer.render(second))
    }

    @Test(arguments: [
        ("p=72", "p=73"), ("p=72", "p=72&slice=0.1"), ("p=72&label=a", "p=72&title=a"),
        ("p=72&color=ff0000", "p=72&color=ff0001"), ("p=1&size=120", "p=1&size=121"),
        ("p=72.0001", "p=72.0002"), ("p=5&theme=auto", "p=5&theme=light"),
    ])
    func differentRingsHaveDifferentKeys(a: String, b: String) throws {
        #expect(try RingSpec(query: a).canonicalKey != RingSpec(query: b).canonicalKey)
        #expect(try RingSpec(query: a).digest != RingSpec(query: b).digest)
    }

    @Test func renderingWithAGivenDigestIsTheSameAsWithout() throws {
        for example in RingExamples.all {
            let spec = try RingSpec(query: example.query)
            #expect(RingRenderer.render(spec, digest: spec.digest) == RingRenderer.render(spec))
        }
    }

    /// The same ring: everything but `scale`, which is how a PNG is rasterised, not the ring.
    @Test func keyIsAValidQueryForTheSameRing() throws {
        for example in RingExamples.all {
            var spec = try RingSpec(query: example.query)
            spec.scale = 1
            #expect(try RingSpec(query: spec.canonicalKey) == spec, "\(example.name)")
        }
    }

    /// Found by the query fuzzer: an explicit value equal to its default must not make the
    /// spec differ from the one its canonical key parses to.
    @Test(arguments: [
        "p=1&size=16&width=5&trackWidth=5&start=-90", "p=1&width=12", "p=1&label=%7Bp%7D",
        "p=1&gradient=red,blue&color=green", "p=1&size=16&width=0000000000000.00000063000",
        "p=0.000000001&min=-0.000000003&max=0.123456789",
    ])
    func keyParsesBackToAnEqualSpec(query: String) throws {
        let spec = try RingSpec(query: query)
        #expect(try RingSpec(query: spec.canonicalKey) == spec)
    }

    @Test func exponentsAreSpelledOut() {
        #expect(CanonicalKey.plainDecimal("6.3e-07") == "0.00000063")
        #expect(CanonicalKey.plainDecimal("-1e-09") == "-0.000000001")
        #expect(CanonicalKey.plainDecimal("72.5") == "72.5")
    }

    @Test func keyListsOnlyNonDefaults() throws {
        #expect(try RingSpec(query: "p=72&color=%23FF0000").canonicalKey == "p=72&color=ff0000ff")
    }
}
