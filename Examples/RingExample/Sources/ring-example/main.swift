// Renders one ring through the library: the query a URL would carry, parsed and validated into a
// spec, written as SVG and as PNG (with the server's render limits), with the digest and the ETag
// a cache would use. Usage: ring-example QUERY DIRECTORY (writes ring.svg and ring.png there).
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
var sizes: [String] = []
for format in RingImage.Format.allCases {
    // RingImage enforces the render limits (a PNG's pixel size and memory) before drawing.
    let image: RingImage
    do {
        image = try RingImage(spec: spec, format: format)
    } catch {
        FileHandle.standardError.write(Data("ring-example: \(error)\n".utf8))
        exit(1)
    }
    let bytes = image.render()
    try Data(bytes).write(to: directory.appendingPathComponent("ring.\(format.rawValue)"))
    sizes.append("\(format.rawValue) \(bytes.count) B \(image.entityTag)")
}
print("\(spec.canonicalKey) \(spec.digest) " + sizes.joined(separator: " "))
