import Foundation
import RingCore
import RingRaster
import RingService

/// `--calibrate`: each query of a fixed list rendered as SVG and as PNG, its measured time (the
/// best of several rounds) beside ``RenderCost``'s estimate, for fitting and checking the model
/// (docs/performance.md, "What a render costs").
func calibrate() {
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
}
