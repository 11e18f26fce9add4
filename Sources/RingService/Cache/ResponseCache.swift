import HTTPServer
import Primitives
import RingCore

/// Complete, pre-serialized ring responses, shared by every event loop, plus a map from the raw
/// request to the ring it named, so a repeated URL is served without parsing or rendering.
///
/// **Identity is exact.** A response is stored under its ``Key``: the ring's 128-bit SHA-256
/// ``RingDigest`` and the output format. A raw query is remembered with its full text, and a
/// lookup compares that text. Hashes pick slots and shards, never decide that two requests or
/// two rings are the same.
///
/// **One store, in shards.** A ring is rendered and stored once however many loops ask for
/// it, and the byte budget counts distinct rings. The store is split by key into shards, each
/// an LRU behind its own mutex.
///
/// **A front per loop.** Each event loop keeps a small LRU of references to the entries its
/// own requests found in the store when asking again, behind a lock only that loop takes, so
/// the hit path never waits for another loop or shares a cache line with it: a loop preempted
/// while holding a shared lock stalls the other for a scheduler slice, and a popular ring in a
/// shared shard would bounce that shard between cores on every hit. A front holds no copies,
/// but it can keep an entry the store has evicted alive, so its references count against the
/// budget: the fronts together get 1/8 of it, the store the rest, and within each shard
/// aliases 1/8, error images 1/16 and rings the rest.
///
/// **Error images have their own budget.** Every invalid URL makes its own error image, so a
/// flood of distinct invalid URLs would otherwise push every valid ring out; in their own LRU
/// they push out only each other.
package final class ResponseCache: Sendable {
    /// A ring's responses: the full 200 and the 304 for a matching `If-None-Match`.
    ///
    /// A class, so moving it around the LRU costs one reference count instead of one per array
    /// inside the responses.
    package final class Entry: Sendable {
        package let ok: HTTPResponse
        package let notModified: HTTPResponse
        /// `Last-Modified`, in seconds since 1970: the date of its format's renderer version.
        package let lastModified: Int
        /// Whether this is an error image: a hit on it is counted in `ring_render_errors_total`.
        package let isErrorImage: Bool
        /// The tag's length in the `ETag` line that `ok`'s own headers begin with.
        private let etagLength: Int

        /// The entity tag, quotes included, read from the `ETag` line of `ok`'s own headers: an
        /// entry cannot hold a tag its response does not send, and it is one object fewer to
        /// make on a miss and to free on an eviction (read only for conditional requests).
        package var etag: String {
            let lines = ok.headers.bytes
            return String(decoding: lines[Self.etagLine.count..<Self.etagLine.count + etagLength], as: UTF8.self)
        }

        private static let etagLine = Array("ETag: ".utf8)

        /// `ok`'s own header lines must begin with its `ETag` line, which the 304 repeats.
        package init(ok: HTTPResponse, notModified: HTTPResponse, lastModified: Int, isErrorImage: Bool = false) {
            let lines = ok.headers.bytes
            let end = lines.firstIndex(of: 0x0D)
            precondition(
                lines.starts(with: Self.etagLine) && end.map { $0 > Self.etagLine.count } == true,
                "an entry's own headers begin with its ETag")
            self.ok = ok
            self.notModified = notModified
            self.etagLength = end! - Self.etagLine.count
            self.lastModified = lastModified
            self.isErrorImage = isErrorImage
        }

        /// What this entry costs the process: its own arrays plus an allowance for array
        /// headers, allocator overhead, the LRU node and the dictionary slot, times
        /// ``ResponseCache/fragmentationReserve``. The 304 shares the 200's own header lines, and
        /// blocks shared by all entries are not counted: one copy serves them all.
        var cost: Int { ResponseCache.reserved(ok.body.count + ok.headers.count + etagLength + 320) }
    }

    /// What a response is stored under: one ring in one output format.
    package struct Key: Sendable, Hashable {
        package var digest: RingDigest
        /// The output format (a route's own number), so the same ring as SVG and as PNG are two entries.
        package var format: UInt8

        /// The bit of ``format`` that marks an error image's key: kept in the error images'
        /// own budget.
        package static let errorImageFlag: UInt8 = 0x80

        var isErrorImage: Bool { format & Self.errorImageFlag != 0 }

        package init(digest: RingDigest, format: UInt8) {
            self.digest = digest
            self.format = format
        }
    }

    /// A raw query's place in the alias maps: its seeded ``Query/hash``. The alias it finds is
    /// checked against the full text, so two queries sharing these 64 bits only displace
    /// each other.
    struct QuerySlot: CacheKey {
        let hash: Int
        var slot: UInt64 { UInt64(bitPattern: Int64(hash)) }
    }

    /// A raw request: the output format and the query text as sent, with a hash computed once
    /// per request. The hash is Swift's per-process seeded `Hasher`, so nobody can craft
    /// queries that pile into one bucket or push each other out; it only picks the slot, and a
    /// lookup compares the text.
    package struct Query: Sendable {
        package let text: String
        package let format: UInt8
        let hash: Int

        package init(_ text: String, format: UInt8) {
            self.text = text
            self.format = format
            var hasher = Hasher()
            hasher.combine(format)
            hasher.combine(text)
            hash = hasher.finalize()
        }

        func isSame(as alias: Alias) -> Bool { alias.format == format && alias.text == text }
    }

    /// A query seen before and the response it led to.
    struct Alias {
        var text: String
        var format: UInt8
        var key: Key
    }

    private struct Storage {
        var responses: LRUCache<Key, Entry>
        /// Error images, by the same kind of key (``Key/isErrorImage``).
        var errorImages: LRUCache<Key, Entry>
        /// By ``Query/hash``; the alias holds the full text to compare.
        var aliases: LRUCache<QuerySlot, Alias>
        var hits = 0
        var misses = 0
    }

    /// When a new ring is stored.
    package enum Admission: String, Sendable, CaseIterable {
        /// Every ring, the first time it is rendered.
        case first
        /// A cheap ring the second time its URL is asked for (within the ``Doorkeeper``'s window);
        /// a costly one the first time, as it would cost more to render again.
        case second
    }

    /// What a lookup by the request's query behind its loop's front found.
    package enum QueryLookup {
        case found(Entry)
        /// Not found by its text: the request goes on to its ring's digest as a ``Miss``.
        case absent(Miss)
    }

    /// A request found neither in its loop's front nor by its text, on its way to its ring's
    /// digest: one value carries it from the front through the ``Doorkeeper`` and the alias to
    /// ``find(_:for:cheap:)`` and ``store(_:key:for:)``, where the cache alone decides, by
    /// ``shouldStore(_:cheap:)``, whether the ring is kept.
    package struct Miss {
        package let query: Query
        package let loop: Int
        /// Not asked for within the ``Doorkeeper``'s window (with ``Admission/second`` only).
        let firstAsked: Bool
        /// Whether the ring is stored once rendered: decided by ``find(_:for:cheap:)``.
        package fileprivate(set) var stores = true
        /// Whether the query is kept as a way to the ring when it is stored: a cheap ring
        /// stored on its second request is found by its text from the third.
        fileprivate var remembersOnStore = false

        fileprivate init(query: Query, loop: Int, firstAsked: Bool) {
            self.query = query
            self.loop = loop
            self.firstAsked = firstAsked
        }

        /// A query the doorkeeper is not asked about: a live ring's, made from its values,
        /// which is stored on its first request.
        package init(made query: Query, loop: Int) {
            self.init(query: query, loop: loop, firstAsked: false)
        }
    }

    /// A loop's own references: the alias and the entry it led to.
    private struct FrontEntry {
        var alias: Alias
        var entry: Entry
    }

    private struct Front {
        var entries: LRUCache<QuerySlot, FrontEntry>
        var hits = 0
    }

    /// The configured budget in bytes, store and fronts together.
    package let capacity: Int
    /// When new rings are stored.
    package let admission: Admission
    private let shards: [Locked<Storage>]
    /// The queries asked for before, when cheap rings wait for their second request; taken
    /// unretained on every new URL (as the shards are), `doorkeeperOwner` keeping it alive:
    /// the lookup's share of a miss round's samples was 2.34–2.48 % with the doorkeeper
    /// retained on each use and 1.85 % unretained (perf).
    private let doorkeeper: Unmanaged<Doorkeeper>?
    private let doorkeeperOwner: Doorkeeper?
    private let shardReferences: [Unmanaged<Locked<Storage>>]
    private let fronts: [Locked<Front>]
    /// The fronts, taken unretained like the shards: one loop's front object and the next's
    /// are small neighbours in memory, and each loop's retain on every request wrote a line
    /// the other's read. Taken unretained (with each loop's own copy of the fonts), hits went
    /// from 8.82 to 8.45 µs of CPU and new SVGs from 13.39 to 12.81 (A/B, medians of ten
    /// alternating rounds). `fronts` keeps them alive.
    private let frontReferences: [Unmanaged<Locked<Front>>]
    /// Cheap rings answered and not stored, a lane per loop.
    private let unstoredCounts: CounterLanes

    /// A cache of at most `capacityBytes`: a store split evenly into `shards` locks, and a
    /// front for each of `loops` event loops. With ``Admission/second``, a ``Doorkeeper`` of one
    /// bit per ``doorkeeperBytesPerBit`` bytes of each shard's budget (at least 4 096 a shard):
    /// one query marking it for every eight bits, about four times the rings the store can
    /// hold, clears it.
    package init(capacityBytes: Int, shards: Int = 16, loops: Int = 1, admission: Admission = .first) {
        capacity = capacityBytes
        self.admission = admission
        let frontBudget = capacityBytes / 8 / max(1, loops)
        let shardBudget = (capacityBytes - capacityBytes / 8) / max(1, shards)
        self.shards = (0..<max(1, shards)).map { _ in
            Locked(
                Storage(
                    responses: LRUCache(capacity: shardBudget - shardBudget / 8 - shardBudget / 16),
                    errorImages: LRUCache(capacity: shardBudget / 16),
                    aliases: LRUCache(capacity: shardBudget / 8)))
        }
        let doorkeeperBits = max(1, shards) * max(4096, shardBudget / Self.doorkeeperBytesPerBit)
        doorkeeperOwner = admission == .second ? Doorkeeper(bits: doorkeeperBits, lanes: max(1, loops)) : nil
        doorkeeper = doorkeeperOwner.map { Unmanaged.passUnretained($0) }
        self.shardReferences = self.shards.map { Unmanaged.passUnretained($0) }
        self.fronts = (0..<max(1, loops)).map { _ in Locked(Front(entries: LRUCache(capacity: frontBudget))) }
        self.frontReferences = self.fronts.map { Unmanaged.passUnretained($0) }
        unstoredCounts = CounterLanes(lanes: max(1, loops), counters: 1)
    }

    /// Runs `body` under the lock of the shard `query`'s aliases are in.
    private func withShard<Result>(for query: Query, _ body: (inout Storage) -> Result) -> Result {
        withShard(Int(UInt(bitPattern: query.hash) % UInt(shardReferences.count)), body)
    }

    /// Runs `body` under the lock of the shard `key`'s response is in.
    private func withShard<Result>(for key: Key, _ body: (inout Storage) -> Result) -> Result {
        withShard(Int(key.digest.low % UInt64(shardReferences.count)), body)
    }

    /// Through an unretained reference: every loop takes every shard, and retaining one wrote
    /// its object's reference count, a cache line the cores then passed between them on each
    /// new ring: `swift_retain` inside the lookup took 0.144 µs a request retained and 0.025
    /// unretained (perf, one miss round each). `shards` keeps them alive as long as the cache.
    private func withShard<Result>(_ index: Int, _ body: (inout Storage) -> Result) -> Result {
        shardReferences[index]._withUnsafeGuaranteedRef { $0.withLock(body) }
    }

    /// Runs `body` under the lock of loop `loop`'s front.
    private func withFront<Result>(_ loop: Int, _ body: (inout Front) -> Result) -> Result {
        frontReferences[loop % frontReferences.count]._withUnsafeGuaranteedRef { $0.withLock(body) }
    }

    /// The entry in loop `loop`'s front for a request seen before, counting a hit when found:
    /// the hit path, which takes no lock another loop takes. Not found, the caller parses the
    /// query and then asks ``findBehindFront(query:loop:)``; meanwhile the query's word of the
    /// ``Doorkeeper`` is on its way into the CPU's cache. That word is a new URL's one cache
    /// miss: read at once, it cost 0.14 µs of waiting, and the parse hides it
    /// (docs/performance.md, "The response cache").
    package func findInFront(query: Query, loop: Int = 0) -> Entry? {
        let slot = QuerySlot(hash: query.hash)
        let cached = withFront(loop) { front -> Entry? in
            guard let found = front.entries.value(for: slot), query.isSame(as: found.alias) else { return nil }
            front.hits += 1
            return found.entry
        }
        if cached == nil, let doorkeeper { doorkeeper._withUnsafeGuaranteedRef { $0.prefetch(slot.slot) } }
        return cached
    }

    /// The entry for a request not in its loop's front (``findInFront(query:loop:)``), from the
    /// store, counting a hit when found. Not found, the caller finds the ring by its digest, or
    /// renders and ``insert(_:key:)``s it, which counts the miss: each request counts once.
    ///
    /// With ``Admission/second`` the query is marked as asked for in the ``Doorkeeper``, which
    /// takes no lock. A query asked for the first time has no alias, so no shard is locked or
    /// read: a new URL costs its loop's front and two bits, not three probes of tables every
    /// loop shares, whose places come from memory, and the lines of their locks
    /// (docs/performance.md). A query remembered before the doorkeeper was last cleared looks
    /// new once: its ring is rendered again (and, if cheap, dropped), and its next request
    /// finds the alias.
    package func findBehindFront(query: Query, loop: Int = 0) -> QueryLookup {
        let slot = QuerySlot(hash: query.hash)
        if let doorkeeper, !doorkeeper._withUnsafeGuaranteedRef({ $0.see(slot.slot, lane: loop) }) {
            return .absent(Miss(query: query, loop: loop, firstAsked: true))
        }
        let key = withShard(for: query) { storage -> Key? in
            guard let alias = storage.aliases.value(for: slot), query.isSame(as: alias) else { return nil }
            return alias.key
        }
        guard let key else { return .absent(Miss(query: query, loop: loop, firstAsked: false)) }
        let entry = withShard(for: key) { Self.stored(key, in: &$0) }
        guard let entry else { return .absent(Miss(query: query, loop: loop, firstAsked: false)) }
        promote(query, to: key, entry: entry, loop: loop)
        return .found(entry)
    }

    /// The entry for a ring already rendered, for this query or another; remembers `query` as
    /// a way to it, and counts a hit, when found.
    package func lookup(key: Key, aliasing query: Query, loop: Int = 0) -> Entry? {
        guard let entry = withShard(for: key, { Self.stored(key, in: &$0) }) else { return nil }
        remember(query, as: key)
        return entry
    }

    /// The entry stored under `key` in a shard, counting a hit when found; under its lock.
    private static func stored(_ key: Key, in storage: inout Storage) -> Entry? {
        let entry = key.isErrorImage ? storage.errorImages.value(for: key) : storage.responses.value(for: key)
        if entry != nil { storage.hits += 1 }
        return entry
    }

    /// The bytes of a shard's budget per bit of its ``Doorkeeper``: a default ring costs about
    /// 2 KB of budget, so a query for every eight bits stands for about four times the rings a
    /// shard holds, and 64 MiB of cache keep 128 KiB of bits.
    static let doorkeeperBytesPerBit = 64

    /// The admission rule (``Admission``): a ring is stored unless it is cheap and its query
    /// is asked for the first time. Such a ring is answered and dropped, and not looked for by
    /// digest: rendering it again costs about what finding it would, and most such rings are
    /// nowhere to be found.
    package func shouldStore(_ miss: Miss, cheap: Bool) -> Bool { !(cheap && miss.firstAsked) }

    /// The entry of `key`, the ring `miss`'s query makes, when the ring is to be stored
    /// (``shouldStore(_:cheap:)``, recorded in `miss`): found, the query is kept as a way to
    /// it. A ring not to be stored is counted (``Statistics/unstored``) and not looked for.
    package func find(_ key: Key, for miss: inout Miss, cheap: Bool) -> Entry? {
        guard shouldStore(miss, cheap: cheap) else {
            miss.stores = false
            unstoredCounts.add(1, to: 0, lane: miss.loop % unstoredCounts.count)
            return nil
        }
        miss.remembersOnStore = cheap && admission == .second
        return lookup(key: key, aliasing: miss.query, loop: miss.loop)
    }

    /// Stores the ring `miss` rendered, and its query with it when it was asked for again.
    package func store(_ entry: Entry, key: Key, for miss: Miss) {
        insert(entry, key: key)
        if miss.remembersOnStore { remember(miss.query, as: key) }
    }

    /// Stores `entry` under `key`. The query that made it is not remembered yet: a query is
    /// kept as a way to the entry (``remember(_:as:)``) when it comes again and finds the ring
    /// by its digest, so a URL asked for once costs the store no alias, and a flood of new URLs
    /// pushes no alias of a popular one out (docs/architecture.md).
    package func insert(_ entry: Entry, key: Key) {
        withShard(for: key) {
            $0.misses += 1
            if key.isErrorImage {
                $0.errorImages.insert(entry, for: key, cost: entry.cost)
            } else {
                $0.responses.insert(entry, for: key, cost: entry.cost)
            }
        }
    }

    /// Keeps `query` in the store as a way to reach `key`.
    package func remember(_ query: Query, as key: Key) {
        let alias = Alias(text: query.text, format: query.format, key: key)
        withShard(for: query) {
            $0.aliases.insert(alias, for: QuerySlot(hash: query.hash), cost: Self.aliasCost(query))
        }
    }

    /// Puts a query found in the store into the loop's front. Only a query asked for again
    /// gets there, so rings requested once never push popular ones out of a front.
    private func promote(_ query: Query, to key: Key, entry: Entry, loop: Int) {
        let alias = Alias(text: query.text, format: query.format, key: key)
        withFront(loop) {
            $0.entries.insert(
                FrontEntry(alias: alias, entry: entry), for: QuerySlot(hash: query.hash),
                cost: Self.aliasCost(query) + entry.cost)
        }
    }

    /// An alias's bytes: the query text plus an allowance for the string, node and dictionary slot.
    private static func aliasCost(_ query: Query) -> Int { reserved(query.text.utf8.count + 200) }

    /// Each byte the cache holds is counted this many times (in tenths), so the budget covers
    /// what the allocator cannot give back as well as what the cache uses: when evicted rings
    /// of one size are replaced by rings of another, glibc keeps the freed holes among the
    /// survivors. Measured on scripts/attack/isolation.sh's memory mix, peak RSS above the cache's
    /// live bytes reached 1.4 to 1.5 times them (docs/operations.md); since new cheap rings are
    /// stored on their second request, each stored body is made beside one that is answered
    /// and freed, and the same mix (each ring asked for twice) peaked 5 to 8 MiB higher, so the
    /// reserve is 1.7.
    static let fragmentationReserve = 17

    /// `bytes` with the fragmentation reserve.
    static func reserved(_ bytes: Int) -> Int { bytes * fragmentationReserve / 10 }

    /// Counters for metrics.
    package struct Statistics: Sendable, Equatable {
        /// Lookups that found a response, by the query's text or by the ring's digest.
        package var hits: Int
        /// Responses rendered and stored: lookups that found nothing either way.
        package var misses: Int
        /// Cheap rings rendered and answered without being stored: asked for the first time,
        /// with ``Admission/second``.
        package var unstored: Int = 0
        package var evictions: Int
        /// Bytes counted against the budget: the store's, plus what the fronts may keep alive.
        package var bytes: Int
        /// Distinct responses in the store, error images included.
        package var entries: Int
        /// Of ``bytes``, those of error images in the store.
        package var errorImageBytes: Int = 0
    }

    package var statistics: Statistics {
        var total = Statistics(hits: 0, misses: 0, evictions: 0, bytes: 0, entries: 0)
        for shard in shards {
            shard.withLock {
                total.hits += $0.hits
                total.misses += $0.misses
                total.evictions += $0.responses.evictions + $0.errorImages.evictions + $0.aliases.evictions
                total.bytes += $0.responses.totalCost + $0.errorImages.totalCost + $0.aliases.totalCost
                total.entries += $0.responses.count + $0.errorImages.count
                total.errorImageBytes += $0.errorImages.totalCost
            }
        }
        for front in fronts {
            front.withLock {
                total.hits += $0.hits
                total.bytes += $0.entries.totalCost
            }
        }
        total.unstored = unstoredCounts.sum(0)
        return total
    }
}

extension ResponseCache.Key: CacheKey {
    /// The digest's bits and the format, mixed with a seed drawn once per process: SHA-256 makes
    /// the digests uniform, and the seed keeps anyone who computes them (the canonical key is
    /// public) from choosing rings that land in one run of the table.
    var slot: UInt64 {
        var mixed = (digest.low ^ Self.seed) &+ UInt64(format)
        mixed = (mixed ^ (mixed >> 31)) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ digest.high) &* 0xBF58_476D_1CE4_E5B9
        return mixed ^ (mixed >> 29)
    }

    private static let seed = UInt64.random(in: .min ... .max)
}
