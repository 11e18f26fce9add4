import Dispatch
import Foundation
import HTTPServer
import Primitives
import RingCore
import RingRaster
import Synchronization
import Testing

@testable import RingService

/// The render pool behind the service: costly renders leave the loop, one render answers
/// every request for the same new ring, a full queue answers 503, and a drain answers what
/// was still queued.
@Suite struct RenderPoolTests {
    /// A PNG of two gradient rings: past the inline estimate, so the pool renders it (about
    /// 0.5 ms in a release build, far more under the sanitizers), small enough for CI.
    static let costly = "p={n},50&size=100&gradient=red,blue&shadow"

    /// The path of the costly PNG whose first value is `value`: a ring of its own per value.
    static func costlyPNG(_ value: String) -> String {
        "/ring.png?" + costly.replacingOccurrences(of: "{n}", with: value)
    }

    /// Query B of the isolation issue: a 300 px PNG of four gradient rings, about 8 ms.
    static let queryB =
        "p={n},99.8,99.7,99.6&size=300&width=20&gap=0&shadow&gradient=ff000010,00ff00f0,0000ff80,ffff0020,"
        + "00ffffa0,ff00ff30,000000c0,ffffff50&fill=blue&bg=white&outline=red"

    private func request(_ target: String) throws -> HTTPRequest {
        try HTTPRequest(parsing: "GET \(target) HTTP/1.1\r\nHost: rings.test\r\n\r\n")
    }

    /// Responses that render threads send, collected.
    final class Replies: Sendable {
        private let responses = Locked<[HTTPResponse]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func reply() -> HTTPReply {
            HTTPReply.calling { [self] response in
                responses.withLock { $0.append(response) }
                arrived.signal()
            }
        }

        /// Waits for `count` responses, up to 30 s in all.
        func wait(for count: Int) -> [HTTPResponse] {
            for _ in 0..<count { _ = arrived.wait(timeout: .now() + 30) }
            return responses.withLock { $0 }
        }
    }

    @Test func aCheapRingIsAnsweredOnTheLoopAndACostlyOneByThePool() throws {
        let harness = try InProcessService()
        let replies = Replies()
        #expect(harness.service.respond(to: try request("/ring.svg?p=72"), reply: replies.reply()) != nil)
        let costly = Self.costlyPNG("5")
        #expect(harness.service.respond(to: try request(costly), reply: replies.reply()) == nil)
        let answers = replies.wait(for: 1)
        #expect(answers.count == 1)
        #expect(answers.first?.status == .ok)
        #expect(answers.first?.body.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        // Rendered once, then a cache hit answered at once.
        #expect(harness.service.respond(to: try request(costly), reply: replies.reply())?.body == answers.first?.body)
    }

    /// Eight requests for one new costly ring, all at once: one render answers them all.
    @Test func oneRenderAnswersEveryRequestForTheSameRing() throws {
        let harness = try InProcessService()
        let replies = Replies()
        let target = Self.costlyPNG("7")
        for _ in 0..<8 {
            #expect(harness.service.respond(to: try request(target), reply: replies.reply()) == nil)
        }
        let answers = replies.wait(for: 8)
        #expect(answers.count == 8)
        #expect(Set(answers.map(\.body)).count == 1)
        #expect(harness.service.metrics.renders == 1)
    }

