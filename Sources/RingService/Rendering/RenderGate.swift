import Synchronization

/// Lets at most `limit` expensive renders run at once, across every event loop, and turns the
/// rest away at once instead of queueing them: a loop never waits for a place, so one that is
/// refused goes on serving SVGs and cached images.
package final class RenderGate: Sendable {
    package let limit: Int
    private let running = Atomic<Int>(0)

    package init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Takes a place if one is free; call ``leave()`` when done, and only then.
    package func enter() -> Bool {
        guard running.add(1, ordering: .acquiringAndReleasing).newValue <= limit else {
            running.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    package func leave() {
        running.subtract(1, ordering: .releasing)
    }

    /// Renders running now.
    package var count: Int { running.load(ordering: .relaxed) }
}
