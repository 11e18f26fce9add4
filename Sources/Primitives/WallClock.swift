import Glibc

/// The wall clock time progress is measured against: seconds since 1970-01-01T00:00:00Z.
package final class WallClock: Sendable, Equatable {
    private let read: @Sendable () -> Double

    package init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    package func now() -> Double { read() }

    package static func == (left: WallClock, right: WallClock) -> Bool { left === right }

    /// `CLOCK_REALTIME`.
    package static let system = WallClock {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
