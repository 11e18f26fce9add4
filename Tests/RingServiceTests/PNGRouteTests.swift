import HTTPServer
import RingCore
import RingRaster
import RingTestSupport
import Testing

@testable import RingService

/// `/ring.png`: the same parameters and errors as `/ring.svg`, its own cache entries and ETags,
/// and limits on what one render and all renders together may take.
@Suite struct PNGRouteTests {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width and height from the IHDR chunk.
    private func size(_ png: [UInt8]) -> (Int, Int) {
        func u32(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    @Test func servesTheRingAsPNG() throws {
        let harness = try InProcessService()
        let response = try harness.get("/ring.png?p=72&slice=0.45")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/png")
        #expect(Array(response.body.prefix(8)) == Self.signature)
        let spec = try RingSpec(query: "p=72&slice=0.45")
        #expect(response.body == RingRasterizer.png(RingScene(spec: spec), scale: 1))
        #expect(response.header("ETag") == "\"r\(RingRasterizer.version)-png-\(spec.digest)\"")
        #expect(response.header("Last-Modified") == HTTPDate.format(RingRasterizer.versionDate))
        #expect(response.header("X-Ring-Error") == nil)
    }

    /// A PNG's text uses the configured fonts; what none has is counted as boxes drawn, and a
    /// server with fallback fonts tags its PNGs apart from one without.
    @Test func pngTextUsesTheConfiguredFonts() throws {
        let plain = try InProcessService()
        let query = "/ring.png?p=72&label=%F0%9F%91%A9+%C4%91%E1%BB%99"  // an emoji no font has, and "độ"
        let boxed = try plain.get(query)
        #expect(boxed.status == 200)
        #expect(plain.service.metrics.notdefs == 1)
        _ = try plain.get("/ring.png?p=72&label=Ti%E1%BA%BFn+%C4%91%E1%BB%99")
        #expect(plain.service.metrics.notdefs == 1)
        #expect(
            plain.service.metrics.exposition(
                cache: plain.service.cache.statistics, cacheCapacity: 0, server: ServerStatistics(),
                pool: .init(queued: 0, running: 0, threads: 1)
            ).contains("ring_png_notdef_characters_total 1\n"))
        var builder = FontBuilder()
        builder.square(for: "👩")
        let fonts = LabelFonts(fallbacks: [try TrueTypeFont(bytes: builder.bytes(), fallbackName: "square")])
        let fallback = try InProcessService { $0.fonts = fonts }
        let drawn = try fallback.get(query)
        #expect(fallback.service.metrics.notdefs == 0)
        #expect(drawn.body != boxed.body)
        #expect(drawn.header("ETag") != boxed.header("ETag"))
        #expect(drawn.header("ETag")?.contains("-f") == true)
        let svg = (try plain.get("/ring.svg?p=72&label=x"), try fallback.get("/ring.svg?p=72&label=x"))
        #expect(svg.0.header("ETag") == svg.1.header("ETag"))
    }

    /// The standard fonts of a server are read on a thread of their own once it is started
    /// (`readFonts`): the reading is taken from whatever would need them first, and a PNG asked
    /// for meanwhile waits for it and draws what fonts read at once draw.
    @Test func aServersFontsAreReadOnAThreadOfTheirOwn() throws {
        let (atOnce, _) = try LabelFonts.load(paths: [])
        let loading = LabelFonts.loadingStandard()
        let harness = try InProcessService { $0.fonts = loading }
        harness.service.readFonts()
        #expect(loading.claimReading() == nil)
        let query = "/ring.png?p=72&label=%E5%AE%8C%E4%BA%86"
        let drawn = try harness.get(query)
        #expect(drawn.status == 200)
        #expect(drawn.body == (try InProcessService { $0.fonts = atOnce }.get(query)).body)
        #expect(loading.summary == atOnce.summary)
        harness.service.readFonts()  // read already: nothing more to do
    }

    /// `scale` multiplies the PNG's pixels and is part of its identity; the SVG ignores it.
    @Test func scaleMakesItsOwnPNGAndChangesNoSVG() throws {
        let harness = try InProcessService()
        let one = try harness.get("/ring.png?p=72")
        let two = try harness.get("/ring.png?p=72&scale=2")
        #expect(size(one.body) == (120, 120))
        #expect(size(two.body) == (240, 240))
        #expect(size(try harness.get("/ring.png?p=64&half&scale=3").body) == (360, 198))
        let digest = try RingSpec(query: "p=72").digest
        #expect(two.header("ETag") == "\"r\(RingRasterizer.version)-png@2x-\(digest)\"")
        let tags = [one, two].compactMap { $0.header("ETag") }
        let svg = try harness.get("/ring.svg?p=72")
        let scaledSVG = try harness.get("/ring.svg?p=72&scale=4")
        #expect(Set(tags + [svg.header("ETag")!]).count == 3)
        #expect(scaledSVG.body == svg.body)
        #expect(scaledSVG.header("ETag") == svg.header("ETag"))
        // Asked again, each comes from its own cache entry.
        #expect(try harness.get("/ring.png?p=72&scale=2").body == two.body)
        #expect(try harness.get("/ring.png?scale=2&p=72").body == two.body)
        // Three PNGs, stored on their first request as costly rings; the two SVG URLs, each
        // asked for once, were answered and not stored.
        #expect(harness.service.cache.statistics.entries == 3)
        #expect(harness.service.cache.statistics.unstored == 2)
    }

    @Test func aPNGsETagDoesNotRevalidateTheSVG() throws {
        let harness = try InProcessService()
        let png = try harness.get("/ring.png?p=72")
        let etag = try #require(png.header("ETag"))
        #expect(try harness.get("/ring.svg?p=72", headers: "If-None-Match: \(etag)\r\n").status == 200)
        #expect(try harness.get("/ring.png?p=72", headers: "If-None-Match: \(etag)\r\n").status == 304)
    }

    @Test func invalidQueriesGetAPNGErrorImage() throws {
        let harness = try InProcessService()
        let response = try harness.get("/ring.png?p=abc")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/png")
        #expect(Array(response.body.prefix(8)) == Self.signature)
        #expect(response.header("X-Ring-Error") == "p: \"abc\" is not a decimal number such as 72 or -0.5")
        #expect(response.header("ETag")?.hasPrefix("\"e\(RingRasterizer.version)-png-") == true)
        #expect(response.header("Cache-Control") == "public, max-age=60")
        #expect(
            try harness.get("/ring.png?p=1&scale=5").header("X-Ring-Error") == "scale: \"5\" is out of range 1...4")
    }

