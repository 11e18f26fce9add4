import RingCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which documents live rings may read, and the bounds on reading them: `ring serve
/// --source-allow …` and the `--source-*` flags (docs/operations.md; the threat model is in
/// docs/reliability.md).
///
/// Off unless hosts are allowed. A fetch is then refused unless, for the URL and again for
/// every redirect: the scheme is `https` (or `http` with ``allowHTTP``); the host matches
/// ``allowedHosts``; and every address it resolves to is public, none loopback, private,
/// link-local, CGNAT, multicast, unspecified, reserved, or one of this machine's own (unless
/// ``allowPrivate``).
package struct SourcePolicy: Sendable, Equatable {
    /// Exact host names (`status.example.com`), or `*.example.com`, which matches every name
    /// under it and not `example.com` itself. Empty: live values are off.
    package var allowedHosts: [String] = []
    /// `--source-allow-http`: plain `http` sources too (for development).
    package var allowHTTP = false
    /// `--source-allow-private`: addresses of private networks and this machine too (for
    /// development and tests).
    package var allowPrivate = false
    /// `--source-timeout`: the most a fetch may take, from resolving the name to the body's
    /// last byte, redirects included, in seconds.
    package var timeout: Double = 3
    /// `--source-max-bytes`: the largest document read; the fetch stops at the byte past it.
    package var maxBytes: Int = 64 * 1024
    /// `--source-redirects`: redirects followed, each checked as the first URL was.
    package var maxRedirects: Int = 3
    /// `--source-ttl`: how long a fetched value is used before it is fetched again, in seconds
    /// (at least 30); a document's `Cache-Control: max-age` may lengthen it, to a day.
    package var ttl: Int = 300
    /// `--source-stale`: how long the last good value is served while refreshes fail.
    package var stale: Int = 86_400
    /// `--source-per-host`: fetches running at once under one allowlist entry (all the names
    /// a `*.example.com` entry matches count as one host).
    package var perHost: Int = 4
    /// `--source-queue`: fetches that may wait for their turn under one allowlist entry; a
    /// new source past them gets an error image.
    package var queuePerHost: Int = 64
    /// `--source-rate`: fetches started a second under one allowlist entry, at most, in
    /// bursts of as many; the next ones wait their turn in the queue.
    package var fetchesPerSecond: Double = 10
    /// `--source-queue-wait`: how long a fetch may wait for its turn, in seconds, before it is
    /// refused. With ``timeout`` it must fit in `--write-timeout`, so that a waiting request is
    /// always answered.
    package var queueWait: Double = 5
    /// `--source-resolvers`: threads that resolve source names. A name whose DNS never answers
    /// holds one until the system's resolver gives up; one allowlist entry may hold at most a
    /// quarter of them (and no more than ``perHost``), so a silent domain cannot take them all.
    package var resolvers: Int = 16
    /// `--source-cache-mb`: the documents kept, in bytes of their bodies.
    package var cacheBytes: Int = 16 * 1024 * 1024

    /// The longest a document's own `max-age` may keep a value: a day.
    package static let longestTTL = 86_400
    /// The shortest ``ttl`` accepted.
    package static let shortestTTL = 30

    package init() {}

    /// Whether any host is allowed.
    package var isEnabled: Bool { !allowedHosts.isEmpty }

    /// Whether `host` (lower-case, as ``SourceURL`` gives it) is allowed.
    func allows(host: String) -> Bool { entry(allowing: host) != nil }

    /// The allowlist entry that allows `host`, or nil: the unit that ``perHost``,
    /// ``queuePerHost`` and ``fetchesPerSecond`` bound, so that the many names under a
    /// wildcard share one budget. An exact name is preferred to a wildcard.
    func entry(allowing host: String) -> String? {
        if allowedHosts.contains(host) { return host }
        return allowedHosts.first { pattern in
            guard pattern.hasPrefix("*.") else { return false }
            let suffix = pattern.dropFirst(1)  // ".example.com"
            return host.hasSuffix(suffix) && host.count > suffix.count
        }
    }

    /// A host pattern as `--source-allow` takes it, lower-cased, or nil when it is not a name,
    /// an IP literal, or `*.` and a name.
    package static func hostPattern(_ text: String) -> String? {
        var text = text.lowercased()
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        let name = text.hasPrefix("*.") ? String(text.dropFirst(2)) : text
        guard !name.isEmpty, name.utf8.count <= 253, !name.hasPrefix("."), !name.hasSuffix("."),
            !name.contains(".."), !name.contains("*"),
            name.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            })
        else { return nil }
        return text
    }

    /// Why a URL may not be fetched under this policy before its name is resolved, or nil.
    func refusal(of url: SourceURL) -> String? {
        if url.scheme == "http" && !allowHTTP {
            return "only https sources are fetched (this server was not started with --source-allow-http)"
        }
        guard allows(host: url.host) else {
            return "\(url.host) is not an allowed source host on this server (--source-allow)"
        }
        return nil
    }
}

