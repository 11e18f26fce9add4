import CSystem
import Dispatch
import Foundation
import RingCore
import RingRaster

/// What a server does beside its start-up, so that the first answer comes sooner.
extension RingService {
    /// Makes one SVG on a thread of its own while the caller reads its flags and opens the
    /// listeners. The first ring of a process builds the parameter table and the runtime's
    /// type metadata for the whole miss path: about a millisecond that the first request
    /// would otherwise wait for (docs/performance.md, "Cold start").
    package static func warmUp() {
        DispatchQueue(label: "ring.warm-up").async {
            guard let spec = try? RingSpec(query: "p=50&label=warm") else { return }
            _ = try? RingImage(spec: spec, format: .svg).render()
        }
    }

    /// Reads the standard fallback fonts, if they are still to be read, on a thread of its own
    /// below the event loops (nice +19, as render threads), and returns at once. Called once
    /// the listeners are open: read beside the start-up, they took the second core from it and
    /// from the first answers. A PNG that needs them sooner waits for them.
    package func readFonts() {
        // Claimed here, not on the thread: the start-up line, which waits for the fonts, must
        // not find them unclaimed and read them itself, above the loops.
        guard let read = configuration.fonts.claimReading() else { return }
        let thread = Thread {
            _ = csystem_set_thread_name("ring-fonts")
            _ = csystem_lower_thread_priority(19)
            read()
        }
        thread.start()
    }
}
