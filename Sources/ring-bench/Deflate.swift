import CZlib
import Foundation
import RingCore
import RingRaster

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
