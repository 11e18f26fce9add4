import Dispatch
import Foundation
import HTTPServer
import HTTPTestSupport
import Primitives
import RingCore
import Testing

@testable import RingService

/// Which addresses a source may have.
@Suite struct SourceAddressTests {
    @Test func tunnelsAndTranslationsAreJudgedOrRefused() throws {
        func restriction(_ text: String) throws -> String? { try #require(SourceAddress(literal: text)).restriction }
        #expect(try restriction("::ffff:0:7f00:1") == "loopback", "SIIT, judged by its IPv4 address")
        #expect(try restriction("::ffff:0:a00:1") == "private")
        #expect(try restriction("::ffff:0:808:808") == nil)
        #expect(try restriction("2001:0:4136:e378:8000:63bf:3fff:fdd2") == "Teredo tunnel")
        #expect(try restriction("64:ff9b:1::a00:1") == "local-use NAT64")
        #expect(try restriction("64:ff9b::7f00:1") == "loopback")
        #expect(try restriction("2001:db8::1") == "reserved for documentation", "not Teredo")
        #expect(try restriction("2606:4700::1111") == nil)
    }

    @Test func refusalsNameTheFlag() throws {
        let loopback = try #require(SourceAddress(literal: "127.0.0.1"))
        #expect(
            SourceAddress.refusal(of: loopback, host: "localhost")
                == "localhost resolves to 127.0.0.1, a loopback address (allowed with --source-allow-private)")
        #expect(
            SourceAddress.refusal(of: loopback, host: "127.0.0.1")
                == "127.0.0.1 is a loopback address (allowed with --source-allow-private)")
    }
}
