#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a `pthread_mutex_t`, for state shared between event loops and other threads.
///
/// Not `Synchronization.Mutex`, on purpose: on Linux that Mutex waits on a raw futex that
/// ThreadSanitizer does not see, so every correctly locked access is reported as a "Swift access
/// race" and `swift test --sanitize=thread` would be noise. ThreadSanitizer intercepts
/// `pthread_mutex_lock`, so with this lock a report means a real race. Uncontended, both cost a
/// compare-and-swap.
///
/// The mutex and the value live in one block of their own, not in stored properties: a
/// class's `var` passed `inout` is checked for overlapping access at run time
/// (`swift_beginAccess` and `swift_endAccess`, about 120 instructions a call, three times on
/// every new ring) though the mutex already makes every access exclusive; and the block starts
/// on a 128-byte boundary (neighbouring cache lines are fetched in pairs), so two locks made one
/// after the other, such as the cache's shards, never share a line that both threads write.
package final class Locked<Value> {
    private let block: UnsafeMutableRawPointer
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    private static var valueOffset: Int {
        let alignment = max(MemoryLayout<Value>.alignment, 1)
        return (MemoryLayout<pthread_mutex_t>.size + alignment - 1) / alignment * alignment
    }

    package init(_ value: Value) {
        let size = Self.valueOffset + MemoryLayout<Value>.size
        block = .allocate(byteCount: (size + 127) / 128 * 128, alignment: max(128, MemoryLayout<Value>.alignment))
        mutex = block.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = (block + Self.valueOffset).bindMemory(to: Value.self, capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        value.deinitialize(count: 1)
        block.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

/// Shared between threads only when its value may be: the mutex makes every access exclusive,
/// which is all a Sendable value needs. A non-Sendable value (a class with shared state of its
/// own) must not be handed across threads through it.
extension Locked: @unchecked Sendable where Value: Sendable {}
