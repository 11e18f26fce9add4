import HTTPServer
import RingCore

/// Complete, pre-serialized ring responses keyed by the spec's stable hash, plus a map from
/// the raw query to that hash, so a repeated URL is served without parsing or rendering.
///
/// The cache has one partition per event loop, each an LRU with an equal part of the byte
/// budget behind its own mutex. A loop only uses its own partition, so the mutex is never
/// contended on the request path: with one shared lock, a loop preempted while holding it made
/// the other loop sleep for a whole scheduler slice, which showed as an 8 ms p99 under load. The
/// price is that a ring requested through both loops is stored twice. Within a partition, query
/// aliases get 1/8 of the budget and responses the rest.
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

    /// A raw query string with its 64-bit FNV-1a hash, computed once per request: a miss looks
    /// the query up, may alias it, and inserts it, all under the same key.
    public struct Query: Sendable, ExpressibleByStringInterpolation {
        public let text: String
        let key: UInt64

        public init(_ text: String) {
            self.text = text
            key = StableHash.fnv1a64(text.utf8)
        }

        public init(stringLiteral text: String) {
            self.init(text)
        }
    }

    /// A query seen before and the spec hash it resolved to.
    private struct Alias {
        var query: String
        var hash: UInt64
    }

    private struct Storage {
        var responses: LRUCache<UInt64, Entry>
        var aliases: LRUCache<UInt64, Alias>
        var hits = 0
        var misses = 0
    }

    private final class Partition: Sendable {
        let storage: Locked<Storage>

        init(capacity: Int) {
            storage = Locked(
                Storage(
                    responses: LRUCache(capacity: capacity - capacity / 8), aliases: LRUCache(capacity: capacity / 8)))
        }
    }

    /// The configured budget in bytes, over all partitions.
    public let capacity: Int
    private let partitions: [Partition]

    /// A cache of at most `capacityBytes`, split evenly into `partitions` independent parts.
    public init(capacityBytes: Int, partitions: Int = 1) {
        capacity = capacityBytes
        let count = max(1, partitions)
        self.partitions = (0..<count).map { _ in Partition(capacity: capacityBytes / count) }
    }

    private func partition(_ index: Int) -> Partition {
        partitions[index % partitions.count]
    }

    /// The entry for a query seen before, counting a hit or a miss.
    public func lookup(query: Query, partition index: Int = 0) -> Entry? {
        partition(index).storage.withLock { storage -> Entry? in
            guard let alias = storage.aliases.value(for: query.key), alias.query == query.text,
                let entry = storage.responses.value(for: alias.hash)
            else {
                storage.misses += 1
                return nil
            }
            storage.hits += 1
            return entry
        }
    }

    /// The entry for a spec hash, when another query for the same ring was rendered already;
    /// remembers `query` as its alias when found.
    public func lookup(hash: UInt64, aliasing query: Query, partition index: Int = 0) -> Entry? {
        partition(index).storage.withLock { storage -> Entry? in
            guard let entry = storage.responses.value(for: hash) else { return nil }
            storage.aliases.insert(Alias(query: query.text, hash: hash), for: query.key, cost: Self.aliasCost(query))
            return entry
        }
    }

    /// Stores `entry` under `hash` and `query`.
    public func insert(_ entry: Entry, hash: UInt64, query: Query, partition index: Int = 0) {
        partition(index).storage.withLock {
            $0.responses.insert(entry, for: hash, cost: entry.cost)
            $0.aliases.insert(Alias(query: query.text, hash: hash), for: query.key, cost: Self.aliasCost(query))
        }
    }

    /// An alias's bytes: the query plus an allowance for the string, node and dictionary slot.
    private static func aliasCost(_ query: Query) -> Int { query.text.utf8.count + 200 }

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
        for partition in partitions {
            partition.storage.withLock {
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
