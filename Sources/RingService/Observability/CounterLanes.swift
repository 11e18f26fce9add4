import Synchronization

/// Atomic counters in lanes: each lane starts on a cache line of its own (128 bytes, as
/// neighbouring lines are fetched in pairs), so threads adding to different lanes never share
/// a line, and a counter's value is the sum of its lanes.
final class CounterLanes: @unchecked Sendable {
    let count: Int
    private let stride: Int
    private let base: UnsafeMutablePointer<Atomic<Int>>

    init(lanes: Int, counters: Int) {
        let perLine = 128 / MemoryLayout<Atomic<Int>>.stride
        count = lanes
        stride = (counters + perLine - 1) / perLine * perLine
        base = UnsafeMutableRawPointer.allocate(
            byteCount: lanes * stride * MemoryLayout<Atomic<Int>>.stride, alignment: 128
        ).bindMemory(to: Atomic<Int>.self, capacity: lanes * stride)
        for index in 0..<lanes * stride { (base + index).initialize(to: Atomic(0)) }
    }

    deinit {
        base.deinitialize(count: count * stride)
        base.deallocate()
    }

    func add(_ value: Int, to counter: Int, lane: Int) {
        base[lane * stride + counter].add(value, ordering: .relaxed)
    }

    /// Adds 1 and returns the lane's new value.
    func increment(_ counter: Int, lane: Int) -> Int {
        base[lane * stride + counter].wrappingAdd(1, ordering: .relaxed).newValue
    }

    func sum(_ counter: Int) -> Int {
        (0..<count).reduce(0) { $0 + base[$1 * stride + counter].load(ordering: .relaxed) }
    }
}
