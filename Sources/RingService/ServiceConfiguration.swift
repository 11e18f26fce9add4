/// The ring service's own settings (the server's live in `ServerConfiguration`).
public struct ServiceConfiguration: Sendable, Equatable {
    /// Response cache budget in bytes.
    public var cacheBytes: Int = 64 * 1024 * 1024
    /// Cache partitions: one per event loop, so no loop ever waits for another's lock.
    public var cachePartitions: Int = 1
    /// `max-age` for rings, seconds: a ring is a pure function of its URL.
    public var maxAge: Int = 86_400
    /// `max-age` for error images, seconds: short, so a fixed URL shows up soon.
    public var errorMaxAge: Int = 60
    /// Longest query string rendered; longer ones get an error image without being parsed.
    public var maxQueryBytes: Int = 4096

    public init() {}
}
