import Foundation
import RingCore
import RingRaster

/// `--png-work`: what a new PNG of scripts/bench/miss.lua's rings (`p=1.0000001`, …) costs in
/// process, the median µs: drawn with the thread's kept backdrop and label masks, as the
/// service draws rings of one style one after another; drawn from nothing (a ring whose style
/// is new); and with `slice` 0.1…0.9 in turn, as bench.sh's interleaved round asks, on one line.
func pngWork() {
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
    let mixed = (0..<2_000).map {
        RingScene(spec: try! RingSpec(query: "p=1.\(1_000_000 + $0)&slice=0.\($0 % 9 + 1)"))
    }
    let interleaved = measure(batches: 15, size: 500) {
        next = (next + 1) % mixed.count
        return RingRasterizer.png(mixed[next], scale: 1).count
    }
    print(String(format: "%.2f %.2f %.2f", kept / 1000, fresh / 1000, interleaved / 1000))
}

/// `--miss-work`: what a new ring costs itself, for scripts/bench/bench.sh's miss goal: the median µs
/// to parse the queries scripts/bench/miss.lua sends (`p=1.0000001`, …) and to render them as
/// SVG, on one line.
func missWork() {
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
}
