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
            $0.loopTurnMicroseconds = 0  // none at once: each small ring is queued
        }
        let replies = Replies()
        #expect(harness.service.respond(to: try request(target), reply: replies.reply()) == nil)
        #expect(harness.service.pool.threadWakes.load(ordering: .relaxed) == 0)  // no render thread woken for it
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
            $0.loopTurnMicroseconds = 0
        }
        let later = Replies()
        #expect(strict.service.respond(to: try request(target), reply: later.reply()) == nil)
        #expect(!strict.service.spareTurn(for: .infinity))
        #expect(later.wait(for: 1).first?.status == .ok)
        #expect(strict.service.metrics.renders == 1)
    }

    /// A small ring past the inline estimate is rendered at once by the loop that asked while
    /// the loop's turn lasts; past it, or with no turn, or past the spare-turn estimate, or
    /// needing a large-PNG place, it is queued.
    @Test func aSmallRingIsRenderedAtOnceWhileTheLoopsTurnLasts() throws {
        let small = "/ring.png?p=41&slice=0.3"
        let spare = ServiceConfiguration().spareRenderMicroseconds
        let harness = try InProcessService {
            $0.renderThreads = 1
            $0.eventLoops = 2
            $0.spareRenderMicroseconds = spare  // the harness's is 0
            $0.loopTurnMicroseconds = 1_000_000  // a second: the test's renders never fill it
        }
        let replies = Replies()
        let now = harness.service.respond(to: try request(small), reply: replies.reply())
        #expect(now?.status == .ok && now?.body.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(harness.service.metrics.renders == 1)
        // Past the spare-turn estimate (it is estimated at 1 310 µs): queued.
        #expect(harness.service.respond(to: try request(Self.costlyPNG("6")), reply: replies.reply()) == nil)
        #expect(replies.wait(for: 1).count == 1)
        // Loop 0's turn spent: its next small ring is queued, and loop 1 still has its own.
        harness.service.loopRenders.spend(1, loop: 0)
        #expect(harness.service.respond(to: try request("/ring.png?p=42&slice=0.3"), reply: replies.reply()) == nil)
        var onLoop1 = try request("/ring.png?p=43&slice=0.3")
        onLoop1.eventLoop = 1
        #expect(harness.service.respond(to: onLoop1, reply: replies.reply())?.status == .ok)
        // Queued rings this small are left to the loops' spare turns (or a render thread awake).
        _ = harness.service.spareTurn(for: 0)
        #expect(replies.wait(for: 1).count == 2, "the costly ring and p=42 came through the pool")

        let noTurn = try InProcessService {
            $0.renderThreads = 1
            $0.spareRenderMicroseconds = spare
            $0.loopTurnMicroseconds = 0
        }
        #expect(noTurn.service.respond(to: try request(small), reply: replies.reply()) == nil)
        _ = noTurn.service.spareTurn(for: 0)
        #expect(replies.wait(for: 1).count == 3)

        // Every ring within the spare-turn estimate, but a large PNG needs a place: queued.
        let generous = try InProcessService {
            $0.renderThreads = 1
            $0.spareRenderMicroseconds = 1_000_000
            $0.loopTurnMicroseconds = 1_000_000
        }
        #expect(generous.service.respond(to: try request("/ring.png?p=8&size=200"), reply: replies.reply()) != nil)
        #expect(generous.service.respond(to: try request("/ring.png?p=7&size=310"), reply: replies.reply()) == nil)
        _ = generous.service.spareTurn(for: 0)
        #expect(replies.wait(for: 1).count == 4)
    }

    /// A spare turn renders one queued ring after another until its budget is spent: with no end, all.
    @Test func aSpareTurnRendersUntilItsDeadline() throws {
        let harness = try InProcessService {
            $0.renderThreads = 1
            $0.eventLoops = 4  // a backlog of four wakes no render thread
            $0.spareRenderMicroseconds = 1_000_000
            $0.loopTurnMicroseconds = 0
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
            $0.loopTurnMicroseconds = 0
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
