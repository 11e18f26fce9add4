import Primitives
import RingCore
import RingRaster

/// Each figure is the median over batches of the mean time per operation in a batch, so a
/// scheduler hiccup moves one batch, not the figure.
func now() -> Double { MonotonicClock.now() }

/// Median nanoseconds per call of `body` over `batches` batches of `size` calls.
func measure(batches: Int, size: Int, _ body: () -> Int) -> Double {
    var sink = 0
    var samples: [Double] = []
    for _ in 0..<batches {
        let start = now()
        for _ in 0..<size { sink &+= body() }
        samples.append((now() - start) / Double(size) * 1e9)
    }
    if sink == 42 { print("") }  // keeps the work observable
    samples.sort()
    return samples[samples.count / 2]
}

func format(_ nanoseconds: Double) -> String {
    let microseconds = (nanoseconds / 10).rounded() / 100
    return "\(microseconds) µs"
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// A parsed spec's image, the way the service renders it: through `RingImage`.
func image(_ spec: RingSpec, _ format: RingImage.Format, fonts: LabelFonts = .embedded) -> [UInt8] {
    var spec = spec
    let digest = RingSpec.digest(of: &spec)
    return try! RingImage(valid: spec, format: format, digest: digest, limits: RasterLimits(), fonts: fonts).render()
}

/// A parsed spec's SVG, the way the service renders it.
func svg(_ spec: RingSpec) -> [UInt8] { image(spec, .svg) }

/// The count that follows a mode's flag, or nil.
func count(_ arguments: [String], at index: Int = 0) -> Int? {
    index < arguments.count ? Int(arguments[index]) : nil
}
