import CZlib
import Foundation
import HTTPServer
import RingCore
import RingRaster
import RingService

/// The full report (no mode flag): parse and render of every catalogue ring, the cache hit
/// path, PNG stages and encoders, text in every language. `--quick`: fewer, smaller batches.
func report(quick: Bool) {
    let batches = quick ? 5 : 31
    let batchSize = quick ? 200 : 2000

    // Warm up for a third of a second before the first figure, so the example measured first does
    // not pay for cold caches and lazy initialisation (docs/performance.md).
    let warmUpEnd = now() + (quick ? 0.05 : 0.33)
    var warmUpBytes = 0
    while now() < warmUpEnd {
        for example in RingExamples.all {
            if let spec = try? RingSpec(query: example.query) { warmUpBytes &+= svg(spec).count }
        }
    }
    if warmUpBytes == 42 { print("") }  // keeps the work observable

    print("parse + render, median per ring (\(batches) batches of \(batchSize)):")
    var total = 0.0
    for example in RingExamples.all {
        let query = example.query
        let nanoseconds = measure(batches: batches, size: batchSize) {
            guard let spec = try? RingSpec(query: query) else { return 0 }
            return svg(spec).count
        }
        total += nanoseconds
        print("  \(pad(example.name, 16)) \(format(nanoseconds))")
    }
    print("  \(pad("catalogue mean", 16)) \(format(total / Double(RingExamples.all.count)))")

    let parseOnly = measure(batches: batches, size: batchSize) { (try? RingSpec(query: "p=72"))?.size ?? 0 }
    let defaultSpec = RingSpec(value: 72)
    let renderOnly = measure(batches: batches, size: batchSize) { svg(defaultSpec).count }
    print("default ring split: parse \(format(parseOnly)), render \(format(renderOnly))")

    // Three concentric default rings against one, each parsed and rendered, as SVG and as PNG.
    func ringCost(_ query: String, png: Bool, batches: Int, size: Int) -> Double {
        measure(batches: batches, size: size) {
            guard let spec = try? RingSpec(query: query) else { return 0 }
            return (png ? image(spec, .png) : svg(spec)).count
        }
    }
    let oneRing = ringCost("p=72", png: false, batches: batches, size: batchSize)
    let threeRings = ringCost("p=72,45,90", png: false, batches: batches, size: batchSize)
    print(
        "three rings (p=72,45,90) against one (p=72), SVG: \(format(threeRings)) against \(format(oneRing)), "
            + "\(String(format: "%.2f", threeRings / oneRing))×")
    let pngBatchSize = max(batchSize / 20, 10)
    let onePNG = ringCost("p=72", png: true, batches: batches, size: pngBatchSize)
    let threePNGs = ringCost("p=72,45,90", png: true, batches: batches, size: pngBatchSize)
    print(
        "three rings (p=72,45,90) against one (p=72), PNG: \(format(threePNGs)) against \(format(onePNG)), "
            + "\(String(format: "%.2f", threePNGs / onePNG))×")

    // A ring of two laps and one of 100 ticks (with a target) against a plain ring, in each format.
    for png in [false, true] {
        let size = png ? pngBatchSize : batchSize
        let plain = ringCost("p=72", png: png, batches: batches, size: size)
        for query in ["p=230&overflow=lap", "p=72&ticks=100&target=80"] {
            let cost = ringCost(query, png: png, batches: batches, size: size)
            print(
                "\(query) against p=72, \(png ? "PNG" : "SVG"): \(format(cost)) against \(format(plain)), "
                    + "\(String(format: "%.2f", cost / plain))×")
        }
    }

    // Text in every language: loading the standard fallback fonts, as `ring serve` does
    // at start-up, and a PNG whose label needs them against a Latin one.
    let fontsStart = now()
    let fallbackFonts = (try? LabelFonts.load(paths: []).fonts) ?? .embedded
    print("fonts: \(fallbackFonts.summary), loaded in \(format((now() - fontsStart) * 1e9))")
    for (name, label) in [
        ("Vietnamese", "Ti%E1%BA%BFn+%C4%91%E1%BB%99+72%25"), ("Chinese", "%E5%AE%8C%E6%88%90+72%25"),
        ("Korean", "%EC%99%84%EB%A3%8C+72%25"), ("Japanese", "%E9%80%B2%E6%8D%97+72%25"),
    ] {
        let spec = try! RingSpec(query: "p=72&label=\(label)")
        let first = now()
        _ = image(spec, .png, fonts: fallbackFonts)  // the glyphs' first decoding
        let cold = (now() - first) * 1e9
        // The Latin reference measured next to each, on this noisy machine.
        let latinPNG = ringCost("p=72&label=Done+72%25", png: true, batches: batches, size: pngBatchSize)
        let warm = measure(batches: batches, size: pngBatchSize) { image(spec, .png, fonts: fallbackFonts).count }
        print(
            "\(name) label PNG against a Latin one (Done 72%): \(format(warm)) against \(format(latinPNG)), "
                + "\(String(format: "%.2f", warm / latinPNG))×; first render \(format(cold))")
    }

    // The cache hit path as the server runs it: parse the request, look up, choose 200 or 304.
    let statistics = ServerStatistics()
    let service = RingService(
        configuration: ServiceConfiguration(), accessLog: try! AccessLog(.off), serverStatistics: statistics)
    let requestBytes = Array(
        "GET /ring.svg?p=72&slice=0.45 HTTP/1.1\r\nHost: rings.example.com\r\nUser-Agent: bench\r\n\r\n".utf8)
    let limits = HTTPRequestParser.Limits(ServerConfiguration())
    func request() -> HTTPRequest {
        var parser = HTTPRequestParser(limits: limits)
        requestBytes.withUnsafeBytes { parser.append($0) }
        return try! parser.next()!
    }
    _ = service.respond(to: request())
    let parseRequest = measure(batches: batches, size: batchSize) { request().query.utf8.count }
    let hit = measure(batches: batches, size: batchSize) { service.respond(to: request()).body.count }
    print("cache hit: request parse \(format(parseRequest)), parse + lookup + respond \(format(hit))")

    // PNG: the whole render (scene, raster, filters, deflate) per image, and its stages for the
    // default ring. Fewer calls a batch: a PNG costs about a hundred SVGs.
    let pngBatch = max(batchSize / 20, 10)
    print("PNG, median per image (\(batches) batches of \(pngBatch)):")
    var pngTotal = 0.0
    var pngBytes = 0
    for example in RingExamples.all {
        guard let spec = try? RingSpec(query: example.query) else { continue }
        let scene = RingScene(spec: spec)
        let nanoseconds = measure(batches: batches, size: pngBatch) {
            RingRasterizer.png(scene, scale: spec.scale).count
        }
        pngTotal += nanoseconds
        pngBytes += RingRasterizer.png(scene, scale: spec.scale).count
        print("  \(pad(example.name, 16)) \(format(nanoseconds))")
    }
    print(
        "  \(pad("catalogue mean", 16)) \(format(pngTotal / Double(RingExamples.all.count))), \(pngBytes) bytes in all")
    let defaultScene = RingScene(spec: defaultSpec)
    let drawOnly = measure(batches: batches, size: pngBatch) { RingRasterizer.draw(defaultScene, scale: 1).width }
    let canvas = RingRasterizer.draw(defaultScene, scale: 1)
    let scanlineOnly = measure(batches: batches, size: pngBatch) { canvas.scanlines().count }
    let scanlines = canvas.scanlines()
    // Encoding: the palette (when the ring has at most 256 colours) and deflate, for each
    // setting, on the default ring and over the whole catalogue, as palette indices and as RGBA.
    func encoded(_ compression: PNGEncoder.Compression, palette: Bool = true) -> [UInt8] {
        PNGEncoder.encode(
            scanlines: scanlines, width: canvas.width, height: canvas.height, compression: compression,
            allowPalette: palette)
    }
    let catalogue = RingExamples.all.compactMap { example -> (lines: [UInt8], width: Int, height: Int)? in
        guard let spec = try? RingSpec(query: example.query) else { return nil }
        let canvas = RingRasterizer.draw(RingScene(spec: spec), scale: spec.scale)
        return (canvas.scanlines(), canvas.width, canvas.height)
    }
    let settings: [PNGEncoder.Compression] =
        [
            .init(level: 3), .init(level: 1), .init(level: 6), .init(level: 1, strategy: Z_RLE),
            .init(level: 3, strategy: Z_RLE), .init(level: 1, strategy: Z_HUFFMAN_ONLY), .runs(),
        ]
        + [PNGEncoder.Filter.sub, .up].flatMap {
            [
                PNGEncoder.Compression(level: 1, strategy: Z_RLE, filter: $0),
                PNGEncoder.Compression(level: 3, filter: $0),
            ]
        }
    print("encode (palette and deflate), default ring and catalogue total; then the same as RGBA rows:")
    for palette in [true, false] {
        for setting in settings {
            let time = measure(batches: batches, size: pngBatch) { encoded(setting, palette: palette).count }
            var catalogueTime = 0.0
            var catalogueBytes = 0
            for image in catalogue {
                catalogueTime += measure(batches: 5, size: 5) {
                    PNGEncoder.encode(
                        scanlines: image.lines, width: image.width, height: image.height, compression: setting,
                        allowPalette: palette
                    ).count
                }
                catalogueBytes +=
                    PNGEncoder.encode(
                        scanlines: image.lines, width: image.width, height: image.height, compression: setting,
                        allowPalette: palette
                    ).count
            }
            print(
                "  \(palette ? "palette" : "RGBA   ") \(pad(setting.description, 22)) default \(format(time)) "
                    + "\(encoded(setting, palette: palette).count) B; catalogue \(format(catalogueTime)) \(catalogueBytes) B"
            )
        }
    }
    print(deflateComparison(batches: batches, size: pngBatch))
    print("default ring PNG split: draw \(format(drawOnly)), scanlines \(format(scanlineOnly))")
}
