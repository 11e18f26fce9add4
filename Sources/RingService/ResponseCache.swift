import HTTPServer
import RingCore
import Synchronization

/// Complete, pre-serialized ring responses keyed by the spec's stable hash, plus a map from
/// the raw query to that hash, so a repeated URL is served without parsing or rendering.
///
/// The cache is split into shards, each an LRU with its own mutex and an equal part of the
/// byte budget, so the event loops rarely wait for one another: a shared lock made the loops
/// sleep on each other (futex waits and context switches) under load. Within a shard, query
/// aliases get 1/8 of the budget and responses the rest. Eviction is least-recently-used per
/// shard, which approximates a global LRU closely once shards hold more than a few entries.
public final class ResponseCache: Sendable {
    /// A ring's responses: the full 200 and the 304 for a matching `If-None-Match`.
    ///
    /// A class, so moving it around the LRU costs one reference count instead of one per array
    /// inside the responses.
    public final class Entry: Sendable {
        public let ok: HTTPResponse
        public let notModified: HTTPResponse
        /// The entity tag, quotes included.
        public let etag: String

        public init(ok: HTTPResponse, notModified: HTTPResponse, etag: String) {
            self.ok = ok
            self.notModified = notModified
            self.etag = etag
        }

        /// Bytes this entry holds: its own arrays plus an allowance for array headers, allocator
        /// overhead, the LRU node and the dictionary slot. The 304 shares the 200's own header
        /// lines, and blocks shared by all entries are not counted: one copy serves them all.
        var cost: Int { ok.body.count + ok.headers.bytes.count + etag.utf8.count + 320 }
    }

    /// A query seen before and the spec hash it resolved to.
    private struct Alias {
        var query: String
        var hash: UInt64
    }

    private struct Storage: ~Copyable {
        var responses: LRUCache<UInt64, Entry>
        var aliases: LRUCache<UInt64, Alias>
        var hits = 0
        var misses = 0
    }

    private final class Shard: Sendable {
        let storage: Mutex<Storage>

        init(capacity: Int) {
            storage = Mutex(
                Storage(
                    responses: LRUCache(capacity: capacity - capacity / 8), aliases: LRUCache(capacity: capacity / 8)))
        }
    }

    /// The configured budget in bytes.
    public let capacity: Int
    private let shards: [Shard]

    /// A cache of at most `capacityBytes`, in `shards` independent parts.
    public init(capacityBytes: Int, shards: Int = 16) {
        capacity = capacityBytes
        let count = max(1, shards)
        self.shards = (0..<count).map { _ in Shard(capacity: capacityBytes / count) }
    }

    private func shard(_ key: UInt64) -> Shard {
        shards[Int(key % UInt64(shards.count))]
    }

    /// The entry for a query seen before, counting a hit or a miss.
    public func lookup(query: String) -> Entry? {
        let key = StableHash.fnv1a64(query.utf8)
        let hash = shard(key).storage.withLock { storage -> UInt64? in
            guard let alias = storage.aliases.value(for: key), alias.query == query else {
                storage.misses += 1
                return nil
            }
            storage.hits += 1
            return alias.hash
        }
        guard let hash else { return nil }
        // Not nested in the lock above: two shard locks are never held at once.
        return shard(hash).storage.withLock { $0.responses.value(for: hash) }
    }

    /// The entry for a spec hash, when another query for the same ring was rendered already;
    /// remembers `query` as its alias when found.
    public func lookup(hash: UInt64, aliasing query: String) -> Entry? {
        guard let entry = shard(hash).storage.withLock({ $0.responses.value(for: hash) }) else { return nil }
        remember(query, as: hash)
        return entry
    }

    /// Stores `entry` under `hash` and `query`.
    public func insert(_ entry: Entry, hash: UInt64, query: String) {
        shard(hash).storage.withLock { $0.responses.insert(entry, for: hash, cost: entry.cost) }
        remember(query, as: hash)
    }

    private func remember(_ query: String, as hash: UInt64) {
        let key = StableHash.fnv1a64(query.utf8)
        shard(key).storage.withLock {
            $0.aliases.insert(Alias(query: query, hash: hash), for: key, cost: query.utf8.count + 200)
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
        var total = Statistics(hits: 0, misses: 0, evictions: 0, bytes: 0, entries: 0)
        for shard in shards {
            shard.storage.withLock {
                total.hits += $0.hits
                total.misses += $0.misses
                total.evictions += $0.responses.evictions + $0.aliases.evictions
                total.bytes += $0.responses.totalCost + $0.aliases.totalCost
                total.entries += $0.responses.count
            }
        }
        return total
    }
}
