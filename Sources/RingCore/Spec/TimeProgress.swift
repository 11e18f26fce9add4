/// Time progress (`from` and `to`): a ring whose value is the share of a span of time elapsed
/// when it is asked for.
extension RingSpec {
    /// Whether the value comes from `from` and `to` and the moment of the request.
    public var isTimed: Bool { from != nil }

    /// The label's text, when it is text of its own.
    var labelText: String? {
        if case .text(let text) = label { text } else { nil }
    }

    /// What a timed spec draws at `now` (seconds since 1970, UTC), and until when.
    public struct Elapsed: Sendable {
        /// The ring drawn: the value, to the step the drawing can show, and `{left}` written.
        public var ring: RingSpec
        /// The exact percentage of the span elapsed, 0 to 100.
        public var percentage: Double
        /// When the drawing next changes (the bar, the label at its decimals, or `{left}`);
        /// nil when it never does (the span is over and no text counts down).
        public var nextChange: Double?
    }

    /// The ring a timed spec draws at `now`. Its value stands for the step of the drawing the
    /// percentage elapsed falls in: steps of half a unit of the label's last digit, halved
    /// until the bar moves by at most a quarter pixel along the outer ring, each drawn at its
    /// middle. Two moments in one step make the same canonical key (and ETag); the label rounds
    /// as `p` at the exact percentage would, since a step's middle is never on a rounding edge
    /// (its edges may be, and a value at an edge divided by 100 and multiplied again need not
    /// land on it). `{left}` in the label and the caption is the time left before `to`.
    public func resolving(at now: Double) -> Elapsed {
        precondition(isTimed)
        let from = from!
        let to = to!
        let span = to - from
        let percentage = ((now - from) / span * 100).clamped(to: 0...100)
        let bands = RingGeometry.Bands(spec: self)
        let arc = max(bands.total * .pi / 180 * bands.outerRadius * Double(scale), 1)
        var step = [1.0, 0.1, 0.01, 0.001][decimals] / 2
        while step > 25 / arc { step /= 2 }
        let steps = (percentage / step).rounded(.down)
        var ring = self
        ring.values = [percentage >= 100 ? 100 : percentage <= 0 ? 0 : (steps + 0.5) * step]
        ring.from = nil
        ring.to = nil
        var next: Double? =
            now < from ? from : percentage >= 100 ? nil : max(from + (steps + 1) * step / 100 * span, now + 1)
        let counts = labelText?.contains("{left}") == true || caption?.contains("{left}") == true
        if counts {
            let (left, change) = Self.timeLeft(to - now)
            if let text = labelText { ring.label = .text(text.replacing("{left}", with: left)) }
            ring.caption = caption?.replacing("{left}", with: left)
            if let change { next = min(next ?? .infinity, now + max(change, 1)) }
        }
        return Elapsed(ring: ring, percentage: percentage, nextChange: next)
    }

    /// `seconds` left in its largest whole unit (`3 days`, `5 hours`, `12 minutes`, `40
    /// seconds`; `0 seconds` once over), and the seconds until that text changes (nil once over).
    static func timeLeft(_ seconds: Double) -> (String, Double?) {
        guard seconds > 0 else { return ("0 seconds", nil) }
        for (unit, name) in [(86_400.0, "day"), (3600, "hour"), (60, "minute"), (1, "second")] where seconds >= unit {
            let count = (seconds / unit).rounded(.down)
            // The text changes once fewer than `count` whole units are left.
            return ("\(Int(count)) \(name)\(count == 1 ? "" : "s")", seconds - count * unit)
        }
        return ("0 seconds", seconds)
    }
}