/// An address a source's name resolved to, and what kind it is.
package struct SourceAddress: Sendable, Equatable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    package let bytes: [UInt8]

    package var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for index in Swift.stride(from: 0, to: 16, by: 2) {
            groups.append(String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16))
        }
        return groups.joined(separator: ":")
    }

    /// What makes the address one a source may not have, or nil for a public address.
    /// IPv4-mapped, IPv4-translated (SIIT) and IPv4-compatible IPv6 addresses, well-known NAT64
    /// and 6to4 are judged by the IPv4 address inside them. Teredo and the local-use NAT64
    /// prefix are refused: the IPv4 address a Teredo address reaches is its server's, not the
    /// one in its obfuscated bits, and a local-use prefix's length (which says where the IPv4
    /// address sits) is the network's choice.
    var restriction: String? {
        if bytes.count == 4 { return Self.restriction(ipv4: bytes) }
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {
            return Self.restriction(ipv4: Array(b[12..<16]))  // ::ffff:a.b.c.d
        }
        if b[0..<8].allSatisfy({ $0 == 0 }) && b[8] == 0xFF && b[9] == 0xFF && b[10] == 0 && b[11] == 0 {
            return Self.restriction(ipv4: Array(b[12..<16]))  // ::ffff:0:a.b.c.d, SIIT
        }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0 { return "Teredo tunnel" }  // 2001::/32
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && b[4] == 0 && b[5] == 0x01 {
            return "local-use NAT64"  // 64:ff9b:1::/48
        }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return b[15] == 1 ? "loopback" : "unspecified" }
        if b[0..<12].allSatisfy({ $0 == 0 }) { return Self.restriction(ipv4: Array(b[12..<16])) }  // ::a.b.c.d
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B {
            return Self.restriction(ipv4: Array(b[12..<16]))  // 64:ff9b::/96, NAT64
        }
        if b[0] == 0x20 && b[1] == 0x02 { return Self.restriction(ipv4: Array(b[2..<6])) }  // 2002::/16, 6to4
        if b[0] == 0xFF { return "multicast" }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return "link-local" }
        if b[0] & 0xFE == 0xFC { return "private (unique local)" }
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return "site-local" }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return "reserved for documentation" }
        if b[0] == 0x01 && b[1..<8].allSatisfy({ $0 == 0 }) { return "reserved (discard)" }
        return nil
    }

    private static func restriction(ipv4 b: [UInt8]) -> String? {
        switch (b[0], b[1]) {
        case (0, _): return "unspecified"
        case (10, _): return "private"
        case (100, 64...127): return "shared (CGNAT)"
        case (127, _): return "loopback"
        case (169, 254): return "link-local"
        case (172, 16...31): return "private"
        case (192, 168): return "private"
        case (192, 0) where b[2] == 0: return "reserved (IETF)"
        case (192, 0) where b[2] == 2, (198, 51) where b[2] == 100, (203, 0) where b[2] == 113:
            return "reserved for documentation"
        case (198, 18...19): return "reserved (benchmarking)"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved"
        default: return nil
        }
    }

    /// The address `text` spells, if it is an IPv4 or IPv6 literal (without brackets).
    package init?(literal text: String) {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.bytes = withUnsafeBytes(of: ipv4) { Array($0) }
            return
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self.bytes = withUnsafeBytes(of: ipv6) { Array($0) }
            return
        }
        return nil
    }

    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// The address of a socket address of `length` bytes, if it is IPv4 or IPv6.
    init?(socketAddress address: UnsafePointer<sockaddr>, length: Int) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                withUnsafeBytes(of: ipv4.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) }
            }
        default:
            return nil
        }
    }

    /// Why a source may not be fetched from `address`, which `host` resolved to: the kind of
    /// address, or that it is this server's own; with the flag that would allow it.
    static func refusal(of address: SourceAddress, host: String) -> String? {
        let named = SourceAddress(literal: host) == address ? "\(host) is" : "\(host) resolves to \(address),"
        if let restriction = address.restriction {
            let article = "aeiouAEIOU".contains(restriction.first!) ? "an" : "a"
            return "\(named) \(article) \(restriction) address (allowed with --source-allow-private)"
        }
        if own.contains(address) {
            return "\(named) an address of this server (allowed with --source-allow-private)"
        }
        return nil
    }

    /// The addresses `host` resolves to (a literal is its own), or why it resolves to none.
    /// Blocks: never called on an event loop.
    package static func resolve(_ host: String, port: Int) -> Result<[SourceAddress], SourceFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(SourceFailure(.dns, "\(host) does not resolve"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SourceAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                if current.pointee.ai_family == AF_INET {
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                        withUnsafeBytes(of: ipv4.pointee.sin_addr) { addresses.append(SourceAddress(bytes: Array($0))) }
                    }
                } else if current.pointee.ai_family == AF_INET6 {
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                        withUnsafeBytes(of: ipv6.pointee.sin6_addr) {
                            addresses.append(SourceAddress(bytes: Array($0)))
                        }
                    }
                }
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { return .failure(SourceFailure(.dns, "\(host) does not resolve")) }
        return .success(addresses)
    }

    /// This machine's own addresses, from its interfaces: a public address of the server's
    /// is refused like a private one, since a fetch of it would be a request to itself.
    static let own: [SourceAddress] = {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [SourceAddress] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            if let address = current.pointee.ifa_addr {
                if Int32(address.pointee.sa_family) == AF_INET {
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                        withUnsafeBytes(of: ipv4.pointee.sin_addr) { addresses.append(SourceAddress(bytes: Array($0))) }
                    }
                } else if Int32(address.pointee.sa_family) == AF_INET6 {
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                        withUnsafeBytes(of: ipv6.pointee.sin6_addr) {
                            addresses.append(SourceAddress(bytes: Array($0)))
                        }
                    }
                }
            }
            entry = current.pointee.ifa_next
        }
        return addresses
    }()
}

/// Why a document could not be read: what the error image and the metrics say.
package struct SourceFailure: Error, Sendable, Equatable {
    /// The `result` label of `ring_source_fetches_total`.
    package enum Kind: String, Sendable, CaseIterable {
        case refused, dns, timeout, status
        /// Refused before it started: its allowlist entry's queue was full, it waited
        /// `--source-queue-wait` for its turn, or the server is stopping.
        case busy
        case tooLarge = "too_large"
        case notJSON = "not_json"
        case network
    }

    package var kind: Kind
    /// The error image's words after `src: `.
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

extension SourceURL {
    /// The port connected to: the URL's, or its scheme's.
    var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }
}
