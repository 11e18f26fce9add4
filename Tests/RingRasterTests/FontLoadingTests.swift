import Dispatch
import RingCore
import Testing

@testable import RingRaster

/// The standard fallback fonts read on a thread of their own: the same fonts, tags and pixels
/// as read at once, whatever waits for them first.
@Suite struct FontLoadingTests {
    @Test func readingInTheBackgroundGivesTheFontsReadAtOnce() throws {
        let (atOnce, warnings) = try LabelFonts.load(paths: [])
        let loading = LabelFonts.loadingStandard()
        // Asked before they are surely read: the answer waits, and is the same.
        let copy = LabelFonts(copying: loading)
        #expect(copy.tag == atOnce.tag)
        #expect(loading.fonts.map(\.name) == atOnce.fonts.map(\.name))
        #expect(loading.fonts.map(\.path) == atOnce.fonts.map(\.path))
        #expect(loading.summary == atOnce.summary && loading.warnings == warnings)
        #expect(loading.hasFallbacks == atOnce.hasFallbacks)
        let spec = try RingSpec(query: "p=72&label=%E5%AE%8C%E4%BA%86+72%25&size=200")
        let drawn = try RingImage(spec: spec, format: .png, fonts: LabelFonts(copying: loading)).render()
        #expect(drawn == (try RingImage(spec: spec, format: .png, fonts: atOnce).render()))
        let tag = try RingImage(spec: spec, format: .png, fonts: loading).entityTag
        #expect(tag == (try RingImage(spec: spec, format: .png, fonts: atOnce).entityTag))
    }

    /// A server claims the reading and runs it on a thread of its own: one claim for the
    /// object and all its copies, and whatever asks meanwhile waits for that thread.
    @Test func theReadingIsClaimedOnceAndWaitedFor() throws {
        let (atOnce, _) = try LabelFonts.load(paths: [])
        let loading = LabelFonts.loadingStandard()
        let copy = LabelFonts(copying: loading)
        let read = try #require(loading.claimReading())
        #expect(copy.claimReading() == nil && loading.claimReading() == nil)
        let started = DispatchSemaphore(value: 0)
        DispatchQueue(label: "test.fonts").async {
            started.signal()
            read()
        }
        started.wait()
        #expect(copy.summary == atOnce.summary)
        #expect(loading.tag == atOnce.tag)
        #expect(atOnce.claimReading() == nil && LabelFonts.embedded.claimReading() == nil)
        #expect(!LabelFonts.embedded.hasFallbacks && LabelFonts.embedded.fonts.map(\.name) == ["DejaVu Sans Bold"])
    }
}
