import Foundation
import HTTPServer
import RingCore
import Testing

@testable import RingService

/// shields endpoint documents (`schemaVersion` 1) as live sources, from the tests' document
/// server: `src` without `field`.
@Suite struct EndpointDocumentTests {
    @Test func anEndpointDocumentDrawsItsMessageColourAndLabel() throws {
        let (service, documents) = try LiveValuesTests.live()
        documents.answer(
            "/coverage.json",
            .body(#"{"schemaVersion": 1, "label": "coverage", "message": "72%", "color": "brightgreen"}"#))
        let src = LiveValuesTests.src(documents.url("/coverage.json"))
        let answer = try service.get("/ring.svg?\(src)&slice=0.45")
        #expect(answer.status == 200 && answer.header("X-Ring-Error") == nil)
        let written = try service.get("/ring.svg?p=72&slice=0.45&color=4c1&caption=coverage")
        #expect(answer.body == written.body && answer.header("ETag") == written.header("ETag"))
        // In PNG too, and the URL's own caption and colour win.
        let png = try service.get("/ring.png?\(src)&caption=lines&color=000")
        #expect(png.header("ETag") == (try service.get("/ring.png?p=72&caption=lines&color=000")).header("ETag"))
        // /ring.json reads it as the image does.
        let described = try service.get("/ring.json?\(src)")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(described.body)) as? [String: Any])
        let rings = try #require(body["rings"] as? [[String: Any]])
        #expect(rings.first?["value"] as? Double == 72)
        #expect(documents.count("/coverage.json") == 1)
    }

    @Test func isErrorAndDocumentsThatAreNoEndpointAreErrorImages() throws {
        let (service, documents) = try LiveValuesTests.live()
        let cases: [(String, String, String)] = [
            (
                "/error", #"{"schemaVersion": 1, "label": "tests", "message": "no runs", "isError": true}"#,
                "src: the endpoint reports an error: \"no runs\""
            ),
            (
                "/plain", #"{"coverage": 72}"#,
                "field: is required with src: the path of the value (the document is not a shields endpoint: no "
                    + "schemaVersion 1)"
            ),
            ("/version2", #"{"schemaVersion": 2, "message": "72%"}"#, "field: is required with src"),
            ("/nomessage", #"{"schemaVersion": 1, "label": "x"}"#, "src: the endpoint document has no message"),
            (
                "/words", #"{"schemaVersion": 1, "message": "passing"}"#,
                "src: the endpoint's message \"passing\" is not a number such as 72%"
            ),
        ]
        for (path, body, message) in cases {
            documents.answer(path, .body(body))
            let answer = try service.get("/ring.svg?\(LiveValuesTests.src(documents.url(path)))")
            let error = try #require(answer.header("X-Ring-Error"), "\(path)")
            #expect(error.hasPrefix(RingService.headerSafe(message)), "\(path): \(error)")
            #expect(answer.header("Content-Type") == "image/svg+xml; charset=utf-8", "an image answers, \(path)")
        }
    }

    /// `cacheSeconds` keeps the document longer than the time-to-live, never shorter, at most a day.
    @Test func cacheSecondsLengthensTheTimeToLive() throws {
        let clock = SourceClock()
        let (service, documents) = try LiveValuesTests.live { configuration in
            configuration.sourceClock = clock
            configuration.sources.ttl = 300
        }
        documents.answer("/long.json", .body(#"{"schemaVersion": 1, "message": "10", "cacheSeconds": 3600}"#))
        documents.answer("/short.json", .body(#"{"schemaVersion": 1, "message": "10", "cacheSeconds": 5}"#))
        documents.answer("/huge.json", .body(#"{"schemaVersion": 1, "message": "10", "cacheSeconds": 1e9}"#))
        func get(_ path: String) throws -> InProcessService.Answer {
            try service.get("/ring.svg?\(LiveValuesTests.src(documents.url(path)))")
        }
        #expect(try get("/long.json").header("Cache-Control")?.hasPrefix("public, max-age=3600,") == true)
        #expect(try get("/short.json").header("Cache-Control")?.hasPrefix("public, max-age=300,") == true)
        #expect(try get("/huge.json").header("Cache-Control")?.hasPrefix("public, max-age=86400,") == true)
        clock.advance(by: 1000)
        _ = try get("/long.json")
        _ = try get("/short.json")
        #expect(documents.count("/long.json") == 1 && documents.count("/short.json") == 2)
    }
}
