import Foundation
import HTTPServer
import RingCore
import RingRaster
import RingTestSupport
import Testing

@testable import RingService

/// `/ring.json`: the same parse as the image routes, as JSON.
@Suite struct DescriptionTests {
    private func json(_ answer: InProcessService.Answer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(answer.body))
        return try #require(object as? [String: Any], "\(answer.text)")
    }

    @Test func describesAValidRingAsTheImageRoutesServeIt() throws {
        let harness = try InProcessService()
        let query = "color=%23FF0000&p=72.0,40&slice=0.45&target=80,none&scale=2&v=3"
        let answer = try harness.get("/ring.json?\(query)")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Access-Control-Allow-Origin") == "*")
        let svg = try harness.get("/ring.svg?\(query)")
        let png = try harness.get("/ring.png?\(query)")
        #expect(answer.header("Cache-Control") == svg.header("Cache-Control"))
        let body = try json(answer)
        let spec = try RingSpec(query: query)
        #expect(body["valid"] as? Bool == true)
        #expect(body["canonical"] as? String == spec.canonicalKey)
        #expect(body["digest"] as? String == spec.digest.description)
        #expect((body["errors"] as? [Any])?.isEmpty == true)
        let parameters = try #require(body["parameters"] as? [String: String])
        #expect(parameters == ["p": "72,40", "target": "80,none", "slice": "0.45", "color": "ff0000ff"])
        let rings = try #require(body["rings"] as? [[String: Any]])
        #expect(rings.count == 2)
        #expect(rings[0]["value"] as? Double == 72 && rings[0]["target"] as? Double == 80)
        #expect(rings[0]["fraction"] as? Double == 0.72 && rings[0]["percentage"] as? Double == 72)
        #expect(rings[0]["percentageText"] as? String == "72%" && rings[1]["percentageText"] as? String == "40%")
        #expect(rings[1]["value"] as? Double == 40 && rings[1]["target"] is NSNull)
        #expect(rings[1]["min"] as? Double == 0 && rings[1]["max"] as? Double == 100)
        for (name, image, size) in [("svg", svg, 120), ("png", png, 240)] {
            let format = try #require(body[name] as? [String: Any])
            #expect(format["etag"] as? String == image.header("ETag"), "\(name)")
            #expect(format["width"] as? Int == size && format["height"] as? Int == size, "\(name)")
            // The URL it gives is the canonical one, and serves the same image.
            let url = try #require(format["url"] as? String)
            #expect(try harness.get(url).header("ETag") == image.header("ETag"), "\(url)")
        }
        #expect((body["png"] as? [String: Any])?["missingCharacters"] as? [String] == [])
    }

    /// A stack is one ring, the whole, and its parts: each name, value and share.
    @Test func describesAStacksParts() throws {
        let harness = try InProcessService()
        let body = try json(try harness.get("/ring.json?p=120,12,5&stack&max=sum&parts=passed,failed,skipped"))
        let rings = try #require(body["rings"] as? [[String: Any]])
        #expect(rings.count == 1 && rings[0]["value"] as? Double == 137 && rings[0]["max"] as? Double == 137)
        #expect(rings[0]["percentageText"] as? String == "100%")
        let parts = try #require(body["parts"] as? [[String: Any]])
        #expect(parts.map { $0["name"] as? String } == ["passed", "failed", "skipped"])
        #expect(parts.map { $0["value"] as? Double } == [120, 12, 5])
        #expect(parts.map { $0["percentageText"] as? String } == ["88%", "9%", "4%"])
        #expect(abs((parts[1]["percentage"] as? Double ?? 0) - 1200.0 / 137) < 1e-9)
        // Concentric rings have no parts.
        #expect(try json(try harness.get("/ring.json?p=120,12,5"))["parts"] == nil)
    }

    /// An invalid query gets 400 and every mistake in it, each with its parameter; the first
    /// is the one the image routes show.
    @Test func listsEveryErrorWithItsParameter() throws {
        let harness = try InProcessService()
        let query = "p=abc&colour=red&size=5&size=6&cap=square"
        let answer = try harness.get("/ring.json?\(query)")
        #expect(answer.status == 400)
        #expect(answer.header("Cache-Control") == "public, max-age=60")
        let body = try json(answer)
        #expect(body["valid"] as? Bool == false)
        let errors = try #require(body["errors"] as? [[String: String]])
        #expect(errors.map { $0["parameter"] } == ["p", "colour", "size", "size", "cap"])
        #expect(
            errors[1] == [
                "parameter": "colour", "message": "colour: is not a parameter; did you mean color?",
                "suggestion": "color",
            ])
        #expect(errors[3]["message"] == "size: is given more than once")
        let image = try harness.get("/ring.svg?\(query)")
        #expect(image.header("X-Ring-Error") == RingService.headerSafe(errors[0]["message"] ?? ""))
        // A rule between parameters is checked once every pair is valid.
        let unfit = try json(try harness.get("/ring.json?p=1&size=30&width=20"))
        #expect((unfit["errors"] as? [[String: String]])?.map { $0["parameter"] } == ["width"])
        let long = try harness.get("/ring.json?p=1&label=" + String(repeating: "a", count: 5000))
        #expect(long.status == 400)
        #expect(((try json(long))["errors"] as? [[String: String]])?.first?["parameter"] == "query")
    }

    /// A format the server would refuse says why, and the other format is still described.
    @Test func saysWhichFormatWouldBeRefused() throws {
        let harness = try InProcessService()
        let body = try json(try harness.get("/ring.json?p=1&size=1024&scale=4"))
        #expect(body["valid"] as? Bool == true)
        #expect(
            (body["png"] as? [String: Any])?["error"] as? String
                == "scale: a 4096x4096 px PNG is larger than the limit of 2048 px a side")
        #expect((body["svg"] as? [String: Any])?["width"] as? Int == 1024)
        let slow = try InProcessService { $0.maxRenderMilliseconds = 0 }
        let refused = try json(try slow.get("/ring.json?p=72"))
        let message = try #require((refused["svg"] as? [String: Any])?["error"] as? String)
        #expect(message == (try slow.get("/ring.svg?p=72")).header("X-Ring-Error"))
    }

    /// Text from the query stays inside its JSON string, and cannot act as markup.
    @Test func escapesTextFromTheQuery() throws {
        let harness = try InProcessService()
        let answer = try harness.get("/ring.json?p=1&label=%3C%2Fscript%3E%22%5Cx&title=a%26b")
        let body = try json(answer)
        #expect((body["parameters"] as? [String: String])?["label"] == "</script>\"\\x")
        #expect((body["parameters"] as? [String: String])?["title"] == "a&b")
        for byte in ["<", ">", "&"] { #expect(!answer.text.contains(byte), "\(byte) written raw") }
        let hostile = try harness.get("/ring.json?p=1&%22%3A1%2C%22valid%22%3Atrue=1")
        #expect(hostile.status == 400)
        let errors = try #require((try json(hostile))["errors"] as? [[String: String]])
        #expect(errors.count == 1 && errors[0]["parameter"] == #""\":1,\"valid\":true""#)
    }

    /// The writer escapes what JSON requires and what a page could misread, and nothing else.
    @Test func writesValidJSON() throws {
        var writer = JSONWriter()
        let text = "a\"b\\c\n\u{1}\u{7F}<>&\u{2028}\u{2029}é💻"
        writer.object { json in
            json.key("text")
            json.string(text)
            json.key("list")
            json.array { json in
                json.number(72)
                json.number(0.1)
                json.number(-1e12)
                json.number(1e-9)
                json.bool(true)
                json.null()
                json.array { _ in }
                json.object { _ in }
            }
        }
        let output = String(decoding: writer.bytes, as: UTF8.self)
        #expect(
            output
                == #"{"text":"a\"b\\c\n\u0001\u007f\u003c\u003e\u0026\u2028\u2029é💻","list":[72,0.1,-1000000000000,1e-09,true,null,[],{}]}"#
        )
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
        #expect(parsed["text"] as? String == text)
    }

    /// A description has a strong ETag of its bytes and answers conditional requests.
    @Test func answersConditionalRequests() throws {
        let harness = try InProcessService()
        let first = try harness.get("/ring.json?p=72")
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"j-"))
        #expect(try harness.get("/ring.json?p=72.0&v=1").header("ETag") == etag)
        #expect(try harness.get("/ring.json?p=73").header("ETag") != etag)
        let cached = try harness.get("/ring.json?p=72", headers: "If-None-Match: \(etag)\r\n")
        #expect(cached.status == 304 && cached.body.isEmpty && cached.header("ETag") == etag)
        #expect(try harness.get("/ring.json?p=72", headers: "If-Match: \"other\"\r\n").status == 412)
        #expect(try harness.get("/ring.json?p=72", headers: "If-None-Match: \"other\"\r\n").status == 200)
    }

    /// Over random queries, valid or broken, the description agrees with the image route: valid
    /// exactly when the ring is served, with its ETag, and else the same first message.
    @Test func agreesWithTheImageRouteOnRandomQueries() throws {
        let harness = try InProcessService()
        var generator = SeededGenerator(seed: 27)
        for round in 0..<300 {
            var query = RandomQuery.make(&generator)
            if round % 3 == 1 { query += "&size=\(Int.random(in: 1...2000, using: &generator))" }
            if round % 3 == 2 { query = query.replacing("width=", with: "widht=") + "&x" }
            let answer = try harness.get("/ring.json?\(query)")
            let image = try harness.get("/ring.svg?\(query)")
            let body = try json(answer)
            let error = image.header("X-Ring-Error")
            #expect((body["valid"] as? Bool) == (error == nil), "\(query)")
            if let error {
                let first = (body["errors"] as? [[String: String]])?.first?["message"]
                #expect(first.map(RingService.headerSafe) == error, "\(query)")
            } else {
                #expect((body["svg"] as? [String: Any])?["etag"] as? String == image.header("ETag"), "\(query)")
            }
        }
    }
}
