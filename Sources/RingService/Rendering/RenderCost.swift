import RingCore
import RingRaster

/// What a render will cost, estimated from the spec and the format before any work is done:
/// the service renders cheap rings on the event loop, hands the rest to the ``RenderPool``,
/// and refuses those past the ceiling with an error image that names the parameter to change.
///
/// A linear model, fitted to `ring-bench --calibrate` (docs/performance.md has the table of
/// estimates against measured times): an SVG costs a base, a little per ring, per label
/// character and per segment (a tick or target mark half a segment), and much per gradient ring
/// (a mask and one piece per stop); a PNG costs nanoseconds per pixel, more for each ring, each
/// gradient ring, the shadow, the filled areas, the tick marks, the targets and each ring that
/// laps (its closed lap beneath). In an SVG a ring that laps costs two more rings, and a stacked
/// part one more ring (its band), in a PNG as a ring does. Text is fitted to the ring, so it adds nothing to a PNG's pixels. Fitted
/// on a slow run of a shared machine, it errs high: measured renders took 0.75 to 1.3 times the
/// estimate, and the largest PNGs less (0.65).
package enum RenderCost {
    /// Estimated microseconds to render `spec` as SVG, or as a PNG of `pngPixels` pixels.
    package static func microseconds(_ spec: RingSpec, pngPixels: Int? = nil) -> Double {
        Factors(spec, pixels: Double(pngPixels ?? 0)).microseconds(png: pngPixels != nil)
    }

    /// The parameter whose default would save the most of the estimate: what an error names
    /// when a ring costs too much. Only asked for then, so the miss path does not pay for it.
    package static func culprit(_ spec: RingSpec, pngPixels: Int? = nil) -> String {
        let png = pngPixels != nil
        let full = Factors(spec, pixels: Double(pngPixels ?? 0))
        var culprit = "p"
        var least = Double.infinity
        for (name, reduced) in full.reductions(png: png) where reduced.microseconds(png: png) < least {
            least = reduced.microseconds(png: png)
            culprit = name
        }
        return culprit
    }

    /// The numbers the model reads, taken from a spec.
    struct Factors {
        var pixels: Double
        var rings: Double
        var gradientRings: Double
        var gradientStops: Double
        var shadow: Bool
        var filled: Bool
        var labelCharacters: Double
        var segments: Double
        /// Tick marks over every ring, and targets.
        var ticks: Double
        var targets: Double
        /// Rings whose value laps: each draws a lap beneath, a head shadow and a head.
        var lapRings: Double
        /// A stack's parts: each a band of its own, written and painted as a ring's bar is.
        var parts: Double
        var scale: Double

        init(_ spec: borrowing RingSpec, pixels: Double) {
            self.pixels = pixels
            rings = Double(spec.ringCount)
            gradientRings = spec.gradient.isEmpty ? 0 : rings
            gradientStops = Double(spec.gradient.count)
            shadow = spec.shadow
            filled = spec.fill != nil || spec.background != nil || spec.outline != nil
            var characters = 0
            if case .text(let text) = spec.label { characters += text.utf8.count }
            characters += spec.caption?.utf8.count ?? 0
            labelCharacters = Double(characters)
            segments = Double(spec.segments ?? 0) * rings
            // N marks a ring, N + 1 on an arc: counted as N + 1.
            ticks = Double(spec.ticks.map { $0 + 1 } ?? 0) * rings
            targets = Double(spec.targets.count { $0 != nil }) * (spec.targets.count == 1 ? rings : 1)
            lapRings =
                spec.overflow == .lap ? Double((0..<spec.ringCount).count { spec.ring($0).laps >= 1 }) : 0
            scale = Double(max(spec.scale, 1))
            parts = spec.stack ? Double(spec.values.count) : 0
        }

        func microseconds(png: Bool) -> Double { png ? pngMicroseconds : svgMicroseconds }

        var svgMicroseconds: Double {
            Self.svg(
                rings: rings + 2 * lapRings + parts, gradientRings: gradientRings + (gradientRings > 0 ? lapRings : 0),
                stops: gradientStops, characters: labelCharacters, segments: segments + 0.5 * (ticks + targets))
        }

        var pngMicroseconds: Double {
            Self.png(
                pixels: pixels, rings: rings + parts, gradientRings: gradientRings, shadow: shadow, filled: filled,
                segments: segments, marks: (ticks: ticks, targets: targets), lapRings: lapRings)
        }

        /// The SVG model, µs.
        static func svg(rings: Double, gradientRings: Double, stops: Double, characters: Double, segments: Double)
            -> Double
        {
            2.5 + 1.0 * (rings - 1) + gradientRings * (16 + 4.5 * stops) + 0.5 * characters + 0.35 * segments
        }

        /// The PNG model, µs: nanoseconds per pixel for each layer, plus the shadow's blur passes
        /// and each segment's ends.
        static func png(
            pixels: Double, rings: Double, gradientRings: Double, shadow: Bool, filled: Bool, segments: Double,
            marks: (ticks: Double, targets: Double), lapRings: Double
        ) -> Double {
            // The ticks are one mask over every ring, as are the targets; each ring that laps
            // adds a closed lap beneath its top one (measured at 120 and 1024 px).
            let layers = (marks.ticks > 0 ? 22 : 0) + (marks.targets > 0 ? 10 : 0) + 14 * lapRings
            let nanosecondsPerPixel =
                20 + 4 * (rings - 1) + 22 * gradientRings + (shadow ? 30 : 0) + (filled ? 10 : 0) + layers
            return 30 + pixels * nanosecondsPerPixel / 1000 + (shadow ? 300 : 0) + 5 * segments
        }

        /// Each factor set back to its default, under the parameter that sets it.
        func reductions(png: Bool) -> [(String, Factors)] {
            var result: [(String, Factors)] = []
            func with(_ name: String, _ change: (inout Factors) -> Void) {
                var copy = self
                change(&copy)
                result.append((name, copy))
            }
            if png {
                with("size") { $0.pixels = 120 * 120 * self.scale * self.scale }
                if scale > 1 { with("scale") { $0.pixels /= self.scale * self.scale } }
                with("shadow") { $0.shadow = false }
            }
            with("p") {
                $0.rings = 1
                $0.gradientRings = min($0.gradientRings, 1)
                $0.segments /= max(self.rings, 1)
            }
            with("gradient") { $0.gradientRings = 0 }
            with(labelCharacters > 0 ? "label" : "caption") { $0.labelCharacters = 0 }
            with("segments") { $0.segments = 0 }
            with("ticks") { $0.ticks = 0 }
            with("overflow") { $0.lapRings = 0 }
            with("stack") { $0.parts = 0 }
            return result
        }
    }
}
