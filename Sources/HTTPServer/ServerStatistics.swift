import Synchronization

/// Counters the server keeps for metrics; safe to read from any thread.
package final class ServerStatistics: Sendable {
    /// Connections open now.
    package var openConnections: Int { open.load(ordering: .relaxed) }
    /// Connections accepted since start.
    package var acceptedConnections: Int { accepted.load(ordering: .relaxed) }
    /// Connections refused because `maxConnections` were open.
    package var refusedConnections: Int { refused.load(ordering: .relaxed) }
    /// Connections refused because their client held `maxConnectionsPerClient`.
    package var refusedClientConnections: Int { refusedClient.load(ordering: .relaxed) }
    /// Requests answered with a protocol error by the server itself.
    package var protocolErrors: Int { errors.load(ordering: .relaxed) }
    /// Connections closed because a deadline passed.
    package var timeouts: Int { timedOut.load(ordering: .relaxed) }
    /// Changes of a connection's poller interest (an `epoll_ctl` each on epoll): what a test
    /// reads to know that a deferred answer did not turn reading off and on again.
    package var interestChanges: Int { interestChanged.load(ordering: .relaxed) }

    let open = Atomic<Int>(0)
    let accepted = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    let refusedClient = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    let timedOut = Atomic<Int>(0)
    let interestChanged = Atomic<Int>(0)

    package init() {}
}
