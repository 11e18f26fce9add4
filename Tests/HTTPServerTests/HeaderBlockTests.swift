import Testing

@testable import HTTPServer

/// A permanent header block is the same lines as a counted one, made safe the same way, and
/// one copy serves every block of the same lines.
@Suite struct HeaderBlockTests {
    private let headers = [("Cache-Control", "public, max-age=60"), ("X-Split", "a\r\nInjected: yes")]

    @Test func aPermanentBlockWritesWhatACountedOneWrites() {
        let counted = HTTPHeaderBlock(headers)
        let permanent = HTTPHeaderBlock.permanent(headers)
        #expect(permanent.bytes == counted.bytes)
        #expect(permanent.count == counted.count)
        var written: [UInt8] = [1]
        permanent.write(to: &written)
        #expect(written == [1] + counted.bytes)
        #expect(String(decoding: permanent.bytes, as: UTF8.self).contains("a  Injected: yes\r\n"))
    }

    @Test func permanentBlocksOfTheSameLinesShareOneCopy() {
        let first = HTTPHeaderBlock.permanent(headers)
        let second = HTTPHeaderBlock.permanent(headers)
        let other = HTTPHeaderBlock.permanent([("X-Other", "1")])
        #expect(first.permanentAddress != nil)
        #expect(first.permanentAddress == second.permanentAddress)
        #expect(other.permanentAddress != first.permanentAddress)
        #expect(HTTPHeaderBlock(headers).permanentAddress == nil)
    }

    /// A line whose value comes as bytes is the line the same value as text gives, CR, LF and
    /// NUL made spaces alike.
    @Test func aValueGivenAsBytesIsMadeSafeAlike() {
        for value in ["\"r6-svg-0123\"", "a\r\nInjected: yes", "nul\u{0}here", ""] {
            let bytes = Array(value.utf8)
            let line = bytes.withUnsafeBufferPointer { HTTPHeaderBlock(name: "ETag", value: $0) }
            #expect(line.bytes == HTTPHeaderBlock(name: "ETag", value: value).bytes, "\(value)")
        }
    }
}
