/// A least-recently-used map bounded by the total cost (bytes) of its values.
///
/// Nodes live in an array and link to each other by index, so lookups and moves allocate
/// nothing. Not thread-safe: ``ResponseCache`` guards it with a mutex.
struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        /// Nil once removed: a free slot must not keep its old value (a response and its body)
        /// alive until the slot is reused, which may be never.
        var value: Value?
        var cost: Int
        var previous: Int
        var next: Int
    }

    let capacity: Int
    private(set) var totalCost = 0
    private(set) var evictions = 0
    private var nodes: [Node] = []
    private var index: [Key: Int] = [:]
    private var free: [Int] = []
    /// Most and least recently used node, or -1.
    private var head = -1
    private var tail = -1

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { index.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return nodes[slot].value
    }

    /// Inserts or replaces `key`, then evicts least recently used entries until the total cost
    /// fits. A value costing more than the whole capacity is not stored.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        if let slot = index[key] { remove(slot) }
        guard cost <= capacity else { return }
        while totalCost + cost > capacity, tail >= 0 {
            remove(tail)
            evictions += 1
        }
        let node = Node(key: key, value: value, cost: cost, previous: -1, next: head)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
        index[key] = slot
        totalCost += cost
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func remove(_ slot: Int) {
        unlink(slot)
        index[nodes[slot].key] = nil
        nodes[slot].value = nil
        totalCost -= nodes[slot].cost
        free.append(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }
}