    /// One render thread, a queue of one: of many new costly rings asked for at once, the
    /// first renders, one waits, and the rest are told to come back, without a render.
    @Test func aFullQueueAnswers503WithRetryAfter() throws {
        let harness = try InProcessService {
            $0.renderThreads = 1
            $0.renderQueue = 1
        }
        let replies = Replies()
        var refused: [HTTPResponse] = []
        for index in 0..<6 {
            let target = Self.costlyPNG("\(index)")
            if let response = harness.service.respond(to: try request(target), reply: replies.reply()) {
                refused.append(response)
            }
        }
        #expect(refused.count >= 3)
        #expect(refused.allSatisfy { $0.status == .serviceUnavailable })
        let answer = InProcessService.answer(try #require(refused.first))
        #expect(answer.header("Retry-After") == "1")
        #expect(answer.header("Cache-Control") == "no-store")
        // An image, as every image URL answers: an <img> shows a text 503 as broken.
        #expect(answer.header("Content-Type") == "image/png")
        #expect(answer.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(answer.header("X-Ring-Error") == "busy: too many renders waiting; retry")
        // Made once for its box: the next refusal of that box carries the same bytes.
        let bodies = Set(refused.map(\.body))
        #expect(bodies.count == 1)
        let queued = 6 - refused.count
        #expect(replies.wait(for: queued).count == queued)
        let text = harness.service.metrics.exposition(
            cache: harness.service.cache.statistics, cacheCapacity: 0, server: ServerStatistics(),
            pool: .init(queued: 0, running: 0, threads: 1))
        #expect(text.contains("ring_render_queue_full_total \(refused.count)\n"))
    }

    /// Queued rings within the spare-turn estimate are left to the loops (two loops: a backlog
    /// of two wakes no render thread), and a spare turn renders the oldest on the calling
    /// thread; one past the estimate is the render threads', and no spare turn takes it.
    @Test func aSpareTurnRendersACheapQueuedRingOnItsThread() throws {
        let target = Self.costlyPNG("11")
        let cost = try harnessCost(target)
        let harness = try InProcessService {
            $0.renderThreads = 1
            $0.eventLoops = 2
            $0.spareRenderMicroseconds = Int(cost.rounded(.up))
        }
        let replies = Replies()
        #expect(harness.service.respond(to: try request(target), reply: replies.reply()) == nil)
        usleep(50_000)
        #expect(harness.service.metrics.renders == 0)  // no render thread was woken for it
        let caller = pthread_self()
        let onCaller = Locked(false)
        let reply = HTTPReply.calling { _ in onCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 } }
        let again = Self.costlyPNG("12")
        #expect(harness.service.respond(to: try request(again), reply: reply) == nil)
        // No budget: one render a turn.
        #expect(harness.service.spareTurn(for: 0))
        #expect(harness.service.spareTurn(for: 0))
        #expect(!harness.service.spareTurn(for: 0))
        #expect(replies.wait(for: 1).first?.status == .ok)
        #expect(onCaller.withLock { $0 })
        #expect(harness.service.metrics.renders == 2)

        let strict = try InProcessService {
            $0.renderThreads = 1
            $0.eventLoops = 2
            $0.spareRenderMicroseconds = Int(cost.rounded(.down)) - 1
        }
        let later = Replies()
        #expect(strict.service.respond(to: try request(target), reply: later.reply()) == nil)
        #expect(!strict.service.spareTurn(for: .infinity))
        #expect(later.wait(for: 1).first?.status == .ok)
        #expect(strict.service.metrics.renders == 1)
    }

    /// A spare turn renders one queued ring after another until its budget is spent: with no end, all.
    @Test func aSpareTurnRendersUntilItsDeadline() throws {
        let harness = try InProcessService {
            $0.renderThreads = 1
            $0.eventLoops = 4  // a backlog of four wakes no render thread
            $0.spareRenderMicroseconds = 1_000_000
        }
        let replies = Replies()
        try queueCostly(4, tag: "3", on: harness, replies: replies)
        #expect(harness.service.spareTurn(for: .infinity))
        #expect(harness.service.metrics.renders == 4)
        #expect(replies.wait(for: 4).count == 4)
        #expect(!harness.service.spareTurn(for: .infinity))
    }

    /// Spare-turn renders past the backlog wake a render thread, so that a loop too busy for
    /// spare turns leaves none of them waiting.
    @Test func aSpareBacklogWakesTheRenderThreads() throws {
        let harness = try InProcessService {
            $0.renderThreads = 1
            $0.spareRenderMicroseconds = 1_000_000
        }
        let replies = Replies()
        try queueCostly(3, tag: "2", on: harness, replies: replies)
        #expect(replies.wait(for: 3).count == 3)
        #expect(harness.service.metrics.renders == 3)
    }

