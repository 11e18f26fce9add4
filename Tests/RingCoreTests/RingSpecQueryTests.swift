import RingTestSupport
import Testing

@testable import RingCore

@Suite struct RingSpecQueryTests {
    private func spec(_ query: String) throws -> RingSpec {
        try RingSpec(query: query)
    }

    private func error(_ query: String) -> RingSpecError? { failure(query) }

    @Test func defaults() throws {
        let ring = try spec("p=72")
        #expect(ring == RingSpec(value: 72))
        #expect(ring.resolvedWidth == 12)
        #expect(ring.resolvedTrackWidth == 12)
        #expect(ring.ring(0).fraction == 0.72)
    }

    @Test func everyParameterParses() throws {
        let ring = try spec(
            "p=7.5&min=-10&max=10&slice=0.25&start=-90&dir=ccw&size=200&width=8&trackWidth=20&color=%23ABC"
                + "&track=none&fill=white&bg=000&outline=777&cap=butt&label=%7Bp%7D+left&labelColor=f0f&decimals=2"
                + "&theme=dark&anim=1.5&shadow=yes&title=Disk+%C3%BC")
        #expect(ring.values == [7.5])
        #expect(ring.minimum == [-10])
        #expect(ring.maximum == [10])
        #expect(ring.slice == 0.25)
        #expect(ring.start == 270)
        #expect(ring.direction == .ccw)
        #expect(ring.size == 200)
        #expect(ring.width == 8)
        #expect(ring.trackWidth == 20)
        #expect(ring.colors == [RingColor(red: 0xAA, green: 0xBB, blue: 0xCC)])
        #expect(ring.tracks == [.none])
        #expect(ring.fill == RingColor(red: 255, green: 255, blue: 255))
        #expect(ring.background == RingColor(red: 0, green: 0, blue: 0))
        #expect(ring.outline == RingColor(red: 0x77, green: 0x77, blue: 0x77))
        #expect(ring.cap == .butt)
        #expect(ring.label == .text("{p} left"))
        #expect(ring.labelColor == .color(RingColor(red: 255, green: 0, blue: 255)))
        #expect(ring.decimals == 2)
        #expect(ring.theme == .dark)
        #expect(ring.animation == 1.5)
        #expect(ring.shadow)
        #expect(ring.title == "Disk ü")
        #expect(try spec("p=1&half").half)
        #expect(try spec("p=1&gradient=red,0f0,%230000ff").gradient.count == 3)
        #expect(try spec("p=1&label=none").label == .none)
        #expect(try spec("p=1&label=auto").label == .auto)
    }

    @Test(arguments: ["1", "true", "TRUE", "yes", "on"]) func booleanTrue(text: String) throws {
        #expect(try spec("p=1&shadow=\(text)").shadow)
        #expect(try spec("p=1&half=\(text)").half)
    }

    @Test(arguments: ["0", "false", "no", "off", "Off"]) func booleanFalse(text: String) throws {
        #expect(try !spec("p=1&shadow=\(text)").shadow)
        #expect(try !spec("p=1&half=\(text)").half)
    }

    /// The hand-written decimal parser agrees with the standard library on every value.
    @Test func decimalsParseExactlyAsTheStandardLibraryDoes() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<5000 {
            let integerDigits = Int.random(in: 0...12, using: &generator)
            let fractionDigits = Int.random(in: 0...18, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            text += (0..<max(integerDigits, 1)).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            if fractionDigits > 0 {
                text +=
                    "." + (0..<fractionDigits).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            }
            let expected = try #require(Double(text))
            #expect(try spec("p=\(text)&min=-1000000000000&max=1000000000000").values[0] == expected + 0, "\(text)")
        }
        #expect(try spec("p=.5").values[0] == 0.5)
        #expect(try spec("p=5.").values[0] == 5)
        #expect(try spec("p=%2B5").values[0] == 5)
        #expect(try spec("p=0.1").values[0] == 0.1)
        #expect(try spec("p=-0").values[0].sign == .plus)
    }

    /// `v` is the one name outside the table that is accepted, with or without a value, and it
    /// changes nothing: not the ring, not its key.
    @Test func theCacheBusterIsIgnored() throws {
        for query in ["p=72&v=2", "v=abc&p=72", "p=72&v", "p=72&v=", "p=72&%76=9", "p=72&v=1&v=2"] {
            #expect(try spec(query) == spec("p=72"), "\(query)")
            #expect(try spec(query).canonicalKey == spec("p=72").canonicalKey, "\(query)")
        }
    }

