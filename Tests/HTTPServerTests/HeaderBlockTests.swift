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

    /// A line whose value is written in place is the line the same value as text gives, CR, LF
    /// and NUL made spaces alike, wherever they fall among the words it is checked in.
    @Test func aValueWrittenInPlaceIsMadeSafeAlike() {
        var values = ["\"r6-svg-0123\"", "a\r\nInjected: yes", "nul\u{0}here", "", "0123456789abcdef"]
        for position in 0..<17 {
            for bad in ["\r", "\n", "\u{0}"] {
                var characters = Array("abcdefghijklmnopq")
                characters[position] = Character(bad)
                values.append(String(characters))
            }
        }
        for value in values {
            let bytes = Array(value.utf8)
            let line = HTTPHeaderBlock(name: "ETag", valueCapacity: bytes.count + 3) { room in
                _ = room.initialize(from: bytes)
                return bytes.count
            }
            #expect(line.bytes == HTTPHeaderBlock(name: "ETag", value: value).bytes, "\(value.debugDescription)")
            #expect(!line.bytes.dropLast(2).contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
        }
    }
}