    /// Asks for `count` costly PNGs of their own (first values `tag`0, `tag`1, …), and
    /// expects each to be deferred to the pool.
    private func queueCostly(_ count: Int, tag: String, on harness: InProcessService, replies: Replies) throws {
        for index in 0..<count {
            let target = Self.costlyPNG("\(tag)\(index)")
            #expect(harness.service.respond(to: try request(target), reply: replies.reply()) == nil)
        }
    }

    /// The service's estimate for the PNG `target`.
    private func harnessCost(_ target: String) throws -> Double {
        let spec = try RingSpec(query: String(target.split(separator: "?", maxSplits: 1)[1]))
        let image = try RingImage(spec: spec, format: .png)
        return try InProcessService().service.admission(image.spec, image, format: .png).cost
    }

    /// Renders not begun when the server drains are answered 503 at once, not rendered.
    @Test func aDrainAnswersWhatWasQueued() throws {
        let harness = try InProcessService {
            $0.renderThreads = 1
            $0.renderQueue = 8
        }
        let replies = Replies()
        try queueCostly(8, tag: "9", on: harness, replies: replies)
        harness.service.drainBegan()
        let answers = replies.wait(for: 8)
        #expect(answers.count == 8)
        let dropped = answers.filter { $0.status == .serviceUnavailable }
        #expect(dropped.count >= 4)  // eight were queued within microseconds; one thread renders
        for response in dropped {
            let answer = InProcessService.answer(response)
            #expect(answer.header("Content-Type") == "image/png" && answer.header("X-Ring-Error") == "stopping: retry")
        }
        #expect(harness.service.metrics.renders == 8 - dropped.count)
    }
}

/// The cost model: what decides inline against pooled, and what the ceiling refuses.
@Suite struct RenderCostTests {
    @Test func theDefaultSVGIsCheapAndQueryBIsNot() throws {
        let inline = Double(ServiceConfiguration().inlineRenderMicroseconds)
        #expect(RenderCost.microseconds(try RingSpec(query: "p=72")) < inline)
        let b = try RingSpec(query: RenderPoolTests.queryB.replacingOccurrences(of: "{n}", with: "1"))
        #expect(RenderCost.microseconds(b, pngPixels: 300 * 300) > 2_000)
        #expect(RenderCost.microseconds(try RingSpec(query: "p=72"), pngPixels: 120 * 120) > inline)
        // Marks and laps add to the estimate, in both formats.
        for query in ["p=72&ticks=100", "p=72&target=80", "p=230&overflow=lap"] {
            let spec = try RingSpec(query: query)
            #expect(RenderCost.microseconds(spec) > RenderCost.microseconds(try RingSpec(query: "p=72")), "\(query)")
            #expect(
                RenderCost.microseconds(spec, pngPixels: 14_400)
                    > RenderCost.microseconds(try RingSpec(query: "p=72"), pngPixels: 14_400), "\(query)")
        }
    }

    @Test(
        arguments: [
            // Back to 120 px saves more than back to 1×; at 200 px, 4× is the larger factor.
            ("p=1,99.8,99.7,99.6&gradient=red,blue&scale=2&size=1024&shadow", 2048 * 2048, "size"),
            ("p=1,99.8,99.7,99.6&gradient=red,blue&scale=4&size=200&shadow", 800 * 800, "scale"),
            ("p=1,99.8,99.7,99.6&gradient=red,blue&size=1024&shadow", 1024 * 1024, "size"),
            ("p=1,2,3,4&gradient=red,blue,green,white,black,red,blue,green", nil, "gradient"),
            ("p=1&label=\(String(repeating: "W", count: 64))", nil, "label"),
            ("p=1,2&ticks=100&size=1024&width=40&gap=4", nil, "ticks"),
            ("p=1,2&ticks=100&size=1024&width=40&gap=4", 1024 * 1024, "size"),
            ("p=1000,2000,3000,900&overflow=lap&size=1024", 1024 * 1024, "size"),
        ] as [(String, Int?, String)])
    func theCulpritIsWhatCostsMost(query: String, pixels: Int?, culprit: String) throws {
        #expect(RenderCost.culprit(try RingSpec(query: query), pngPixels: pixels) == culprit)
    }

    /// The ceiling refuses what is estimated past it, naming the parameter to change; under
    /// it the same ring renders. (Query A of the isolation issue, 432 ms by the estimate, is
    /// past the default 250 ms: `theCulpritIsWhatCostsMost` covers its name.)
    @Test func theCeilingRefusesWithTheParameterToChange() throws {
        let strict = try InProcessService { $0.maxRenderMilliseconds = 1 }
        let answer = try strict.get("/ring.png?p=1&size=300&gradient=red,blue")
        let error = try #require(answer.header("X-Ring-Error"))
        #expect(error.hasPrefix("size: this ring would take about "))
        #expect(error.hasSuffix(" to render, past the limit of 1 ms"))
        let relaxed = try InProcessService()
        #expect(try relaxed.get("/ring.png?p=1&size=300&gradient=red,blue").header("X-Ring-Error") == nil)
        let queryA =
            "/ring.png?p=1,99.8,99.7,99.6&gradient=ff000010,00ff00f0,0000ff80,ffff0020,00ffffa0,ff00ff30,000000c0,"
            + "ffffff50&scale=2&size=1024&shadow"
        let refused = try InProcessService { $0.raster.maxRenderBytes = 96 << 20 }.get(queryA)
        #expect(refused.header("X-Ring-Error")?.hasSuffix("past the limit of 250 ms") == true)
    }
}

