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
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
