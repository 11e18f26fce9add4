import Foundation
import HTTPTestSupport
import Testing

@testable import HTTPServer

/// The parser on its own, without a socket.
@Suite struct ExpectContinueParserTests {
    /// Once a request is answered before its body, the bytes after it are never taken for a
    /// request: the body could hold anything.
    @Test func nothingAfterAnEarlyAnswerIsParsed() throws {
        var parser = HTTPRequestParser(limits: HTTPRequestParser.Limits(ServerConfiguration()))
        func feed(_ text: String) {
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { parser.append(UnsafeRawBufferPointer($0)) }
        }
        feed("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\nExpect: 100-continue\r\n\r\n")
        let request = try #require(try parser.next())
        #expect(request.path == "/a")
        #expect(!request.keepAlive)
        feed("GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try parser.next() == nil)
        #expect(!parser.hasPartialRequest)
    }
}
