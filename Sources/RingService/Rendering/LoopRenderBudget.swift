import Primitives

/// How much of its time an event loop may spend rendering small rings at once, for the
/// request that asked, instead of queueing them for the pool: at most `length` seconds of
/// renders in a window of `length` seconds, the same bound as a spare turn's
/// (``RingService/spareTurn(for:)``), so a cached answer on that loop waits for at most that and
/// one small render.
///
/// Rendered at once, a small PNG skips the pool's queue, its wake-ups and the reply handed
/// back to the loop, which cost a new interleaved PNG about a sixth of the server's CPU
/// (docs/performance.md, "The pool's round trip"). Past the budget a loop queues them, so a
/// flood of them still lands mostly on the render threads, below the loops.
package final class LoopRenderBudget: Sendable {
    private struct Window {
        var start = -Double.infinity
        var spent = 0.0
    }

    /// Seconds of renders a window, and the window's length; 0: never at once.
    private let length: Double
    /// One a loop, each on lines of its own (``Locked``): a loop takes only its own, never
    /// contended (the Dispatch backend's threads may share one).
    private let windows: [Locked<Window>]

    package init(loops: Int, length: Double) {
        self.length = max(0, length)
        windows = (0..<max(1, loops)).map { _ in Locked(Window()) }
    }

    /// Whether `loop` may render one more ring at once: a window that ended gives way to a new
    /// one starting `now`.
    package func allows(loop: Int, now: Double) -> Bool {
        guard length > 0 else { return false }
        return windows[loop % windows.count].withLock { window in
            if now - window.start >= length { window = Window(start: now) }
            return window.spent < length
        }
    }

    /// `seconds` more spent rendering by `loop` in its window.
    package func spend(_ seconds: Double, loop: Int) {
        windows[loop % windows.count].withLock { $0.spent += seconds }
    }
}
