import Testing

@testable import RingCore

/// `src`, `field` and `maxField`: what the core reads and checks of a live ring, and the ring
/// it draws once the service has the document's values.
@Suite struct LiveSourceTests {
    static let source = "src=https://example.com/coverage.json"
    /// The values a ring of min 0 and max 100 may take, as errors state them.
    static let defaultScale = "-1000000000…1000000000 (a percentage within ±1e9 of min 0 to max 100)"

    @Test func aLiveRingHasASourceAndAPathPerRing() throws {
        let spec = try RingSpec(query: "src=HTTPS://Example.COM:8443/c.json%3Fbranch%3Dmain&field=move,exercise,stand")
        #expect(spec.isLive && spec.ringCount == 3)
        let source = try #require(spec.source)
        #expect(source.scheme == "https" && source.host == "example.com" && source.port == 8443)
        #expect(source.target == "/c.json?branch=main")
        #expect(source.description == "https://example.com:8443/c.json?branch=main")
        #expect(spec.fields.map(\.description) == ["move", "exercise", "stand"])
        // p's placeholders stay out of the key; src comes first, and the key reads back.
        let key = spec.canonicalKey
        #expect(!key.contains("p=") && key.hasPrefix("src="), "\(key)")
        #expect(try RingSpec(query: key) == spec)
        // One source however its scheme and host are cased.
        #expect(
            try RingSpec(query: "src=https://example.com:8443/c.json%3Fbranch%3Dmain&field=move,exercise,stand")
                .canonicalKey == key)
    }

    @Test func theRulesOfALiveRingNameTheirParameters() {
        #expect(failure("p=72&\(Self.source)&field=a") == .conflict(parameter: "p", with: "src"))
        #expect(failure("\(Self.source)&field=a&p=72") == .conflict(parameter: "p", with: "src"))
        // Without field, a shields endpoint document: its message is the one value, with no max path.
        #expect(failure(Self.source) == nil)
        #expect((try? RingSpec(query: Self.source))?.ringCount == 1)
        #expect(failure("\(Self.source)&maxField=total")?.parameter == "maxField")
        #expect(failure("p=72&field=a")?.description == "field: reads the document of src, which is not given")
        #expect(failure("p=72&maxField=a")?.parameter == "maxField")
        #expect(failure("\(Self.source)&field=a&maxField=b&max=10") == .conflict(parameter: "maxField", with: "max"))
        #expect(failure("\(Self.source)&field=a,b,c&maxField=x,y")?.parameter == "maxField")
        #expect(failure("\(Self.source)&field=a,b&maxField=x") == nil)
        // Per-ring parameters count the rings the paths give.
        #expect(failure("\(Self.source)&field=a,b&color=red,blue") == nil)
        #expect(failure("\(Self.source)&field=a,b&color=red,blue,green")?.parameter == "color")
        #expect(failure("\(Self.source)&field=a,b,c,d,e")?.parameter == "field")
    }

    @Test(arguments: [
        ("ftp://example.com/x", "an http or https URL"),
        ("example.com/x.json", "an absolute URL"),
        ("https://user:secret@example.com/x", "without credentials"),
        ("https://example.com/x#top", "without a #fragment"),
        ("https://example.com/caf%C3%A9", "printable ASCII"),
        ("https:///x", "a host name or IP address"),
        ("https://exa_mple.com/x", "a host name or IP address"),
        ("https://example.com:0/x", "a port of 1 to 65535"),
        ("https://example.com:99999/x", "a port of 1 to 65535"),
        ("https://[zz]/x", "a valid IPv6 literal"),
        ("https://a..b/x", "a host name or IP address"),
    ])
    func sourcesThatAreNotURLsOfADocumentAreRefused(url: String, reason: String) throws {
        let error = try #require(failure("src=\(url)&field=a"), "\(url) was accepted")
        #expect(error.parameter == "src" && error.description.contains(reason), "\(error)")
    }

    @Test func aSourceHasALengthLimit() throws {
        let long = "https://example.com/" + String(repeating: "a", count: SourceURL.maxBytes)
        #expect(failure("src=\(long)&field=a")?.description == "src: longer than \(SourceURL.maxBytes) bytes")
        let literal = try RingSpec(query: "src=http://[::1]:9000/x&field=a")
        #expect(literal.source?.host == "::1" && literal.source?.description == "http://[::1]:9000/x")
        #expect(try RingSpec(query: "src=https://example.com&field=a").source?.target == "/")
    }

    @Test(arguments: [
        ("coverage", ["coverage"]), ("totals.lines.pct", ["totals", "lines", "pct"]),
        ("data[0].value", ["data", "#0", "value"]), ("[2]", ["#2"]), ("a[1][22]", ["a", "#1", "#22"]),
        ("$schema.x-y_z", ["$schema", "x-y_z"]),
    ])
    func pathsAreNamesAndIndices(path: String, steps: [String]) throws {
        let spec = try RingSpec(query: "\(Self.source)&field=\(path)")
        let read = try #require(spec.fields.first).steps.map { step in
            switch step {
            case .member(let name): name
            case .index(let index): "#\(index)"
            }
        }
        #expect(read == steps)
        #expect(spec.fields.first?.description == path)
    }

    @Test(arguments: [
        "a..b", ".a", "a.", "a[", "a[]", "a[x]", "a[1234567]", "a[0]b", "a b", "a*", "a['b']", "$..x", "a[-1]",
        "x" + String(repeating: ".x", count: FieldPath.maxSteps), String(repeating: "x", count: FieldPath.maxBytes + 1),
    ])
    func anythingElseIsNotAPath(path: String) throws {
        let encoded = path.replacing(" ", with: "%20").replacing("'", with: "%27")
        let error = try #require(failure("\(Self.source)&field=\(encoded)"), "\(path) was accepted")
        #expect(error.parameter == "field", "\(error)")
    }

    /// The resolved ring is the ring the same values written with p make: the same key,
    /// digest and drawing, so it shares their cache entry and ETag.
    @Test func theResolvedRingIsTheRingOfItsValues() throws {
        let live = try RingSpec(query: "\(Self.source)&field=a,b&maxField=m&slice=0.45&color=red,blue")
        let ring = try live.resolving(values: ["72.4", "30"], maximums: ["80"])
        let written = try RingSpec(query: "p=72.4,30&max=80&slice=0.45&color=red,blue")
        #expect(ring == written)
        #expect(ring.canonicalKey == written.canonicalKey && ring.digest == written.digest)
        #expect(!ring.isLive)
        #expect(RingRenderer.render(ring) == RingRenderer.render(written))
        // Another value is another ring.
        #expect(try live.resolving(values: ["72.5", "30"], maximums: ["80"]).digest != ring.digest)
    }

    /// A shields endpoint document's message, colour and label: the value, the bar's colour
    /// and the caption, unless the URL gives its own.
    @Test func anEndpointDocumentGivesValueColourAndCaption() throws {
        let live = try RingSpec(query: "\(Self.source)&slice=0.45")
        for message in ["72%", "72", "72 %", "72\u{202F}%", " 72% "] {
            #expect(
                try live.resolving(endpoint: message, color: nil, label: nil) == RingSpec(query: "p=72&slice=0.45"),
                "\(message)")
        }
        #expect(
            try live.resolving(endpoint: "72.5%", color: "brightgreen", label: "coverage")
                == RingSpec(query: "p=72.5&slice=0.45&color=44cc11&caption=coverage"))
        // shields' names come before CSS's (its red is not #ff0000); a colour of ours is taken
        // too, and one neither knows is left out, as shields leaves it.
        #expect(try live.resolving(endpoint: "5", color: "critical", label: nil).colors == [RingColor(rgb: 0xe05d44)])
        #expect(try live.resolving(endpoint: "5", color: "RED", label: nil).colors == [RingColor(rgb: 0xe05d44)])
        #expect(try live.resolving(endpoint: "5", color: "#ff69b4", label: nil).colors == [RingColor(rgb: 0xff69b4)])
        #expect(try live.resolving(endpoint: "5", color: "nonsense", label: nil).colors == [])
        // The URL's own colour and caption win.
        let own = try RingSpec(query: "\(Self.source)&color=000&caption=lines")
        let resolved = try own.resolving(endpoint: "5", color: "red", label: "coverage")
        #expect(resolved == (try RingSpec(query: "p=5&color=000&caption=lines")))
        // Errors name src, with the document's text.
        #expect(
            throws: RingSpecError.unfit(
                parameter: "src", rule: "the endpoint's message \"passing\" is not a number such as 72%")
        ) { try live.resolving(endpoint: "passing", color: nil, label: nil) }
        #expect(
            throws: RingSpecError.unfit(
                parameter: "src", rule: "the endpoint's message \"2000000000\" is out of range \(Self.defaultScale)")
        ) { try live.resolving(endpoint: "2000000000", color: nil, label: nil) }
        #expect(throws: RingSpecError.self) {
            try live.resolving(endpoint: "5", color: nil, label: String(repeating: "x", count: 33))
        }
    }

    @Test func documentValuesAreReadWithTheRulesOfP() throws {
        let live = try RingSpec(query: "\(Self.source)&field=totals.pct")
        // Bare text reads as a JSON number when written as one, shown as written; else quoted.
        for (text, shown, problem) in [
            ("abc", "\"abc\"", "not a number such as 72 or -0.5"), ("1e3", "1e3", "not a number such as 72 or -0.5"),
            ("", "\"\"", "not a number such as 72 or -0.5"),
            ("10000000000000", "10000000000000", "out of range \(Self.defaultScale)"),
            ("1000000001", "1000000001", "out of range \(Self.defaultScale)"),
            ("1e400", "1e400", "out of range \(Self.defaultScale)"),
        ] {
            #expect(throws: RingSpecError.unfit(parameter: "field", rule: "totals.pct is \(shown), \(problem)")) {
                try live.resolving(values: [text])
            }
        }
        // With max from the document, the range follows that max, and still names the field.
        let counted = try RingSpec(query: "\(Self.source)&field=totals.pct&maxField=totals.max")
        #expect(
            throws: RingSpecError.unfit(
                parameter: "field",
                rule: "totals.pct is 200000001, out of range -100000000…100000000 (a percentage within ±1e9 of "
                    + "min 0 to max 10)")
        ) { try counted.resolving(values: ["200000001"], maximums: ["10"]) }
        #expect(
            throws: RingSpecError.unfit(
                parameter: "field", rule: "totals.pct is 2000000000000, out of range -1e12…1e12")
        ) { try counted.resolving(values: ["2000000000000"], maximums: ["1000000"]) }
        #expect(try counted.resolving(values: ["99999999"], maximums: ["10"]).values == [99_999_999])
        // A JSON string's text is quoted whatever it says.
        #expect(
            throws: RingSpecError.unfit(
                parameter: "field", rule: "totals.pct is \"1e400\", not a number such as 72 or -0.5")
        ) {
            try live.resolving([DocumentValue(text: "1e400", isString: true)], maximums: [])
        }
        // The ring is validated again with the document's values: a max below min is refused.
        let ranged = try RingSpec(query: "\(Self.source)&field=v&maxField=m&min=10")
        // It names the field and the document's value, not a `max` the URL does not have.
        #expect(
            throws: RingSpecError.unfit(
                parameter: "maxField", rule: "m is 5 in the document, not greater than min (10)")
        ) { try ranged.resolving(values: ["20"], maximums: ["5"]) }
        // A target is checked against the document's max.
        let targeted = try RingSpec(query: "\(Self.source)&field=v&maxField=m&target=400")
        #expect(try targeted.resolving(values: ["20"], maximums: ["500"]).ring(0).target == 400)
    }
}
