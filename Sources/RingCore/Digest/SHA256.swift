/// SHA-256 (FIPS 180-4). The toolchain has no crypto library on Linux without a package, and
/// ring identity needs a hash an attacker cannot collide: a ring's digest, its ETag and its SVG
/// element ids come from this. Also used for the playground's Content-Security-Policy hashes.
///
/// Written for the miss path: the state lives in locals, the message schedule on the stack, and
/// a canonical key (one or two blocks) is hashed without allocating.
package enum SHA256 {
    /// The eight 32-bit words of a digest, most significant first.
    package typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The 32-byte digest of `message`.
    package static func hash(_ message: [UInt8]) -> [UInt8] {
        let w = message.withUnsafeBytes { hash($0) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [w.0, w.1, w.2, w.3, w.4, w.5, w.6, w.7] {
            for shift: UInt32 in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return bytes
    }

    /// The digest of `message` as words.
    package static func hash(_ message: UnsafeRawBufferPointer) -> Words {
        var state: Words = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            let whole = message.count / 64
            for block in 0..<whole {
                compress(UnsafeRawBufferPointer(rebasing: message[(block * 64)..<(block * 64 + 64)]), &state, schedule)
            }
            // The tail, 0x80, zeros and the bit length: one block, or two when the tail is
            // 56 bytes or longer.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                let rest = message.count - whole * 64
                for index in 0..<rest { tail[index] = message[whole * 64 + index] }
                tail[rest] = 0x80
                let blocks = rest < 56 ? 1 : 2
                for index in (rest + 1)..<(blocks * 64 - 8) { tail[index] = 0 }
                let bits = UInt64(message.count) &* 8
                for index in 0..<8 {
                    tail[blocks * 64 - 8 + index] = UInt8(truncatingIfNeeded: bits >> UInt64(56 - 8 * index))
                }
                let raw = UnsafeRawBufferPointer(tail)
                for block in 0..<blocks {
                    compress(UnsafeRawBufferPointer(rebasing: raw[(block * 64)..<(block * 64 + 64)]), &state, schedule)
                }
            }
        }
        return state
    }

    /// One 64-byte block into the state.
    private static func compress(
        _ block: UnsafeRawBufferPointer, _ state: inout Words, _ w: UnsafeMutableBufferPointer<UInt32>
    ) {
        for t in 0..<16 {
            w[t] =
                UInt32(block[t * 4]) << 24 | UInt32(block[t * 4 + 1]) << 16 | UInt32(block[t * 4 + 2]) << 8
                | UInt32(block[t * 4 + 3])
        }
        for t in 16..<64 {
            let s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        // Eight rounds a step, the variables' roles rotating instead of their values moving.
        roundConstants.withUnsafeBufferPointer { k in
            for t in stride(from: 0, to: 64, by: 8) {
                round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
                round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1])
                round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2])
                round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3])
                round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4])
                round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5])
                round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6])
                round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7])
            }
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
            state.7 &+ h
        )
    }

    /// One round: `d` takes the new `e`, and `h` the new `a`.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
        let t1 = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g)) &+ constantAndWord
        d &+= t1
        h = t1 &+ (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
