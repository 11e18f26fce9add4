/// A key of an ``LRUCache``: compared exactly, and placed by ``slot``, 64 bits that nobody
/// outside the process can predict (a digest mixed with a per-process seed, or a seeded
/// `Hasher` value), so no client can pile keys into one run of the table.
protocol CacheKey: Equatable {
    var slot: UInt64 { get }
}

/// A least-recently-used map bounded by the total cost (bytes) of its values.
///
/// Nodes live in an array and link to each other by index, and the index is a table of our
/// own: open addressing with linear probing over node numbers, placed by each key's ``CacheKey/slot``
/// and emptied by backward shifts, so a removal leaves no tombstone behind. A lookup, a move or
/// an eviction allocates nothing and hashes nothing: on a miss this map did four `Dictionary`
/// operations with Swift's SipHash, which cost more than rendering the ring
/// (docs/performance.md). Not thread-safe: ``ResponseCache`` guards it with a mutex.
struct LRUCache<Key: CacheKey, Value> {
    /// A node's key and links; its value is in ``values``, so probing and relinking never
    /// touch (and retain) a value.
    fileprivate struct Node {
        var key: Key
        var cost: Int
        var previous: Int
        var next: Int
    }

    /// A place in the table: a node's number and its key's slot, so a probe compares slots
    /// without reading the node, and a removal finds each follower's home place.
    private struct Place {
        var slot: UInt64
        var node: Int32
        static var empty: Place { Place(slot: 0, node: -1) }
    }

    let capacity: Int
    private(set) var totalCost = 0
    private(set) var evictions = 0
    private(set) var count = 0
    private var nodes: [Node] = []
    /// By node number. Nil once removed: a free node must not keep its old value (a response
    /// and its body) alive until it is reused, which may be never.
    private var values: [Value?] = []
    /// A power of two long, at most half full.
    private var table = [Place](repeating: .empty, count: 16)
    private var free: [Int] = []
    /// Most and least recently used node, or -1.
    private var head = -1
    private var tail = -1

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let place = find(key) else { return nil }
        let node = Int(table[place].node)
        moveToFront(node)
        return values[node]
    }

    /// Removes the first entry whose key has `slot` and whose value `matches`, if any: for
    /// records that keep a key's 64-bit slot instead of the key itself.
    mutating func removeValue(slot: UInt64, where matches: (Value) -> Bool) {
        var place = Int(truncatingIfNeeded: slot) & mask
        while table[place].node >= 0 {
            let node = Int(table[place].node)
            if table[place].slot == slot, let value = values[node], matches(value) {
                remove(node)
                return
            }
            place = (place + 1) & mask
        }
    }

    /// Inserts or replaces `key`, then evicts least recently used entries until the total cost
    /// fits. A value costing more than the whole capacity is not stored.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        if let place = find(key) { remove(Int(table[place].node)) }
        guard cost <= capacity else { return }
        while totalCost + cost > capacity, tail >= 0 {
            remove(tail)
            evictions += 1
        }
        // Grown before the new node is linked: growing places every linked node.
        if (count + 1) * 2 > table.count { grow() }
        let node = Node(key: key, cost: cost, previous: -1, next: head)
        let number: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            values[reused] = value
            number = reused
        } else {
            nodes.append(node)
            values.append(value)
            number = nodes.count - 1
        }
        if head >= 0 { nodes[head].previous = number }
        head = number
        if tail < 0 { tail = number }
        count += 1
        place(number, slot: key.slot)
        totalCost += cost
    }

    // MARK: The table

    private var mask: Int { table.count - 1 }

    /// Where `key`'s node number is in the table.
    private func find(_ key: Key) -> Int? {
        let slot = key.slot
        var place = Int(truncatingIfNeeded: slot) & mask
        while true {
            let entry = table[place]
            if entry.node < 0 { return nil }
            if entry.slot == slot && nodes[Int(entry.node)].key == key { return place }
            place = (place + 1) & mask
        }
    }

    /// Puts node `number` in the first empty place from its own.
    private mutating func place(_ number: Int, slot: UInt64) {
        var place = Int(truncatingIfNeeded: slot) & mask
        while table[place].node >= 0 { place = (place + 1) & mask }
        table[place] = Place(slot: slot, node: Int32(truncatingIfNeeded: number))
    }

    /// Empties `place`, then moves back each node after it that the gap would hide from its
    /// own place (Knuth's deletion for linear probing, 6.4 Algorithm R).
    private mutating func vacate(_ place: Int) {
        var gap = place
        var next = (place + 1) & mask
        while table[next].node >= 0 {
            let home = Int(truncatingIfNeeded: table[next].slot) & mask
            // The node at `next` may move to `gap` unless its home lies cyclically in (gap, next].
            let stays = gap <= next ? (gap < home && home <= next) : (gap < home || home <= next)
            if !stays {
                table[gap] = table[next]
                gap = next
            }
            next = (next + 1) & mask
        }
        table[gap] = .empty
    }

    /// Twice the places, every live node placed again.
    private mutating func grow() {
        let old = table
        table = [Place](repeating: .empty, count: table.count * 2)
        for entry in old where entry.node >= 0 { place(Int(entry.node), slot: entry.slot) }
    }

    // MARK: Recency

    private mutating func moveToFront(_ node: Int) {
        guard node != head else { return }
        unlink(node)
        nodes[node].previous = -1
        nodes[node].next = head
        if head >= 0 { nodes[head].previous = node }
        head = node
        if tail < 0 { tail = node }
    }

    private mutating func remove(_ node: Int) {
        unlink(node)
        if let place = find(nodes[node].key) { vacate(place) }
        values[node] = nil
        totalCost -= nodes[node].cost
        count -= 1
        free.append(node)
    }

    private mutating func unlink(_ node: Int) {
        let previous = nodes[node].previous
        let next = nodes[node].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Node: Sendable where Key: Sendable {}
