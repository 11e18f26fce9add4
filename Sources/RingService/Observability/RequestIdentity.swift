import HTTPServer
import Synchronization

/// Request ids: a client's own `X-Request-Id` when it is a plain token, else one made here,
/// unique in the process and across replicas: 16 random hex digits drawn at start, the event
/// loop, and a count of that loop's (no lock, no cache line shared between loops), in hex:
/// `6f27e6f19ca592d0-1-2a`.
final class RequestIDs: Sendable {
    private let prefix: String
    private let lanes: [Lane]

    private final class Lane: Sendable {
        let count = Atomic<UInt64>(0)
    }

    init(loops: Int) {
        let random = UInt64.random(in: .min ... .max)
        let hex = String(random, radix: 16)
        prefix = String(repeating: "0", count: 16 - hex.count) + hex + "-"
        lanes = (0..<max(1, loops)).map { _ in Lane() }
    }

    /// The request's id: its `X-Request-Id` if that is 1 to 128 characters of letters, digits
    /// and `-_.:+=/`, else a new one.
    func id(for request: HTTPRequest, given: String?) -> String {
        if let given, Self.isAcceptable(given) { return given }
        let lane = lanes[request.eventLoop % lanes.count]
        let number = lane.count.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + String(request.eventLoop, radix: 16) + "-" + String(number, radix: 16)
    }

    static func isAcceptable(_ id: String) -> Bool {
        let bytes = id.utf8
        return (1...128).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "-_.:+=/".utf8.contains(byte)
                }
            }
    }
}

/// Who a request is from: the connection's peer, or, when the peer is one of the proxies in
/// `--trusted-proxy`, the first address in `Forwarded` (RFC 7239) or else `X-Forwarded-For`
/// that is not a trusted proxy, read from the right: every address right of it was added by a
/// proxy we trust, and the ones left of it by whoever the client was, which nobody vouches for.
enum ClientIdentity {
    static func address(of request: HTTPRequest, trusting proxies: [ClientAddressRange]) -> String {
        let peer = request.client
        guard peer != .unknown else { return "-" }
        guard !proxies.isEmpty, proxies.contains(where: { $0.contains(peer) }) else { return peer.description }
        let forwarded = request.headerValues("Forwarded")
        let hops =
            forwarded.isEmpty
            ? request.headerValues("X-Forwarded-For").flatMap { $0.split(separator: ",") }.map {
                $0.trimmingSpaces
            }
            : forwarded.flatMap { $0.split(separator: ",") }.compactMap(forParameter)
        var client = peer
        for hop in hops.reversed() {
            // An unknown or obfuscated identifier (`unknown`, `_hidden`) ends the walk: the
            // proxy that wrote it is the last address known.
            guard let address = ClientAddress(literal: hop) else { break }
            client = address
            guard proxies.contains(where: { $0.contains(address) }) else { break }
        }
        return client.description
    }

    /// The `for=` of one `Forwarded` element, unquoted: `for="[2001:db8::1]:4711"`.
    private static func forParameter(_ element: Substring) -> String? {
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces.lowercased() == "for" else { continue }
            var value = parts[1].trimmingSpaces
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