    /// A name outside the table is an error that names it, with the parameter meant when one
    /// is near, and shows a hostile name only quoted and escaped.
    @Test func unknownParametersAreNamedWithASuggestion() {
        let cases: [(String, RingSpecError)] = [
            ("p=72&colour=red", .unknown(parameter: "colour", suggestion: "color")),
            ("p=72&labelColour=red", .unknown(parameter: "labelColour", suggestion: "labelColor")),
            ("p=72&captionColour=red", .unknown(parameter: "captionColour", suggestion: "captionColor")),
            ("p=72&Color=red", .unknown(parameter: "Color", suggestion: "color")),
            ("p=72&SIZE=200", .unknown(parameter: "SIZE", suggestion: "size")),
            ("p=72&background=fff", .unknown(parameter: "background", suggestion: "bg")),
            ("p=72&stroke_width=4", .unknown(parameter: "stroke_width", suggestion: "width")),
            ("p=72&line-cap=butt", .unknown(parameter: "line-cap", suggestion: "cap")),
            ("value=72", .unknown(parameter: "value", suggestion: "p")),
            ("p=72&segmnets=4", .unknown(parameter: "segmnets", suggestion: "segments")),
            ("p=72&b=fff", .unknown(parameter: "b", suggestion: "bg")),
            ("p=72&utm_source=x", .unknown(parameter: "utm_source", suggestion: nil)),
            ("p=72&xy=1", .unknown(parameter: "xy", suggestion: nil)),
            ("p=72&=1", .unknown(parameter: "\"\"", suggestion: nil)),
            ("p=72&%zz=1", .unknown(parameter: "\"%zz\"", suggestion: nil)),
            ("p=72&a%22b%0A=1", .unknown(parameter: "\"a\\\"b\\u{a}\"", suggestion: nil)),
        ]
        for (query, expected) in cases {
            #expect(error(query) == expected, "\(query)")
        }
        #expect(error("p=72&colour=red")?.description == "colour: is not a parameter; did you mean color?")
        #expect(error("p=72&utm_source=x")?.description == "utm_source: is not a parameter")
        // A query copied from an HTML attribute: `&amp;` is named as such.
        #expect(
            error("p=72&amp;slice=0.45")?.description
                == "\"amp;slice\": is not a parameter; the query was copied from HTML, where & is written &amp;: "
                + "write & before slice")
        let long = String(repeating: "x", count: 5000)
        #expect(error("p=72&\(long)=1") == .unknown(parameter: RingSpecError.quote(long), suggestion: nil))
        // The first mistake in the query is the one reported, as for every other error.
        #expect(error("colour=red&p=1000&size=5") == .unknown(parameter: "colour", suggestion: "color"))
        #expect(error("p=1&size=5&colour=red")?.parameter == "size")
    }

    /// Every parameter name with one letter changed, one dropped or two swapped is reported as
    /// unknown, and the suggestion is that parameter, or another one just as near and earlier
    /// in the table (`gap` with its `g` changed to `t` is `tap`, as near `cap`).
    @Test func everyNameWithOneLetterChangedSuggestsIt() {
        let names = RingParameter.Definition.all.map(\.name)
        var checked = 0
        for name in names {
            let letters = Array(name)
            var variants: Set<String> = []
            for index in letters.indices {
                for replacement in "abcdefghijklmnopqrstuvwxyz0123456789" where replacement != letters[index] {
                    var changed = letters
                    changed[index] = replacement
                    variants.insert(String(changed))
                }
                if letters.count > 1 { variants.insert(String(letters[..<index] + letters[(index + 1)...])) }
                if index + 1 < letters.count {
                    var swapped = letters
                    swapped.swapAt(index, index + 1)
                    variants.insert(String(swapped))
                }
            }
            for variant in variants where !names.contains(variant) && variant != RingParameter.cacheBuster {
                let query = name == "p" ? "\(variant)=1" : "p=1&\(variant)=1"
                guard case .unknown(let parameter, let suggestion?) = error(query) else {
                    Issue.record("\(variant) (from \(name)): \(String(describing: error(query)))")
                    continue
                }
                #expect(parameter == variant)
                if suggestion != name {
                    let distance = { (other: String) in
                        RingParameter.editDistance(
                            RingParameter.folded(variant), RingParameter.folded(other), limit: 2)
                    }
                    #expect(distance(suggestion) <= distance(name), "\(variant): \(suggestion), not \(name)")
                }
                checked += 1
            }
        }
        #expect(checked > 5000)
    }

    /// Each alias in the table is suggested as its own parameter, and none is a parameter's
    /// name or another parameter's alias.
    @Test func everyAliasSuggestsItsParameter() {
        var owners: [[UInt8]: String] = [:]
        for definition in RingParameter.Definition.all {
            for alias in definition.aliases {
                #expect(RingParameter(rawValue: alias) == nil && alias != RingParameter.cacheBuster, "\(alias)")
                let query = definition.parameter == .p ? "\(alias)=1" : "p=1&\(alias)=1"
                #expect(error(query) == .unknown(parameter: alias, suggestion: definition.name), "\(alias)")
                let previous = owners.updateValue(definition.name, forKey: RingParameter.folded(alias))
                #expect(previous == nil, "\(alias) is an alias of \(previous ?? "") and \(definition.name)")
            }
        }
        #expect(owners.count > 20)
    }

    /// `errors(inQuery:)` lists every pair's mistake in query order, checks the rules between
    /// parameters only when the pairs are valid, and is empty exactly when the query parses.
    @Test func errorsListEveryMistake() {
        #expect(RingSpec.errors(inQuery: "p=72&slice=0.45&v=2").isEmpty)
        #expect(
            RingSpec.errors(inQuery: "size=5&colour=red&p=x&p=1")
                == [
                    .outOfRange(parameter: "size", value: "5", range: "16…1024"),
                    .unknown(parameter: "colour", suggestion: "color"),
                    error("p=x")!, .duplicate(parameter: "p"),
                ])
        #expect(
            RingSpec.errors(inQuery: "colour=red") == [
                .unknown(parameter: "colour", suggestion: "color"), .missing(parameter: "p"),
            ])
        #expect(RingSpec.errors(inQuery: "p=1&size=30&width=20") == [error("p=1&size=30&width=20")!])
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<200 {
            var query = RandomQuery.make(&generator)
            if Bool.random(using: &generator) { query += "&size=\(Int.random(in: 0...3000, using: &generator))" }
            let errors = RingSpec.errors(inQuery: query)
            #expect(errors.first == error(query), "\(query)")
        }
    }

    /// The edit distance counts a swap of neighbours as one edit and stops past its limit.
    @Test func editDistance() {
        func distance(_ a: String, _ b: String, limit: Int = 2) -> Int {
            RingParameter.editDistance(Array(a.utf8), Array(b.utf8), limit: limit)
        }
        #expect(distance("size", "size") == 0)
        #expect(distance("sizes", "size") == 1)
        #expect(distance("szie", "size") == 1)
        #expect(distance("sz", "size") == 2)
        #expect(distance("color", "colr") == 1)
        #expect(distance("abc", "xyz") == 3)
        #expect(distance("abcdef", "a", limit: 2) == 3)
        #expect(distance("", "ab") == 2)
        #expect(distance("track", "trakc") == 1)
    }

    @Test func emptyPairsAreIgnored() throws {
        #expect(try spec("&&p=72&") == spec("p=72"))
    }

    @Test func startIsNormalised() throws {
        #expect(try spec("p=1&start=360").start == 0)
        #expect(try spec("p=1&start=-90").start == 270)
        #expect(try spec("p=1&start=-0").start.sign == .plus)
        #expect(try spec("p=1&start=725").start == 5)
    }

    @Test(arguments: [
        // (query, parameter named, words the message contains)
        ("", "p", "required"),
        ("size=100", "p", "required"),
        ("p=", "p", "decimal"),
        ("p=abc", "p", "\"abc\""),
        ("p=0x10", "p", "decimal"),
        ("p=NaN", "p", "decimal"),
        ("p=inf", "p", "decimal"),
        ("p=Infinity", "p", "decimal"),
        ("p=1e3", "p", "decimal"),
        ("p=1e400", "p", "decimal"),
        ("p=1.2.3", "p", "decimal"),
        ("p=--1", "p", "decimal"),
        ("p=.", "p", "decimal"),
        ("p=1_000", "p", "decimal"),
        ("p=%20%201", "p", "decimal"),
        ("p=10000000000000", "p", "out of range -1000000000…1000000000 (a percentage"),
        ("p=10000000000000&max=1000000", "p", "out of range -1e12…1e12"),
        ("p=1&target=1000000001", "target", "out of range -1000000000…1000000000 (a percentage"),
        ("p=1&p=2", "p", "more than once"),
        ("p=1&min=5&max=5", "max", "greater than min"),
        ("p=1&min=6&max=5", "max", "greater than min"),
        ("p=1000000&min=0&max=0.0001", "p", "percentage"),
        ("p=1&slice=0.95", "slice", "0…0.9"),
        ("p=1&slice=-0.1", "slice", "0…0.9"),
        ("p=1&half=maybe", "half", "boolean"),
        ("p=1&half&slice=0.2", "half", "slice"),
        ("p=1&half=1&start=0", "half", "start"),
        ("p=1&start=x", "start", "decimal"),
        ("p=1&dir=left", "dir", "cw, ccw"),
        ("p=1&size=100000", "size", "\"100000\" is out of range 16…1024"),
        ("p=1&size=15", "size", "16…1024"),
        ("p=1&size=12.5", "size", "whole number"),
        ("p=1&size=-20", "size", "whole number"),
        ("p=1&width=0", "width", "> 0"),
        ("p=1&width=41", "width", "size/3"),
        ("p=1&size=30&width=11", "width", "size/3"),
        ("p=1&trackWidth=-1", "trackWidth", "> 0"),
        ("p=1&trackWidth=50", "trackWidth", "size/3"),
        ("p=1&color=blurple", "color", "colour"),
        ("p=1&color=%3Cscript%3E", "color", "colour"),
        ("p=1&color=none", "color", "colour"),
        ("p=1&gradient=red", "gradient", "2 to 8"),
        ("p=1&gradient=1,2,3,4,5,6,7,8,9", "gradient", "2 to 8"),
        ("p=1&gradient=red,,blue", "gradient", "without empty items"),
        ("p=1&track=nope", "track", "colour"),
        ("p=1&fill=url(x)", "fill", "colour"),
        ("p=1&bg=12345", "bg", "colour"),
        ("p=1&outline=#", "outline", "colour"),
        ("p=1&cap=square", "cap", "round, butt"),
        ("p=1&label=", "label", "auto, none or text"),
        ("p=1&label=%0A", "label", "control"),
        ("p=1&label=%E2%80%AEevil", "label", "bidi"),
        ("p=1&label=\(String(repeating: "x", count: 65))", "label", "at most 64"),
        ("p=1&labelColor=1", "labelColor", "colour"),
        ("p=1&decimals=4", "decimals", "0…3"),
        ("p=1&decimals=a", "decimals", "whole number"),
        ("p=1&theme=sepia", "theme", "light, dark, auto"),
        ("p=1&anim=11", "anim", "0…10"),
        ("p=1&anim=-1", "anim", "0…10"),
        ("p=1&shadow=2", "shadow", "boolean"),
        ("p=1&title=", "title", "non-empty"),
        ("p=1&title=a%00b", "title", "control"),
        ("p=1&title=\(String(repeating: "y", count: 129))", "title", "at most 128"),
        ("p=1&label=%ZZ", "label", "percent-encoded"),
        ("p=1&label=%C3", "label", "percent-encoded"),
        ("p=1&title=%FF%FE", "title", "percent-encoded"),
    ])
    func errorsNameTheParameter(query: String, parameter: String, words: String) {
        let failure = error(query)
        #expect(failure?.parameter == parameter, "\(query)")
        #expect(failure?.description.hasPrefix(parameter + ": ") == true, "\(String(describing: failure))")
        #expect(failure?.description.contains(words) == true, "\(String(describing: failure)) lacks \(words)")
    }

    @Test func quotedValuesAreCutAndEscaped() {
        let failure = error("p=" + String(repeating: "9", count: 40) + "x")
        #expect(failure?.description.contains("…") == true)
        let control = RingSpecError.quote("a\u{1}\"\\")
        #expect(control == "\"a\\u{1}\\\"\\\\\"")
    }

    @Test func widthMayReachAThirdOfTheSize() throws {
        #expect(try spec("p=1&width=40").width == 40)
        #expect(try spec("p=1&size=30&width=10&trackWidth=10").resolvedTrackWidth == 10)
        // The stated bound, at the three decimals it is stated with, is the enforced one.
        #expect(refusal("p=1&size=20&width=6.667") == "width: \"6.667\" is out of range > 0 and ≤ 6.666 (size/3)")
        #expect(try spec("p=1&size=20&width=6.666").width == 6.666)
    }

    /// Numbers are read to 1e-9: a smaller magnitude is 0, inside every range that holds 0.
    @Test func numbersBelowTheSmallestMagnitudeReadAsZero() throws {
        #expect(try spec("p=0.0000000001") == spec("p=0"))
        #expect(try spec("p=5&slice=-0.0000000001") == spec("p=5"))
        #expect(try spec("p=0.000000001").values == [1e-9])
    }

    @Test func labelLimitCountsScalarsNotGraphemes() {
        // One grapheme made of 70 scalars must not slip through as "1 character".
        let combining = "e" + String(repeating: "\u{0301}", count: 69)
        let encoded = combining.unicodeScalars.map { scalar in
            String(scalar).utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        }.joined()
        #expect(error("p=1&label=\(encoded)")?.parameter == "label")
    }

    @Test func percentageIsUnclamped() throws {
        let ring = try spec("p=150")
        #expect(ring.ring(0).fraction == 1)
        #expect(ring.ring(0).percentage == 150)
        #expect(RingScene.percentageText(ring) == "150%")
        #expect(RingScene.percentageText(try spec("p=-5")) == "-5%")
        #expect(RingScene.percentageText(try spec("p=72.456&decimals=2")) == "72.46%")
        #expect(RingScene.percentageText(try spec("p=72&decimals=3")) == "72.000%")
        #expect(RingScene.percentageText(try spec("p=3&max=4")) == "75%")
    }
}
