import HTTPServer
import Synchronization

/// Complete, pre-serialized ring responses keyed by the spec's stable hash, plus a map from
/// the raw query to that hash, so a repeated URL is served without parsing or rendering.
///
/// Both maps are LRU and share one byte budget: responses get 7/8 of it, query aliases 1/8.
/// Safe under concurrency: one mutex, held only for the two lookups or one insert.
public final class ResponseCache: Sendable {
    /// A ring's responses: the full 200 and the 304 for a matching `If-None-Match`.
    public struct Entry: Sendable {
        public var ok: HTTPResponse
        public var notModified: HTTPResponse
        /// The entity tag, quotes included.
        public var etag: String

        /// Bytes this entry holds, with a fixed allowance for bookkeeping.
        var cost: Int { ok.body.count + ok.headerBytes.count + notModified.headerBytes.count + etag.utf8.count + 128 }
    }

    private struct Storage: ~Copyable {
        var responses: LRUCache<UInt64, Entry>
        var aliases: LRUCache<String, UInt64>
        var hits = 0
        var misses = 0
    }

    /// The configured budget in bytes.
    public let capacity: Int
    private let storage: Mutex<Storage>

    public init(capacityBytes: Int) {
        capacity = capacityBytes
        storage = Mutex(
            Storage(
                responses: LRUCache(capacity: capacityBytes - capacityBytes / 8),
                aliases: LRUCache(capacity: capacityBytes / 8)))
    }

    /// The entry for a query seen before, counting a hit or a miss.
    public func lookup(query: String) -> Entry? {
        storage.withLock { storage in
            if let hash = storage.aliases.value(for: query), let entry = storage.responses.value(for: hash) {
                storage.hits += 1
                return entry
            }
            storage.misses += 1
            return nil
        }
    }

    /// The entry for a spec hash, when another query for the same ring was rendered already;
    /// remembers `query` as its alias either way.
    public func lookup(hash: UInt64, aliasing query: String) -> Entry? {
        storage.withLock { storage in
            guard let entry = storage.responses.value(for: hash) else { return nil }
            storage.aliases.insert(hash, for: query, cost: Self.aliasCost(query))
            return entry
        }
    }

    /// Stores `entry` under `hash` and `query`.
    public func insert(_ entry: Entry, hash: UInt64, query: String) {
        storage.withLock { storage in
            storage.responses.insert(entry, for: hash, cost: entry.cost)
            storage.aliases.insert(hash, for: query, cost: Self.aliasCost(query))
        }
    }

    /// Counters for metrics.
    public struct Statistics: Sendable, Equatable {
        public var hits: Int
        public var misses: Int
        public var evictions: Int
        public var bytes: Int
        public var entries: Int
    }

    public var statistics: Statistics {
        storage.withLock {
            Statistics(
                hits: $0.hits, misses: $0.misses, evictions: $0.responses.evictions + $0.aliases.evictions,
                bytes: $0.responses.totalCost + $0.aliases.totalCost, entries: $0.responses.count)
        }
    }

    private static func aliasCost(_ query: String) -> Int { query.utf8.count + 64 }
}
