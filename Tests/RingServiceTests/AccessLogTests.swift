import HTTPServer
import Testing

@testable import RingService

/// The access log's fields: who the client is behind trusted proxies, request ids, and lines
/// that nothing in a request can break.
@Suite struct AccessLogTests {
    private func request(from peer: String, _ headers: String = "") throws -> HTTPRequest {
        var request = try HTTPRequest(parsing: "GET /ring.svg?p=1 HTTP/1.1\r\nHost: x\r\n\(headers)\r\n")
        request.client = try #require(ClientAddress(literal: peer))
        return request
    }

    private let proxies = ["10.0.0.0/8", "2001:db8::/32"].map { ClientAddressRange($0)! }

    @Test func theClientIsThePeerUnlessThePeerIsTrusted() throws {
        let spoofed = "X-Forwarded-For: 203.0.113.9\r\n"
        #expect(
            ClientIdentity.address(of: try request(from: "198.51.100.7", spoofed), trusting: proxies) == "198.51.100.7")
        #expect(ClientIdentity.address(of: try request(from: "10.1.2.3", spoofed), trusting: proxies) == "203.0.113.9")
        #expect(ClientIdentity.address(of: try request(from: "10.1.2.3", spoofed), trusting: []) == "10.1.2.3")
        #expect(ClientIdentity.address(of: try request(from: "10.1.2.3"), trusting: proxies) == "10.1.2.3")
    }

    /// Read from the right: the first address that is not a trusted proxy. What the client
    /// itself wrote to the left of it is not believed.
    @Test func theFirstUntrustedAddressFromTheRightIsTheClient() throws {
        let chain = "X-Forwarded-For: 1.1.1.1, 203.0.113.9\r\nX-Forwarded-For: 10.9.9.9\r\n"
        #expect(ClientIdentity.address(of: try request(from: "10.1.2.3", chain), trusting: proxies) == "203.0.113.9")
        let allTrusted = "X-Forwarded-For: 10.0.0.1, 10.0.0.2\r\n"
        #expect(ClientIdentity.address(of: try request(from: "10.1.2.3", allTrusted), trusting: proxies) == "10.0.0.1")
        let garbage = "X-Forwarded-For: 203.0.113.9, nonsense\r\n"
        #expect(ClientIdentity.address(of: try request(from: "10.1.2.3", garbage), trusting: proxies) == "10.1.2.3")
    }

    @Test func forwardedIsReadBeforeXForwardedFor() throws {
        let headers =
            "Forwarded: for=192.0.2.60;proto=https, for=\"[2001:db8:cafe::17]:4711\"\r\n"
            + "X-Forwarded-For: 198.51.100.1\r\n"
        // 2001:db8::/32 is trusted, so the hop before it is the client.
        #expect(ClientIdentity.address(of: try request(from: "10.0.0.1", headers), trusting: proxies) == "192.0.2.60")
        let hidden = "Forwarded: for=_hidden, for=203.0.113.4\r\n"
        #expect(ClientIdentity.address(of: try request(from: "10.0.0.1", hidden), trusting: proxies) == "203.0.113.4")
    }

    @Test func addressRangesMatchTheirPrefix() throws {
        let range = try #require(ClientAddressRange("192.168.0.0/16"))
        #expect(range.contains(try #require(ClientAddress(literal: "192.168.255.1"))))
        #expect(!range.contains(try #require(ClientAddress(literal: "192.169.0.1"))))
        #expect(!range.contains(try #require(ClientAddress(literal: "::1"))))
        let six = try #require(ClientAddressRange("2001:db8::/33"))
        #expect(six.contains(try #require(ClientAddress(literal: "2001:db8:7fff::1"))))
        #expect(!six.contains(try #require(ClientAddress(literal: "2001:db8:8000::1"))))
        #expect(ClientAddressRange("0.0.0.0/0")!.contains(try #require(ClientAddress(literal: "8.8.8.8"))))
        for bad in ["10.0.0.0/33", "::/129", "example.com", "10.0.0.0/x", ""] {
            #expect(ClientAddressRange(bad) == nil)
        }
        #expect(ClientAddress(literal: "[::1]:443")?.description == "::1")
        #expect(ClientAddress(literal: "192.0.2.1:80")?.description == "192.0.2.1")
    }

    @Test func requestIDsArePassedThroughWhenPlainAndMadeOtherwise() throws {
        let ids = RequestIDs(loops: 2)
        let plain = try request(from: "192.0.2.1")
        #expect(ids.id(for: plain, given: "abc-123_x.y:z") == "abc-123_x.y:z")
        let made = [
            ids.id(for: plain, given: nil), ids.id(for: plain, given: "two words"), ids.id(for: plain, given: ""),
        ]
        #expect(Set(made).count == 3)
        #expect(made.allSatisfy { $0.wholeMatch(of: #/[0-9a-f]{16}-[0-9a-f]+-[0-9a-f]+/#) != nil })
        #expect(ids.id(for: plain, given: String(repeating: "a", count: 129)).count < 129)
    }

    /// Quotes, backslashes, control bytes and non-ASCII are escaped as nginx does, so a field
    /// can never end early or start a new line.
    @Test func theTextLineEscapesWhatARequestSends() {
        let entry = AccessLog.Entry(
            client: "192.0.2.1", method: "GET", target: "/ring.svg?p=1", minorVersion: 1, status: 200, bytes: 10,
            microseconds: 7, cache: .hit, format: "svg", userAgent: "a\"b\\c\nd é", referer: "", requestID: "id-1")
        let line = String(
            decoding: AccessLog.line(entry, milliseconds: 1_764_000_000_123, format: .text), as: UTF8.self)
        #expect(
            line
                == "192.0.2.1 - - [24/Nov/2025:16:00:00.123 +0000] \"GET /ring.svg?p=1 HTTP/1.1\" 200 10 \"-\" "
                + "\"a\\x22b\\x5Cc\\x0Ad \\xC3\\xA9\" 7 hit svg id-1")
    }
}
