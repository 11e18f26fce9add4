import CSystem
import Dispatch

/// How the process keeps its resident memory near what it uses, so the bound in
/// docs/operations.md holds: glibc's allocator is told to map large blocks on their own, to
/// keep few arenas, and to hand free pages back.
///
/// Measured on a mix of SVG, small and large PNG, error-image and 2048 px floods through a
/// 64 MiB cache (docs/operations.md has the table), the default allocator peaked at 351 MiB:
/// each thread's arena kept the pages of the responses the cache had evicted, and a freed
/// large render buffer raised glibc's dynamic mmap threshold so the next one stayed in the
/// heap. With these settings the same mix peaks under the cache cap + 64 MiB.
package struct MemoryPolicy: Sendable, Equatable {
    /// glibc `M_ARENA_MAX`: heaps shared by all threads; each arena keeps its own free pages.
    package var arenas: Int = 2
    /// glibc `M_MMAP_THRESHOLD`, bytes: blocks at least this large (large PNG bodies and
    /// render buffers) are mapped on their own and unmapped when freed. Setting it also stops
    /// glibc from raising it after each large free.
    package var mmapThreshold: Int = 64 * 1024
    /// Seconds between hand-backs of free pages (`malloc_trim`), off the event loops; 0 never.
    /// A render thread also hands them back after each large render.
    package var trimInterval: Double = 1

    package init() {}

    /// Applies the allocator settings to the whole process. Call once, before serving.
    package func apply() {
        csystem_configure_allocator(Int32(clamping: mmapThreshold), Int32(clamping: arenas))
    }

    /// Starts handing free pages back every ``trimInterval`` on a queue of its own; the
    /// returned timer runs until cancelled.
    package func startTrimming() -> (any DispatchSourceTimer)? {
        guard trimInterval > 0 else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ring-memory-trim"))
        let interval = DispatchTimeInterval.milliseconds(Int(trimInterval * 1000))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { Self.releaseFreeMemory() }
        timer.resume()
        return timer
    }

    /// Hands free heap pages back to the system now.
    static func releaseFreeMemory() {
        csystem_release_free_memory()
    }
}
