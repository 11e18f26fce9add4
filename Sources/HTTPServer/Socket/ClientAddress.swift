#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client's IP address: IPv4 held as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), so a dual-stack
/// listener's two spellings of one client are one address.
package struct ClientAddress: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes of the IPv6 form, big-endian, in two halves.
    package let high: UInt64
    package let low: UInt64

    /// No address: a request built without a connection (tests, benchmarks).
    package static let unknown = ClientAddress(high: 0, low: 0)

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From 4 (IPv4) or 16 (IPv6) bytes.
    package init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        switch bytes.count {
        case 4: self.init(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + bytes)
        case 16:
            let half = { (range: Range<Int>) in bytes[range].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            self.init(high: half(0..<8), low: half(8..<16))
        default: return nil
        }
    }

    /// The address `text` spells: an IPv4 or IPv6 literal, an IPv6 one possibly in brackets
    /// and either possibly with a port (`[::1]:443`, `192.0.2.1:80`), as `X-Forwarded-For`
    /// and `Forwarded` carry them.
    package init?(literal text: some StringProtocol) {
        var text = String(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = String(text[..<colon])
        }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.init(bytes: withUnsafeBytes(of: ipv4) { Array($0) })
            return
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, text, &ipv6) == 1 else { return nil }
        self.init(bytes: withUnsafeBytes(of: ipv6) { Array($0) })
    }

    /// The address of an accepted socket's peer, if IPv4 or IPv6.
    init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let bytes = withUnsafeBytes(of: &storage) { raw in
                raw.load(as: sockaddr_in.self).sin_addr
            }
            self.init(bytes: withUnsafeBytes(of: bytes) { Array($0) })
        case AF_INET6:
            let bytes = withUnsafeBytes(of: &storage) { raw in
                raw.load(as: sockaddr_in6.self).sin6_addr
            }
            self.init(bytes: withUnsafeBytes(of: bytes) { Array($0) })
        default: return nil
        }
    }

    /// Whether this is an IPv4 address (IPv4-mapped).
    package var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// `192.0.2.1`, or the IPv6 text form (`2001:db8::1`).
    package var description: String {
        if isIPv4 {
            return [24, 16, 8, 0].map { String((low >> UInt64($0)) & 0xFF) }.joined(separator: ".")
        }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { raw in
            for index in 0..<8 {
                raw[index] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
                raw[8 + index] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * index))
            }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A block of addresses, `ADDRESS/PREFIX` (`10.0.0.0/8`, `2001:db8::/32`) or one address.
package struct ClientAddressRange: Sendable, Equatable, CustomStringConvertible {
    package let network: ClientAddress
    /// Leading bits that must match, of the 128 of the IPv6 form.
    package let prefixLength: Int
    package let description: String

    /// Parses `text`; nil if it is not an address with an optional prefix length in range.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = ClientAddress(literal: parts[0]) else { return nil }
        let most = address.isIPv4 ? 32 : 128
        var length = most
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...most).contains(given) else { return nil }
            length = given
        }
        network = address
        prefixLength = address.isIPv4 ? length + 96 : length
        description = text
    }

    package func contains(_ address: ClientAddress) -> Bool {
        func masked(_ value: UInt64, bits: Int) -> UInt64 {
            bits >= 64 ? value : bits <= 0 ? 0 : value & ~(UInt64.max >> UInt64(bits))
        }
        return masked(address.high, bits: prefixLength) == masked(network.high, bits: prefixLength)
            && masked(address.low, bits: prefixLength - 64) == masked(network.low, bits: prefixLength - 64)
    }
}
