import CZlib
import HTTPServer
import Primitives
import RingCore
import RingRaster
import RingService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Release-only measurements of the core and the cache hot path, on one core.
///
///     swift run -c release ring-bench [--quick]
///
/// Each figure is the median over batches of the mean time per operation in a batch, so a
/// scheduler hiccup moves one batch, not the figure.
func now() -> Double { MonotonicClock.now() }

/// Median nanoseconds per call of `body` over `batches` batches of `size` calls.
func measure(batches: Int, size: Int, _ body: () -> Int) -> Double {
    var sink = 0
    var samples: [Double] = []
    for _ in 0..<batches {
        let start = now()
        for _ in 0..<size { sink &+= body() }
        samples.append((now() - start) / Double(size) * 1e9)
    }
    if sink == 42 { print("") }  // keeps the work observable
    samples.sort()
    return samples[samples.count / 2]
}

func format(_ nanoseconds: Double) -> String {
    let microseconds = (nanoseconds / 10).rounded() / 100
    return "\(microseconds) µs"
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// `--profile-hit N` / `--profile-miss N`: only the service path for N requests, all for one
/// ring (cache hits) or each for a new ring (misses), for callgrind or perf.
for (flag, distinct) in [("--profile-hit", false), ("--profile-miss", true)] {
    guard let position = CommandLine.arguments.firstIndex(of: flag), position + 1 < CommandLine.arguments.count,
        let count = Int(CommandLine.arguments[position + 1])
    else { continue }
    let service = RingService(
        configuration: ServiceConfiguration(), accessLog: try! AccessLog(.off), serverStatistics: ServerStatistics())
    let limits = HTTPRequestParser.Limits(ServerConfiguration())
    var total = 0
    for index in 0..<count {
        let target = distinct ? "/ring.svg?p=1.\(1_000_000 + index)" : "/ring.svg?p=72&slice=0.45"
        let bytes = Array("GET \(target) HTTP/1.1\r\nHost: rings.example.com\r\nUser-Agent: bench\r\n\r\n".utf8)
        var parser = HTTPRequestParser(limits: limits)
        bytes.withUnsafeBytes { parser.append($0) }
        total &+= service.respond(to: try! parser.next()!).body.count
    }
    print("\(count) requests, \(total) bytes")
    exit(0)
}

/// `--png-work`: what a new PNG of scripts/bench/miss.lua's rings (`p=1.0000001`, …) costs in
/// process, the median µs: drawn with the thread's kept backdrop and label masks, as the
/// service draws rings of one style one after another, and drawn from nothing (a ring whose
/// style is new), on one line.
if CommandLine.arguments.contains("--png-work") {
    let scenes = (0..<2_000).map { RingScene(spec: try! RingSpec(query: "p=1.\(1_000_000 + $0)")) }
    var next = 0
    let kept = measure(batches: 15, size: 500) {
        next = (next + 1) % scenes.count
        return RingRasterizer.png(scenes[next], scale: 1).count
    }
    let fresh = measure(batches: 15, size: 500) {
        next = (next + 1) % scenes.count
        RenderScratch.current.forgetKeptLayers()
        return RingRasterizer.png(scenes[next], scale: 1).count
    }
    print(String(format: "%.2f %.2f", kept / 1000, fresh / 1000))
    exit(0)
}

/// `--miss-work`: what a new ring costs itself, for scripts/bench.sh's miss goal: the median µs
/// to parse the queries scripts/bench/miss.lua sends (`p=1.0000001`, …) and to render them as
/// SVG, on one line.
if CommandLine.arguments.contains("--miss-work") {
    let queries = (0..<2_000).map { "p=1.\(1_000_000 + $0)" }
    let specs = queries.map { try! RingSpec(query: $0) }
    var next = 0
    let parse = measure(batches: 31, size: 2_000) {
        next = (next + 1) % queries.count
        return (try? RingSpec(query: queries[next]))?.size ?? 0
    }
    let render = measure(batches: 31, size: 2_000) {
        next = (next + 1) % specs.count
        return svg(specs[next]).count
    }
    print(String(format: "%.2f %.2f", parse / 1000, render / 1000))
    exit(0)
}

/// A parsed spec's image, the way the service renders it: through `RingImage`.
func image(_ spec: RingSpec, _ format: RingImage.Format, fonts: LabelFonts = .embedded) -> [UInt8] {
    var spec = spec
    let digest = RingSpec.digest(of: &spec)
    return try! RingImage(valid: spec, format: format, digest: digest, limits: RasterLimits(), fonts: fonts).render()
}

/// A parsed spec's SVG, the way the service renders it.
func svg(_ spec: RingSpec) -> [UInt8] { image(spec, .svg) }

/// `--profile N`: only parse and render the default ring N times, for callgrind or perf.
if let flag = CommandLine.arguments.firstIndex(of: "--profile"), flag + 1 < CommandLine.arguments.count,
    let count = Int(CommandLine.arguments[flag + 1])
{
    var bytes = 0
    for _ in 0..<count { bytes &+= svg(try! RingSpec(query: "p=72")).count }
    print("\(count) rings, \(bytes) bytes")
    exit(0)
}

/// Deflate alone on the default ring's palette rows: zlib's best setting for them (level 1,
/// `Z_RLE`) against our ``RunLengthDeflate``, time and bytes.
func deflateComparison(batches: Int, size: Int) -> String {
    let canvas = RingRasterizer.draw(RingScene(spec: RingSpec(value: 72)), scale: 1)
    guard let rows = PNGEncoder.paletteRows(of: canvas) else { return "the default ring is not a palette image" }
    let zlibRLE = PNGEncoder.Compression(level: 1, strategy: Z_RLE)
    let zlibTime = measure(batches: batches, size: size) { PNGEncoder.deflate(rows, zlibRLE).count }
    let runsTime = measure(batches: batches, size: size) { PNGEncoder.deflate(rows, .runs()).count }
    var line =
        "deflate alone, default ring's \(rows.count) index bytes: zlib level 1 rle \(format(zlibTime)) "
        + "\(PNGEncoder.deflate(rows, zlibRLE).count) B, runs \(format(runsTime)) "
        + "\(PNGEncoder.deflate(rows, .runs()).count) B (\(String(format: "%.1f", zlibTime / runsTime))× faster)"
    // The catalogue's palette images, each at its own scale.
    var (zlibTotal, runsTotal, zlibBytes, runsBytes, images) = (0.0, 0.0, 0, 0, 0)
    for example in RingExamples.all {
        guard let spec = try? RingSpec(query: example.query),
            let rows = PNGEncoder.paletteRows(of: RingRasterizer.draw(RingScene(spec: spec), scale: spec.scale))
        else { continue }
        zlibTotal += measure(batches: max(batches / 3, 3), size: 20) { PNGEncoder.deflate(rows, zlibRLE).count }
        runsTotal += measure(batches: max(batches / 3, 3), size: 20) { PNGEncoder.deflate(rows, .runs()).count }
        zlibBytes += PNGEncoder.deflate(rows, zlibRLE).count
        runsBytes += PNGEncoder.deflate(rows, .runs()).count
        images += 1
    }
    line +=
        "\ndeflate alone, the catalogue's \(images) palette images: zlib level 1 rle \(format(zlibTotal)) "
        + "\(zlibBytes) B, runs \(format(runsTotal)) \(runsBytes) B "
        + "(\(String(format: "%.1f", zlibTotal / runsTotal))× faster)"
    return line
}

/// `--deflate`: only that comparison. `--profile-deflate zlib|runs N`: one engine N times, for
/// callgrind or perf.
if CommandLine.arguments.contains("--deflate") {
    print(deflateComparison(batches: 31, size: 500))
    exit(0)
}
if let flag = CommandLine.arguments.firstIndex(of: "--profile-deflate"), flag + 2 < CommandLine.arguments.count,
    let count = Int(CommandLine.arguments[flag + 2])
{
    let canvas = RingRasterizer.draw(RingScene(spec: RingSpec(value: 72)), scale: 1)
    let rows = PNGEncoder.paletteRows(of: canvas)!
    let compression: PNGEncoder.Compression =
        CommandLine.arguments[flag + 1] == "zlib" ? .init(level: 1, strategy: Z_RLE) : .runs()
    var bytes = 0
    for _ in 0..<count { bytes &+= PNGEncoder.deflate(rows, compression).count }
    print("\(count) streams, \(bytes) bytes")
    exit(0)
}

/// `--profile-png N [QUERY]`: only draw and encode the default ring's PNG (or QUERY's) N times,
/// for callgrind or perf.
if let flag = CommandLine.arguments.firstIndex(of: "--profile-png"), flag + 1 < CommandLine.arguments.count,
    let count = Int(CommandLine.arguments[flag + 1])
{
    let query = flag + 2 < CommandLine.arguments.count ? CommandLine.arguments[flag + 2] : "p=72"
    guard let spec = try? RingSpec(query: query) else {
        print("ring-bench: invalid query \(query)")
        exit(2)
    }
    let scene = RingScene(spec: spec)
    var bytes = 0
    for _ in 0..<count { bytes &+= RingRasterizer.png(scene, scale: 1).count }
    print("\(count) PNGs, \(bytes) bytes")
    exit(0)
}

/// `--calibrate`: each query of a fixed list rendered as SVG and as PNG, its measured time (the
/// best of several rounds) beside ``RenderCost``'s estimate, for fitting and checking the model
/// (docs/performance.md, "What a render costs").
if CommandLine.arguments.contains("--calibrate") {
    let stops = "ff000010,00ff00f0,0000ff80,ffff0020,00ffffa0,ff00ff30,000000c0,ffffff50"
    let label = String(repeating: "W", count: 64)
    let caption = String(repeating: "M", count: 32)
    let queries = [
        "p=72", "p=72&size=16", "p=72&size=300", "p=72&size=1024", "p=72&size=512&scale=2", "p=72,45,90",
        "p=72,45,90,20&size=300", "p=72,45,90,20&size=1024", "p=64.5,99.8,99.7,99.6&size=640&scale=2&width=30&gap=4",
        "p=72&gradient=red,blue", "p=72&gradient=\(stops)&size=300", "p=72&gradient=\(stops)&size=1024",
        "p=72,99,98,97&gradient=\(stops)", "p=72,99,98,97&gradient=\(stops)&size=1024", "p=72&shadow",
        "p=72&shadow&size=1024", "p=72&shadow&size=512&scale=2", "p=72&fill=blue&bg=white&outline=red&size=1024",
        "p=72&label=\(label)&caption=\(caption)", "p=72&segments=20", "p=72&segments=12&size=1024",
        "p=230&overflow=lap", "p=1000,2000&overflow=lap&size=1024&width=40&gap=4", "p=72&ticks=100&target=80",
        "p=1,2&ticks=100&target=50&size=1024&width=40&gap=4",
        "p=1,99.8,99.7,99.6&size=300&width=20&gap=0&shadow&gradient=\(stops)&label=\(label)&caption=\(caption)"
            + "&fill=blue&bg=white&outline=red",
        "p=64.5,99.8,99.7,99.6&size=640&scale=2&width=30&gap=4&gradient=\(stops)&shadow",
    ]
    func best(_ rounds: Int, _ body: () -> Int) -> Double {
        var fastest = Double.infinity
        var sink = 0
        for _ in 0..<rounds {
            let start = now()
            sink &+= body()
            fastest = min(fastest, now() - start)
        }
        if sink == 42 { print("") }
        return fastest * 1e6
    }
    print("format  estimate µs  measured µs  ratio  query")
    for query in queries {
        guard let spec = try? RingSpec(query: query) else {
            print("invalid \(query)")
            continue
        }
        let svg = best(20) { RingRenderer.render(spec).count }
        let scene = RingScene(spec: spec)
        let (width, height) = RingRasterizer.pixelSize(of: scene, scale: spec.scale)
        let png = best(width * height > 500_000 ? 3 : 10) { RingRasterizer.png(scene, scale: spec.scale).count }
        for (name, measured, estimate) in [
            ("svg", svg, RenderCost.microseconds(spec)),
            ("png", png, RenderCost.microseconds(spec, pngPixels: width * height)),
        ] {
            let line = String(format: "%@  %11.1f  %11.1f  %5.2f  ", name, estimate, measured, estimate / measured)
            print(line + query.prefix(100))
        }
    }
    exit(0)
}

let quick = CommandLine.arguments.contains("--quick")
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
    let nanoseconds = measure(batches: batches, size: pngBatch) { RingRasterizer.png(scene, scale: spec.scale).count }
    pngTotal += nanoseconds
    pngBytes += RingRasterizer.png(scene, scale: spec.scale).count
    print("  \(pad(example.name, 16)) \(format(nanoseconds))")
}
print("  \(pad("catalogue mean", 16)) \(format(pngTotal / Double(RingExamples.all.count))), \(pngBytes) bytes in all")
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
