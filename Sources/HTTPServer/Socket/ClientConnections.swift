import Primitives

/// Connections open per client address, shared by every loop: one client holding the whole
/// connection cap would leave every other client refused. Past
/// ``ServerConfiguration/maxConnectionsPerClient``, a client's new connection is closed at
/// once. Addresses in ``ServerConfiguration/unlimitedClients`` (the proxies in front, whose
/// connections carry many users) are not counted.
final class ClientConnections: Sendable {
    private let limit: Int
    private let unlimited: [ClientAddressRange]
    /// Behind `Locked` (a pthread mutex), which ThreadSanitizer follows; it reported the
    /// Synchronization module's `Mutex` as a race.
    private let open = Locked<[ClientAddress: Int]>([:])

    init(limit: Int, unlimited: [ClientAddressRange]) {
        self.limit = limit
        self.unlimited = unlimited
    }

    /// Whether `address` may open one more connection; counts it if so. Every admitted
    /// connection is ``release(_:)``d once when it closes.
    func admit(_ address: ClientAddress) -> Bool {
        guard limit > 0, !unlimited.contains(where: { $0.contains(address) }) else { return true }
        return open.withLock { open in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
    }

    /// A connection of `address` closed.
    func release(_ address: ClientAddress) {
        guard limit > 0, !unlimited.contains(where: { $0.contains(address) }) else { return }
        open.withLock { open in
            guard let count = open[address] else { return }
            open[address] = count > 1 ? count - 1 : nil
        }
    }
}
