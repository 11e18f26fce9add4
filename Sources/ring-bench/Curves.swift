import Foundation
import RingCore
import RingRaster
import RingService

/// `--curves`: how a new ring's cost grows with its work, from one run. Each series varies one
/// thing of a default ring: its size, its concentric rings, a stack's parts, its ticks, its
/// label's length, and text drawn from the fallback fonts. Each ring is rendered as SVG and as
/// PNG (the median of several rounds, each with the render thread's kept layers forgotten, as
/// a ring of a new style is drawn), beside ``RenderCost``'s estimate (docs/performance.md,
/// "How cost grows").
func curves() {
    let fonts = LabelFonts.loadingStandard()
    let series: [(String, [String])] = [
        ("size (px)", [16, 32, 64, 120, 240, 480, 1024].map { "p=72&size=\($0)" } + ["p=72&size=640&scale=2"]),
        ("rings", (1...4).map { count in "p=" + Array(repeating: "72", count: count).joined(separator: ",") }),
        (
            "stacked parts",
            (2...8).map { count in "p=" + Array(repeating: "9", count: count).joined(separator: ",") + "&stack" }
        ),
        ("ticks", ["p=72", "p=72&ticks=10", "p=72&ticks=25", "p=72&ticks=40"]),
        ("label length", [3, 10, 20, 40].map { "p=72&label=" + String(repeating: "W", count: $0) }),
        ("fallback-font text", ["p=72&label=72%25", "p=72&label=進捗", "p=72&label=進捗状況", "p=72&label=進捗状況を表示中"]),
    ]
    func median(_ rounds: Int, _ body: () -> Int) -> Double {
        var times: [Double] = []
        var sink = 0
        for _ in 0..<rounds {
            let start = now()
            sink &+= body()
            times.append(now() - start)
        }
        if sink == 42 { print("") }
        return times.sorted()[times.count / 2] * 1e6
    }
    /// The ring's SVG and PNG times, and its estimates.
    func measure(_ spec: RingSpec) -> (svg: Double, png: Double, svgEstimate: Double, pngEstimate: Double) {
        let svg = median(41) { RingRenderer.render(spec).count }
        let scene = RingScene(spec: spec)
        let (width, height) = RingRasterizer.pixelSize(of: scene, scale: spec.scale)
        let png = median(width * height > 500_000 ? 5 : 21) {
            RenderScratch.current.forgetKeptLayers()
            return RingRasterizer.png(scene, scale: spec.scale, fonts: fonts).count
        }
        return (svg, png, RenderCost.microseconds(spec), RenderCost.microseconds(spec, pngPixels: width * height))
    }
    // This machine's speed drifts by up to 2× within a run: each ring is measured right after
    // the default one, and its cost is also given as a multiple of that default's.
    let standard = try! RingSpec(query: "p=72")
    print("series | query | SVG µs (× p=72) | SVG estimate | PNG µs (× p=72) | PNG estimate")
    for (name, queries) in series {
        for query in queries {
            guard let spec = try? RingSpec(query: query) else {
                print("invalid \(query)")
                continue
            }
            let base = measure(standard)
            let ring = measure(spec)
            print(
                String(
                    format: "%@ | %@ | %.1f (%.2f) | %.1f | %.0f (%.2f) | %.0f", name, query, ring.svg,
                    ring.svg / base.svg, ring.svgEstimate, ring.png, ring.png / base.png, ring.pngEstimate))
        }
    }
}
