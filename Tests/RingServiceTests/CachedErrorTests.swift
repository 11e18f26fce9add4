import Dispatch
import Foundation
import HTTPServer
import Primitives
import RingCore
import RingRaster
import Synchronization
import Testing

@testable import RingService

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
