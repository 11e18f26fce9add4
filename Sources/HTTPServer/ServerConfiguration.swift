/// Every limit and timeout of the server, with production defaults. One value, passed at start.
package struct ServerConfiguration: Sendable, Equatable {
    /// Address to listen on: an IPv4 or IPv6 literal, or `localhost`. `::` listens on IPv4 and
    /// IPv6 together.
    package var host: String = "0.0.0.0"
    /// TCP port; 0 asks the kernel for a free one (tests use this).
    package var port: Int = 8080
    /// Event loops, each one thread with its own poller and listening socket; 0, the default,
    /// means one per CPU the process may use (`eventLoopCount`, from `CPUBudget`).
    package var eventLoops: Int = 0
    /// How the loops wait for sockets: epoll where it exists (Linux), Dispatch elsewhere.
    package var io: IOBackend = .platformDefault
    /// Connections held at once; more are accepted and closed at once.
    package var maxConnections: Int = 10_000
    /// Connections one client address may hold at once; more are accepted and closed at once.
    /// 0: no limit; nil: a quarter of ``maxConnections`` (``connectionsPerClient``).
    package var maxConnectionsPerClient: Int?
    /// The limit ``maxConnectionsPerClient`` sets: one client never holds more than a quarter
    /// of the connections unless told it may.
    package var connectionsPerClient: Int { maxConnectionsPerClient ?? max(1, maxConnections / 4) }
    /// Addresses whose connections ``maxConnectionsPerClient`` does not count: the proxies in
    /// front, each of whose connections carries many users.
    package var unlimitedClients: [ClientAddressRange] = []
    /// Longest request line (method, target, version) in bytes; longer → 414.
    package var maxRequestLineBytes: Int = 8 * 1024
    /// Largest header block in bytes, request line included; larger → 431.
    package var maxHeaderBytes: Int = 16 * 1024
    /// Most header fields in one request; more → 431.
    package var maxHeaderCount: Int = 100
    /// Largest request body read (and discarded); larger → 413 and close.
    package var maxBodyBytes: Int = 64 * 1024
    /// Pipelined requests a connection answers per turn of its loop before every other ready
    /// connection gets its turn; the rest wait, in order, and nothing more is read meanwhile.
    package var maxRequestsPerTurn: Int = 4
    /// Pending response bytes at which a connection stops reading until the client catches up.
    package var maxPendingOutputBytes: Int = 256 * 1024
    /// Deadline for a whole request head (slow-header clients are cut off), seconds.
    package var headerTimeout: Double = 10
    /// How long an idle keep-alive connection is kept, seconds.
    package var idleTimeout: Double = 15
    /// How long a response may wait for the client to read it, seconds.
    package var writeTimeout: Double = 10
    /// How often deadlines are checked, seconds: the granularity of every timeout above.
    package var deadlineCheckInterval: Double = 0.25
    /// On shutdown, how long in-flight responses may take before connections are cut, seconds.
    package var drainTimeout: Double = 10
    /// After a connection's last response, how long the server keeps reading (and discarding)
    /// what the client still sends before it closes, seconds: closing with unread bytes would
    /// reset the connection and could destroy the response in flight (RFC 9112 §9.6).
    package var lingerTimeout: Double = 2
    /// How long a loop stops accepting when the process is out of descriptors or memory,
    /// seconds, instead of spinning on a listener that stays readable.
    package var acceptBackoff: Double = 0.1
    /// Bytes each loop reads from a socket at a time, into one buffer it reuses.
    package var readBufferBytes: Int = 64 * 1024
    /// After waking with more than this many ready events, a loop yields its core once
    /// (`sched_yield`) before polling again, so other threads on the host (clients, a proxy in
    /// front) are not kept waiting for a scheduler slice; 0 never yields.
    package var yieldAfterEvents: Int = 8
    /// How long an answer made while a loop handles a batch of ready sockets may wait, in
    /// microseconds, for the batch's other answers before the loop writes them all: written
    /// together, they wake a client once per batch instead of once per answer, which is most of
    /// the cost of a new ring beyond its render when the clients share the cores
    /// (docs/performance.md). 0 writes each answer at once, as the Dispatch backend always
    /// does: it reports one event at a time.
    package var writeDelayMicroseconds: Int = 200
    /// Listen backlog.
    package var backlog: Int32 = 1024

    package init() {}
}

/// How event loops wait for their sockets. Both serve the same HTTP, pass the same tests and
/// keep the same limits; they differ in cost (docs/performance.md).
package enum IOBackend: String, Sendable, CaseIterable {
    #if os(Linux)
        /// One epoll set per loop, handled in batches on the loop's thread: the fast path.
        case epoll
    #endif
    /// Dispatch read and write sources on a private serial queue per loop: runs wherever
    /// Dispatch does.
    case dispatch

    /// epoll on Linux, Dispatch everywhere else.
    package static var platformDefault: IOBackend {
        #if os(Linux)
            .epoll
        #else
            .dispatch
        #endif
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
