// Renders one ring through the library: the query a URL would carry, parsed and validated into a
// spec, written as SVG and as PNG (with the server's render limits), with the digest a cache or
// an ETag would use. Usage: ring-example QUERY DIRECTORY (writes ring.svg and ring.png there).
import Foundation
import RingCore
import RingRaster

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ring-example QUERY DIRECTORY\n".utf8))
    exit(2)
}
let spec: RingSpec
do {
    spec = try RingSpec(query: arguments[1])
} catch {
    // Every error names the parameter at fault: `size: "100000" is out of range 16…1024`.
    FileHandle.standardError.write(Data("ring-example: \(error)\n".utf8))
    exit(1)
}
let directory = URL(fileURLWithPath: arguments[2])
let svg = RingRenderer.render(spec)
try Data(svg).write(to: directory.appendingPathComponent("ring.svg"))

let scene = RingScene(spec: spec)
if let refusal = RasterLimits().refusal(scene, scale: spec.scale) {
    FileHandle.standardError.write(Data("ring-example: \(refusal)\n".utf8))
    exit(1)
}
let png = RingRasterizer.png(scene, scale: spec.scale)
try Data(png).write(to: directory.appendingPathComponent("ring.png"))
print("\(spec.canonicalKey) \(spec.digest) svg \(svg.count) B png \(png.count) B")
