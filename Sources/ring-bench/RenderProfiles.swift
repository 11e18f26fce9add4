import CZlib
import Foundation
import RingCore
import RingRaster

/// `--profile N`: only parse and render the default ring N times, for callgrind or perf.
func profileSVG(_ arguments: [String]) {
    guard let count = count(arguments) else { return usage() }
    var bytes = 0
    for _ in 0..<count { bytes &+= svg(try! RingSpec(query: "p=72")).count }
    print("\(count) rings, \(bytes) bytes")
}

/// `--profile-png N [QUERY]`: only draw and encode the default ring's PNG (or QUERY's) N times,
/// for callgrind or perf.
func profilePNG(_ arguments: [String]) {
    guard let count = count(arguments) else { return usage() }
    let query = arguments.count > 1 ? arguments[1] : "p=72"
    guard let spec = try? RingSpec(query: query) else {
        print("ring-bench: invalid query \(query)")
        exit(2)
    }
    let scene = RingScene(spec: spec)
    var bytes = 0
    for _ in 0..<count { bytes &+= RingRasterizer.png(scene, scale: 1).count }
    print("\(count) PNGs, \(bytes) bytes")
}

/// `--profile-deflate zlib|runs N`: one deflate engine N times on the default ring's palette
/// rows, for callgrind or perf.
func profileDeflate(_ arguments: [String]) {
    guard let count = count(arguments, at: 1) else { return usage() }
    let canvas = RingRasterizer.draw(RingScene(spec: RingSpec(value: 72)), scale: 1)
    let rows = PNGEncoder.paletteRows(of: canvas)!
    let compression: PNGEncoder.Compression = arguments[0] == "zlib" ? .init(level: 1, strategy: Z_RLE) : .runs()
    var bytes = 0
    for _ in 0..<count { bytes &+= PNGEncoder.deflate(rows, compression).count }
    print("\(count) streams, \(bytes) bytes")
}
