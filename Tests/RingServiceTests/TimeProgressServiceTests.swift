import Foundation
import HTTPServer
import Primitives
import RingCore
import Testing

@testable import RingService

/// Time progress through the service, with a wall clock the test sets: the ring of the moment,
/// a `max-age` that ends when the drawing next changes, and the drawn ring's ETag.
@Suite struct TimeProgressServiceTests {
    final class Clock: Sendable {
        let seconds = Locked(0.0)
        func set(_ value: Double) { seconds.withLock { $0 = value } }
    }

    static let start = 1_767_225_600.0  // 2026-01-01T00:00:00Z
    static let end = 1_798_761_600.0  // 2027-01-01T00:00:00Z
    static let year = "from=2026-01-01&to=2027-01-01"

    static func service(_ clock: Clock) throws -> InProcessService {
        try InProcessService { $0.wallClock = WallClock { clock.seconds.withLock { $0 } } }
    }

    @Test func theRingOfTheMomentUntilItChanges() throws {
        let clock = Clock()
        let service = try Self.service(clock)
        let spec = try RingSpec(query: Self.year)
        let moment = Self.start + 200.3 * 86_400
        clock.set(moment)
        let answer = try service.get("/ring.svg?\(Self.year)")
        let elapsed = spec.resolving(at: moment)
        let next = try #require(elapsed.nextChange)
        #expect(answer.status == 200 && answer.header("X-Ring-Source") == nil)
        #expect(answer.header("Cache-Control") == "public, max-age=\(Int((next - moment).rounded(.up)))")
        // The drawn ring's bytes and ETag: those of the same ring written with p.
        let written = try service.get("/ring.svg?\(elapsed.ring.canonicalKey)")
        #expect(answer.body == written.body && answer.header("ETag") == written.header("ETag"))
        // A moment later in the same step: the same ETag, a shorter max-age.
        clock.set(next - 1)
        let later = try service.get("/ring.svg?\(Self.year)")
        #expect(later.header("ETag") == answer.header("ETag"))
        #expect(later.header("Cache-Control") == "public, max-age=1")
        // Past the change: another ring, another ETag.
        clock.set(next + 1)
        #expect(try service.get("/ring.svg?\(Self.year)").header("ETag") != answer.header("ETag"))
        // PNG too.
        clock.set(moment)
        let png = try service.get("/ring.png?\(Self.year)")
        #expect(png.header("ETag") == (try service.get("/ring.png?\(elapsed.ring.canonicalKey)")).header("ETag"))
    }

    @Test func spansNotStartedOrOverAreCachedLong() throws {
        let clock = Clock()
        let service = try Self.service(clock)
        clock.set(Self.start - 3600)
        #expect(try service.get("/ring.svg?\(Self.year)").header("Cache-Control") == "public, max-age=3600")
        clock.set(Self.start - 10 * 86_400)
        #expect(try service.get("/ring.svg?\(Self.year)").header("Cache-Control") == "public, max-age=86400")
        clock.set(Self.end + 5)
        let over = try service.get("/ring.svg?\(Self.year)")
        #expect(over.header("Cache-Control") == "public, max-age=86400")
        #expect(over.header("ETag") == (try service.get("/ring.svg?p=100")).header("ETag"))
    }

    @Test func ringJSONGivesTheValueAndItsNextChange() throws {
        let clock = Clock()
        let service = try Self.service(clock)
        clock.set(Self.start + 0.5 * (Self.end - Self.start))
        let answer = try service.get("/ring.json?\(Self.year)&label={left}+left")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        let time = try #require(body["time"] as? [String: Any])
        #expect(time["percentage"] as? Double == 50)
        let next = try #require(time["nextChange"] as? String)
        #expect(next.hasPrefix("2026-07-02T") && next.hasSuffix("Z"))
        #expect((time["maxAge"] as? Double).map { $0 >= 1 && $0 <= 86_400 } == true)
        #expect(
            body["canonical"] as? String == "from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z&label=%7bleft%7d%20left")
    }
}
