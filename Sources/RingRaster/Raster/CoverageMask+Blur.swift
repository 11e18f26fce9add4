#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CoverageMask {
    /// Blurs the coverage (resolving it first) as SVG's `feGaussianBlur` blurs alpha, with standard
    /// deviation `sigma` in pixels: for `sigma` ≥ 2, three box blurs of the sizes the Filter
    /// Effects specification gives; below that, where boxes are too coarse, the Gaussian itself.
    /// Pixels beyond the mask count as empty, so it needs a margin of 3 `sigma` to hold it all.
    mutating func blur(sigma: Double) {
        resolve()
        guard sigma > 0, width > 0, height > 0 else { return }
        let passes = Self.passes(sigma: sigma)
        var line = [Float](repeating: 0, count: max(width, height))
        var scratch = line
        let (width, height, stride) = (self.width, self.height, self.stride)
        cells.withUnsafeMutableBufferPointer { cells in
            line.withUnsafeMutableBufferPointer { line in
                for row in 0..<height {
                    let values = UnsafeMutableBufferPointer(rebasing: cells[row * stride..<row * stride + width])
                    for pass in passes { pass.apply(values, &scratch) }
                }
                let column = UnsafeMutableBufferPointer(rebasing: line[0..<height])
                for x in 0..<width {
                    for y in 0..<height { column[y] = cells[y * stride + x] }
                    for pass in passes { pass.apply(column, &scratch) }
                    for y in 0..<height { cells[y * stride + x] = column[y] }
                }
            }
        }
    }

    /// One 1-D pass: a box of `left` + 1 + `right` pixels, or a Gaussian kernel.
    private enum Pass {
        case box(left: Int, right: Int)
        case kernel([Float])

        /// Replaces `values` by their blur; `scratch` holds at least as many.
        func apply(_ values: UnsafeMutableBufferPointer<Float>, _ scratch: inout [Float]) {
            let count = values.count
            for index in 0..<count { scratch[index] = values[index] }
            switch self {
            case .box(let left, let right):
                let scale = 1 / Float(left + right + 1)
                // A running sum of the window [index − left, index + right].
                var sum: Float = 0
                for index in 0..<min(right, count) { sum += scratch[index] }
                for index in 0..<count {
                    let entering = index + right
                    if entering < count { sum += scratch[entering] }
                    values[index] = sum * scale
                    let leaving = index - left
                    if leaving >= 0 { sum -= scratch[leaving] }
                }
            case .kernel(let weights):
                let radius = weights.count / 2
                for index in 0..<count {
                    var sum: Float = 0
                    for offset in -radius...radius {
                        let source = index + offset
                        if source >= 0, source < count { sum += scratch[source] * weights[offset + radius] }
                    }
                    values[index] = sum
                }
            }
        }
    }

    private static func passes(sigma: Double) -> [Pass] {
        if sigma < 2 {
            let radius = Int((3 * sigma).rounded(.up))
            var weights = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
            let total = weights.reduce(0, +)
            weights = weights.map { $0 / total }
            return [.kernel(weights)]
        }
        let size = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        if size % 2 == 1 {
            let half = (size - 1) / 2
            return Array(repeating: .box(left: half, right: half), count: 3)
        }
        let half = size / 2
        return [.box(left: half, right: half - 1), .box(left: half - 1, right: half), .box(left: half, right: half)]
    }
}
