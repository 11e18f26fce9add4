import RingTestSupport
import Testing

@testable import RingCore

/// `locale`: percentages in the label and the title as the language writes them, by CLDR.
@Suite struct LocaleTests {
    private func title(_ query: String) throws -> String { RingScene(spec: try RingSpec(query: query)).title }

    @Test func theSeedsAndTheIssuesExamples() throws {
        // fr and de: a no-break space before %, as CLDR writes it; vi without; tr before.
        #expect(try title("p=72&locale=fr") == "72\u{A0}%")
        #expect(try title("p=72.5&decimals=1&locale=fr") == "72,5\u{A0}%")
        #expect(try title("p=72&locale=de") == "72\u{A0}%")
        #expect(try title("p=72.5&decimals=1&locale=vi") == "72,5%")
        #expect(try title("p=72&locale=tr") == "%72")
        #expect(try title("p=72.5&decimals=1&locale=tr") == "%72,5")
        for tag in ["ja", "ko", "zh", "zh-Hant"] { #expect(try title("p=72.5&decimals=1&locale=\(tag)") == "72.5%") }
        // Swiss German writes a point; the Persian minus is U+2212, with Latin digits.
        #expect(try title("p=72.5&decimals=1&locale=de-CH") == "72.5%")
        #expect(try title("p=-5&locale=fa") == "\u{2212}5%")
        #expect(try title("p=-5&locale=tr") == "-%5")
    }

    @Test func everyTextThatShowsAPercentageUsesIt() throws {
        let spec = try RingSpec(query: "p=72,40&locale=fr&target=80,none&label=Fait+{p}&caption={p2}&size=300")
        let scene = RingScene(spec: spec)
        #expect(scene.title == "72\u{A0}%, target 80\u{A0}%, 40\u{A0}%")
        #expect(scene.label?.text == "Fait 72\u{A0}%")
        #expect(scene.caption?.text == "40\u{A0}%")
        // The bound forms: `<` before the whole, the largest value under 100 in the locale's digits.
        #expect(try title("p=0.001&locale=tr") == "<%1")
        #expect(try title("p=99.99&decimals=1&locale=fr") == "99,9\u{A0}%")
        #expect(try title("p=150&locale=fr") == "150\u{A0}%")
    }

    /// Every locale of the table writes the number with Latin digits, its own decimal separator,
    /// and a percent sign.
    @Test func everyLocaleWritesLatinDigits() throws {
        for format in PercentFormat.cldr {
            let text = try title("p=72.5&decimals=1&locale=\(format.tag)")
            #expect(text.contains("72\(format.decimal)5"), "\(format.tag): \(text)")
            #expect(text.contains("%") || text.contains("٪"), "\(format.tag): \(text)")
            #expect(!text.unicodeScalars.contains { $0.properties.numericType != nil && !("0"..."9").contains($0) })
            #expect(!text.unicodeScalars.contains { [0x200E, 0x200F, 0x061C].contains($0.value) }, "\(format.tag)")
        }
        #expect(PercentFormat.cldr.count >= 25)
        for language in ["fr", "vi", "ko", "zh", "ja", "en", "hi", "es", "ar", "bn", "pt", "ru", "de", "id", "tr"] {
            #expect(PercentFormat.languages.contains(language), "\(language)")
        }
    }

    /// The canonical key spells the locale found; a locale that writes as no locale does is
    /// none, and shares the ring's key and ETag.
    @Test func theKeySpellsTheLocaleFound() throws {
        #expect(try RingSpec(query: "p=72&locale=fr-FR") == RingSpec(query: "p=72&locale=FR"))
        #expect(try RingSpec(query: "p=72&locale=fr").canonicalKey.hasSuffix("locale=fr"))
        #expect(try RingSpec(query: "p=72&locale=en-US").digest == RingSpec(query: "p=72").digest)
        #expect(try RingSpec(query: "p=72&locale=fr").digest != RingSpec(query: "p=72").digest)
        #expect(try RingSpec(query: "p=72&locale=fr-CA").locale?.tag == "fr-CA")
        #expect(throws: RingSpecError.self) { try RingSpec(query: "p=72&locale=klingon") }
        #expect(throws: RingSpecError.self) { try RingSpec(query: "p=72&locale=fr_FR") }
    }

    /// The label is sized for the locale's widest percentage, so neighbouring values keep one
    /// size, as without a locale.
    @Test func labelsKeepOneSizeForNeighbouringValues() throws {
        let sizes = try [99.0, 100].map { value in
            RingScene(spec: try RingSpec(query: "p=\(value)&locale=fr")).label?.fontSize
        }
        #expect(sizes[0] == sizes[1])
    }
}