/// Error images are cached like rings: a repeated invalid URL is one lookup.
@Suite struct CachedErrorTests {
    @Test func aRepeatedInvalidURLIsACacheHit() throws {
        let harness = try InProcessService()
        let first = try harness.get("/ring.png?p=72&size=oops")
        let hits = harness.service.cache.statistics.hits
        let second = try harness.get("/ring.png?p=72&size=oops")
        #expect(harness.service.cache.statistics.hits == hits + 1)
        #expect(second.body == first.body)
        #expect(second.header("ETag") == first.header("ETag"))
        #expect(second.header("X-Ring-Error") == first.header("X-Ring-Error"))
        #expect(second.header("Cache-Control") == "public, max-age=60")
        // Found in the store by its text the next time (the query is parsed first, and fails
        // again), then in the loop's front, without a parse.
        let query = ResponseCache.Query("p=72&size=oops", format: ImageFormat.png.code)
        #expect(harness.service.cache.findInFront(query: query) == nil)
        for _ in 0..<2 { #expect(try harness.get("/ring.png?p=72&size=oops").body == first.body) }
        #expect(harness.service.cache.findInFront(query: query) != nil)
        #expect(harness.service.cache.statistics.hits == hits + 4)  // three requests and the lookup above
    }

    /// Two invalid URLs with one message share the one image; a ring never shares an error's
    /// entry, in either format.
    @Test func errorsShareByMessageAndNeverWithRings() throws {
        let harness = try InProcessService()
        let one = try harness.get("/ring.svg?p=72&size=oops")
        let other = try harness.get("/ring.svg?size=oops&p=72")
        #expect(one.header("ETag") == other.header("ETag"))
        #expect(try harness.get("/ring.png?p=72&size=oops").header("ETag") != one.header("ETag"))
        #expect(try harness.get("/ring.svg?p=72").header("ETag") != one.header("ETag"))
    }
}

/// What an LRU lets go of, it no longer holds: an evicted response's body is freed at once,
/// not kept by a free slot until it is reused.
@Suite struct EvictionReleasesTests {
    final class Payload {}

    @Test func anEvictedValueIsReleased() {
        var cache = LRUCache<TestKey, Payload>(capacity: 10)
        weak var first: Payload?
        do {
            let payload = Payload()
            first = payload
            cache.insert(payload, for: "1", cost: 10)
        }
        #expect(first != nil)
        cache.insert(Payload(), for: "2", cost: 10)  // evicts 1
        #expect(first == nil)
    }
}
