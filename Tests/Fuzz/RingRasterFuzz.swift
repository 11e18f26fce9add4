// libFuzzer harness for RingScene → coverage raster → PNG, compiled by scripts/checks/fuzz.sh together
// with RingRaster's sources against RingCore, the font table and zlib (not part of the package).
//
// Input: a query (up to the first NUL byte), then bytes that overwrite the scene's numbers with
// arbitrary doubles, NaN and infinities included, so scenes no spec would produce are drawn too.
// Checks: no crash or trap; the canvas has the reported size; premultiplied pixels never exceed
// their alpha; a scene with nothing in it stays transparent; the PNG starts with its signature;
// and the canvas's own PNG, as the service encodes it (a palette read through the renumbering
// by our own deflate, or RGBA by zlib), decodes with zlib's inflate to exactly its scanlines.

import CZlib
import RingCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRingRaster(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let query = String(decoding: bytes[0..<split], as: UTF8.self)
    guard let spec = try? RingSpec(query: query), spec.size <= 256 else { return 0 }
    var scene = RingScene(spec: spec)
    var rest = split < bytes.count ? Array(bytes[(split + 1)...]) : []
    func number() -> Double? {
        guard rest.count >= 8 else { return nil }
        let bits = rest.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        rest.removeFirst(8)
        return Double(bitPattern: bits)
    }
    // The innermost ring's numbers: with one ring, the only one; with several, the one the
    // others surround.
    let ring = scene.rings.count - 1
    if let value = number() { scene.rings[ring].bar?.stroke.radius = value }
    if let value = number() { scene.rings[ring].bar?.stroke.width = value }
    if let value = number() { scene.rings[ring].bar?.stroke.arc.sweep = value }
    if let value = number() { scene.rings[ring].track?.stroke.arc.start = value }
    if let value = number() { scene.rings[ring].outline?.offset = value }
    if let value = number() { scene.shadow?.blur = value }
    if let value = number() { scene.label?.fontSize = value }
    if let value = number() { scene.centerX = value }
    if let value = number() { scene.fill?.radius = value }
    if let value = number() { scene.rings[ring].lap?.shadow.head = value }
    if let value = number() { scene.rings[ring].lap?.shadow.opacity = value }
    if let value = number() { scene.ticks?.width = value }
    if let value = number(), scene.targets?.marks.isEmpty == false { scene.targets?.marks[0].outer = value }
    let scale = Int(rest.first ?? 1) % 4 + 1
    let (width, height) = RingRasterizer.pixelSize(of: scene, scale: scale)
    // Up to 256 × 256 pixels: large enough for every shape, small enough for thousands of runs.
    guard width * height <= 1 << 16 else { return 0 }
    let canvas = RingRasterizer.draw(scene, scale: scale)
    let pixels = canvas.rgbaPixels()
    precondition(canvas.width == width && canvas.height == height && pixels.count == width * height * 4)
    var index = 0
    while index < pixels.count {
        let alpha = pixels[index + 3]
        precondition(
            pixels[index] <= alpha && pixels[index + 1] <= alpha && pixels[index + 2] <= alpha,
            "premultiplied channel above alpha at \(index / 4)")
        index += 4
    }
    var empty = scene
    (empty.background, empty.fill, empty.shadow, empty.label, empty.caption) = (nil, nil, nil, nil, nil)
    (empty.ticks, empty.targets) = (nil, nil)
    empty.rings = empty.rings.map { _ in RingScene.Ring() }
    precondition(RingRasterizer.draw(empty, scale: scale).rgbaPixels().allSatisfy { $0 == 0 }, "an empty scene drew")
    let lines = canvas.scanlines()
    let png = PNGEncoder.encode(scanlines: lines, width: width, height: height)
    precondition(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    precondition(decodedRows(PNGEncoder.encode(canvas), width: width, height: height) == lines, "PNG differs")
    return 0
}

/// The straight RGBA scanlines (each a filter byte, 0, and 4 bytes a pixel) of a PNG this
/// encoder wrote: its chunks read, `IDAT` inflated by zlib, a palette image's indices looked up
/// in `PLTE` and `tRNS`. Traps on anything the encoder should not have written.
private func decodedRows(_ png: [UInt8], width: Int, height: Int) -> [UInt8] {
    var offset = 8
    var (colourType, palette, alpha, idat): (UInt8, [UInt8], [UInt8], [UInt8]) = (0, [], [], [])
    while offset + 12 <= png.count {
        let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
        let data = Array(png[offset + 8..<offset + 8 + length])
        switch type {
        case "IHDR": colourType = data[9]
        case "PLTE": palette = data
        case "tRNS": alpha = data
        case "IDAT": idat += data
        default: break
        }
        offset += 12 + length
    }
    precondition(offset == png.count, "chunks do not end at the file's end")
    let bytesPerPixel = colourType == 3 ? 1 : 4
    precondition(colourType == 3 || colourType == 6, "colour type \(colourType)")
    let expected = height * (width * bytesPerPixel + 1)
    var rows = [UInt8](repeating: 0, count: expected + 1)
    var size = uLong(rows.count)
    let status = rows.withUnsafeMutableBufferPointer { out in
        idat.withUnsafeBufferPointer { uncompress(out.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
    }
    precondition(status == Z_OK && Int(size) == expected, "IDAT: \(status), \(size) of \(expected) bytes")
    guard colourType == 3 else { return Array(rows[0..<expected]) }
    var lines: [UInt8] = []
    lines.reserveCapacity(height * (width * 4 + 1))
    for row in 0..<height {
        let start = row * (width + 1)
        precondition(rows[start] == 0, "filter byte \(rows[start]) in row \(row)")
        lines.append(0)
        for column in 0..<width {
            let index = Int(rows[start + 1 + column])
            precondition(3 * index + 2 < palette.count, "index \(index) past the palette")
            lines += palette[3 * index..<3 * index + 3]
            lines.append(index < alpha.count ? alpha[index] : 255)
        }
    }
    return lines
}
