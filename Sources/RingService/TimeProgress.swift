import HTTPServer
import Primitives
import RingCore

/// Time progress (`from`, `to`): the ring the moment of the request draws, through the same
/// cache and render path as any ring, with its entry the one of `p=VALUE&…` (so two moments that
/// draw the same ring share its ETag), and a `max-age` that ends when the drawing next changes.
extension RingService {
    func timed(_ spec: RingSpec, _ request: HTTPRequest, _ context: ImageContext) -> ImageOutcome {
        let now = configuration.wallClock.now()
        let elapsed = spec.resolving(at: now)
        let format = context.format
        let ring = elapsed.ring
        let text = format == .png && ring.scale > 1 ? "\(ring.canonicalKey)&scale=\(ring.scale)" : ring.canonicalKey
        var made = context
        made.live = LiveFreshness(
            format: format, maxAge: Self.maxAge(until: elapsed.nextChange, now: now), stale: false, fetched: false)
        var miss = ResponseCache.Miss(made: ResponseCache.Query(text, format: format.code), loop: request.eventLoop)
        return self.ring(ring, &miss, request, made)
    }

    /// Seconds until `next`, at least 1 and at most a day; a day when the drawing never changes.
    static func maxAge(until next: Double?, now: Double) -> Int {
        guard let next else { return 86_400 }
        return min(max(Int((next - now).rounded(.up)), 1), 86_400)
    }
}
