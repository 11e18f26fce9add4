// libFuzzer harness for our own deflate (RingRaster's RunLengthDeflate), compiled by
// scripts/checks/fuzz.sh together with that one source file and the system zlib (not part of the package).
//
// Input: a mode byte, then the data. Mode bit 0 reads the data through a map (the palette
// renumbering the PNG encoder uses): the next 256 bytes are the map. Mode bit 1 expands the
// rest as (value, count) pairs, each `count` + 1 copies of `value`, so that a short input
// makes long runs and many blocks. Mode bit 2 compresses twice with the same encoder, as a
// render thread does image after image.
// Mode bit 3 compresses the data as a palette image's rows instead (`compress(rows:...)`): the
// second byte gives the row length (2…257), every row's first byte is made 0 (the filter
// byte), and the numbering is a permutation of the bytes made from the map's bytes (declined
// when mode bit 4 is set).
// Checks: no crash or trap; the stream fits the encoder's bound; zlib's inflate gives back
// exactly the data (mapped), with nothing left over; for rows, the order of first appearance
// the encoder reports is the pixels' own, and a declined numbering writes nothing.

import CZlib

private let encoder = RunLengthDeflate()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRunLengthDeflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let mode = data[0]
    var rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var map = (0..<256).map { UInt8($0) }
    if mode & 1 != 0 {
        guard rest.count >= 256 else { return 0 }
        map = Array(rest[0..<256])
        rest.removeFirst(256)
    }
    if mode & 2 != 0 {
        var expanded: [UInt8] = []
        var index = 0
        while index + 1 < rest.count {
            expanded += repeatElement(rest[index], count: Int(rest[index + 1]) + 1)
            index += 2
        }
        rest = expanded
    }
    var rowBytes = 0
    if mode & 8 != 0 {
        guard rest.count >= 2 else { return 0 }
        rowBytes = Int(rest.removeFirst()) + 2
        for start in stride(from: 0, to: rest.count, by: rowBytes) { rest[start] = 0 }
        // A permutation (any one keeps the runs): the values ordered by their map byte.
        let order = (0..<256).sorted { (map[$0], $0) < (map[$1], $1) }
        for (position, value) in order.enumerated() { map[value] = UInt8(position) }
    }
    let expected = rest.map { map[Int($0)] }
    for _ in 0..<(mode & 4 != 0 ? 2 : 1) {
        var output: [UInt8] = []
        var written = 0
        if mode & 8 != 0 {
            var pixelsFirst: [UInt8] = []
            var seen = [Bool](repeating: false, count: 256)
            for (position, value) in rest.enumerated() where position % rowBytes != 0 && !seen[Int(value)] {
                seen[Int(value)] = true
                pixelsFirst.append(value)
            }
            var reported: [UInt8]?
            let result = rest.withUnsafeBytes { input in
                encoder.compress(rows: input, rowBytes: rowBytes, into: &output) { appearing in
                    reported = appearing
                    return mode & 16 != 0 ? nil : map
                }
            }
            if let reported { precondition(reported == pixelsFirst, "order of first appearance differs") }
            guard let result else {
                // Declined, or more than a block: the encoder must be ready for the next stream.
                precondition(mode & 16 != 0 || reported == nil, "a numbered stream was not written")
                continue
            }
            written = result
        } else {
            written = rest.withUnsafeBytes { input in
                map.withUnsafeBufferPointer { encoder.compress(input, through: $0.baseAddress!, into: &output) }
            }
        }
        precondition(written <= RunLengthDeflate.bound(rest.count), "past the bound")
        // zlib's inflate, into one byte more than expected: a longer stream would show.
        var inflated = [UInt8](repeating: 0, count: expected.count + 1)
        var inflatedSize = uLong(inflated.count)
        let status = inflated.withUnsafeMutableBufferPointer { out in
            output.withUnsafeBufferPointer {
                uncompress(out.baseAddress, &inflatedSize, $0.baseAddress, uLong(written))
            }
        }
        precondition(status == Z_OK, "inflate failed: \(status)")
        precondition(Int(inflatedSize) == expected.count, "inflated \(inflatedSize) bytes of \(expected.count)")
        precondition(inflated.prefix(expected.count).elementsEqual(expected), "inflated bytes differ")
    }
    return 0
}
