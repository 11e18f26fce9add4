import Foundation
import RingTestSupport
import Testing

@testable import RingCore

@Suite struct RingDigestTests {
    private func hex(_ text: String) -> String {
        SHA256.hash(Array(text.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The 32 hex digits, eight a word, against the standard library's radix 16, over every
    /// nibble value in every place and random digests.
    @Test func hexDigitsAreTheDigestsHalvesInRadix16() {
        func reference(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        var generator = SeededGenerator(seed: 41)
        var halves: [UInt64] = [0, .max, 0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210]
        for nibble in 0..<16 as Range<UInt64> { halves.append(nibble &* 0x1111_1111_1111_1111) }
        halves += (0..<200).map { _ in UInt64.random(in: 0...(.max), using: &generator) }
        for (high, low) in zip(halves, halves.reversed()) {
            let digest = RingDigest(high: high, low: low)
            #expect(digest.description == reference(high) + reference(low))
        }
    }

    /// FIPS 180-4 examples, and messages around the one- and two-block padding boundaries.
    @Test func sha256KnownVectors() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(String(repeating: "a", count: 1000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // 55, 56 and 64 bytes: the last that pads into one block, the first that needs two, one whole block.
        #expect(
            hex(String(repeating: "a", count: 55))
                == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(
            hex(String(repeating: "a", count: 56))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(
            hex(String(repeating: "a", count: 64))
                == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    /// The digest is SHA-256 of the canonical key, truncated to 128 bits: a change here
    /// changes every ETag, cache key and element id.
    @Test func digestIsTheTruncatedSHA256OfTheCanonicalKey() throws {
        let digest = try RingSpec(query: "p=72").digest
        #expect(digest.description == "82099daeeb5afc575e49e772924b3ac8")
        #expect(digest == RingDigest(of: "p=72"))
        #expect(digest.description == String(hex("p=72").prefix(32)))
    }

    /// These two queries have the same 64-bit FNV-1a hash, the identity the cache, the ETag and
    /// the ids used to rest on: the second was served as the first ring.
    static let fnvCollision = ("p=72&label=k4bp9UaYWwb", "p=72&label=02UCwDWsfVj")

    @Test func theFNVCollidingPairHasTwoDigestsAndTwoSetsOfIds() throws {
        let (a, b) = Self.fnvCollision
        #expect(fnv1a64(a) == fnv1a64(b), "the regression pair must still collide under FNV-1a")
        let first = try RingSpec(query: a)
        let second = try RingSpec(query: b)
        #expect(first.digest != second.digest)
        let firstIDs = ids(in: RingRenderer.render(first))
        let secondIDs = ids(in: RingRenderer.render(second))
        #expect(!firstIDs.isEmpty)
        #expect(firstIDs == ["r\(first.digest)"])
        #expect(secondIDs == ["r\(second.digest)"])
    }

    /// Many random distinct specs: distinct canonical keys have distinct digests and share no
    /// element id, so rings inlined in one page never reach each other's styles.
    @Test func distinctSpecsNeverShareADigestOrAnId() throws {
        var generator = SeededGenerator(seed: 11)
        var digests: [RingDigest: String] = [:]
        var idOwners: [String: String] = [:]
        var distinct = 0
        for _ in 0..<3000 {
            let spec = try RingSpec(query: RandomQuery.make(&generator) + "&label=x")
            let key = spec.canonicalKey
            if let earlier = digests[spec.digest] {
                #expect(earlier == key, "two rings share digest \(spec.digest): \(earlier) and \(key)")
                continue
            }
            digests[spec.digest] = key
            distinct += 1
            for id in ids(in: RingRenderer.render(spec)) {
                #expect(idOwners[id] == nil, "\(key) reuses \(id) of \(idOwners[id] ?? "")")
                idOwners[id] = key
            }
        }
        #expect(distinct > 2900)
    }

    /// The distinct `r` + 32-hex-digit prefixes of ids and class names in an SVG.
    private func ids(in svg: [UInt8]) -> Set<String> {
        let text = String(decoding: svg, as: UTF8.self)
        let pattern = try! NSRegularExpression(pattern: "r[0-9a-f]{32}(?=-)")
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) })
    }

    private func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