    /// An error image fills the box the query asked for, at its scale: the 120 px default, or
    /// `size` × `scale` when those parse. Each box is its own entry and ETag.
    @Test func anErrorPNGIsLaidOutForTheQuerysBox() throws {
        let harness = try InProcessService()
        #expect(size(try harness.get("/ring.png?p=abc").body) == (120, 120))
        let scaled = try harness.get("/ring.png?p=abc&size=64&scale=2")
        #expect(size(scaled.body) == (128, 128))
        let other = try harness.get("/ring.png?p=abc&size=200")
        #expect(size(other.body) == (200, 200))
        #expect(scaled.header("X-Ring-Error") == other.header("X-Ring-Error"))
        #expect(scaled.header("ETag") != other.header("ETag"))
        #expect(scaled.header("ETag")?.contains("@2x") == true)
        // The largest box an error needs: scale is lowered to keep a side within the limit.
        #expect(size(try harness.get("/ring.png?p=72&size=1024&scale=4").body) == (1024, 1024))
    }

    /// Hostile sizes: the largest side and the memory of one render are capped, and the error
    /// names the parameter to change.
    @Test func hostileSizesGetAnErrorNotARender() throws {
        let harness = try InProcessService()
        let huge = try harness.get("/ring.png?p=72&size=1024&scale=4")
        #expect(huge.header("X-Ring-Error") == "scale: a 4096x4096 px PNG is larger than the limit of 2048 px a side")
        let limited = try InProcessService {
            $0.raster.maxSide = 300
            $0.raster.maxRenderBytes = 1 << 20
        }
        #expect(
            try limited.get("/ring.png?p=72&size=400").header("X-Ring-Error")
                == "size: a 400x400 px PNG is larger than the limit of 300 px a side")
        #expect(
            try limited.get("/ring.png?p=72&size=250").header("X-Ring-Error")
                == "size: a 250x250 px PNG needs 1.2 MiB to render, more than the limit of 1.0 MiB")
        #expect(try limited.get("/ring.png?p=72&size=120").header("X-Ring-Error") == nil)
    }

    /// With every render place taken, a new large PNG gets 503 and `Retry-After` at once, while
    /// SVGs, small PNGs and cached PNGs are still served.
    @Test func aFullRenderGateTurnsNewPNGsAwayButServesTheRest() throws {
        let harness = try InProcessService { $0.pngRenders = 1 }
        let cached = try harness.get("/ring.png?p=10&size=400")
        #expect(cached.status == 200)
        #expect(harness.service.pngRenders.enter())  // a large render in progress elsewhere
        let refused = try harness.get("/ring.png?p=11&size=400")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Cache-Control") == "no-store")
        // A PNG in the box asked for, saying why: 400 px square.
        #expect(refused.header("Content-Type") == "image/png")
        #expect(refused.header("X-Ring-Error") == "busy: too many large PNGs rendering; retry")
        let ihdr = Array(refused.body.dropFirst(16).prefix(8))  // width and height, big-endian
        #expect(ihdr == [0, 0, 1, 0x90, 0, 0, 1, 0x90])
        #expect(try harness.get("/ring.png?p=10&size=400").body == cached.body)
        // Found by its digest under another spelling, it is still served; a ring past the
        // limits still gets the error image that names them, not a 503 to retry.
        #expect(try harness.get("/ring.png?p=10.0&size=400").body == cached.body)
        let tooLarge = try harness.get("/ring.png?p=11&size=1024&scale=2")
        #expect(tooLarge.status == 200 && tooLarge.header("X-Ring-Error")?.hasPrefix("scale: a 2048x2048 px") == true)
        #expect(try harness.get("/ring.png?p=11&size=600&half").status == 503)  // the usual path
        #expect(try harness.get("/ring.svg?p=11&size=400").status == 200)
        #expect(try harness.get("/ring.png?p=11&size=300").status == 200)  // 90 000 px: no place needed
        #expect(
            harness.service.metrics.exposition(
                cache: harness.service.cache.statistics, cacheCapacity: 0, server: ServerStatistics(),
                pool: .init(queued: 0, running: 0, threads: 1)
            ).contains("ring_png_renders_refused_total 2\n"))
        harness.service.pngRenders.leave()
        #expect(try harness.get("/ring.png?p=11&size=400").status == 200)
        #expect(harness.service.pngRenders.count == 0)
    }

    @Test func theGateAdmitsItsLimitAndNoMore() {
        let gate = RenderGate(limit: 3)
        #expect((0..<5).map { _ in gate.enter() } == [true, true, true, false, false])
        #expect(gate.count == 3)
        gate.leave()
        #expect(gate.enter())
        #expect(!gate.enter())
    }

    /// One large PNG at a time by default, whatever the CPUs: the memory bound counts one
    /// largest render (docs/operations.md). Render threads default to the CPU budget.
    @Test func theDefaultsHoldTheMemoryBound() {
        var configuration = ServiceConfiguration()
        #expect(configuration.pngRenders == 1)
        #expect(
            RingService(configuration: configuration, accessLog: try! AccessLog(.off), serverStatistics: .init())
                .pngRenders.limit == 1)
        #expect(configuration.renderThreadCount == CPUBudget.available)
        configuration.renderThreads = 3
        #expect(configuration.renderThreadCount == 3)
    }
}
