import HTTPServer
import Primitives
import RingRaster

/// The ring service's own settings (the server's live in `ServerConfiguration`).
package struct ServiceConfiguration: Sendable, Equatable {
    /// Response cache budget in bytes, for all event loops together.
    package var cacheBytes: Int = 64 * 1024 * 1024
    /// Locks the cache is split into. More shards make it rarer that two loops want the same
    /// lock at once; each shard gets an equal part of the budget.
    package var cacheShards: Int = 16
    /// When a new ring is stored: a cheap one (an SVG rendered on its loop) the second time it
    /// is asked for, so rings asked for once cost no entry and push no other ring out.
    package var cacheAdmission: ResponseCache.Admission = .second
    /// Event loops answering requests: each gets its own front of references in the cache.
    package var eventLoops: Int = 1
    /// The proxies in front (`--trusted-proxy`): for a request from one of them, the access
    /// log's client is read from `Forwarded` or `X-Forwarded-For`.
    package var trustedProxies: [ClientAddressRange] = []
    /// `max-age` for rings, seconds: a ring is a pure function of its URL.
    package var maxAge: Int = 86_400
    /// `stale-while-revalidate` for rings, seconds (RFC 5861): a cache may serve a ring this long
    /// past `max-age` while it fetches a fresh copy.
    package var staleWhileRevalidate: Int = 86_400
    /// `stale-if-error` for rings, seconds (RFC 5861): a cache may serve a ring this long past
    /// `max-age` while this service is down or failing.
    package var staleIfError: Int = 604_800
    /// `max-age` for error images, 404 and 405 answers, seconds: short, so a fixed URL shows up soon.
    package var errorMaxAge: Int = 60
    /// Longest query string rendered; longer ones get an error image without being parsed.
    package var maxQueryBytes: Int = 4096
    /// The largest PNG and the most memory one PNG render may take; larger ones get an error
    /// image naming `size` or `scale`.
    package var raster = RasterLimits()
    /// Large PNG renders (past ``pngGatePixels``) queued or running at once, across all loops;
    /// a new large PNG past them gets 503 with `Retry-After`, while SVGs, small and cached PNGs
    /// are still served. Each may take up to `raster.maxRenderBytes`: the memory bound counts
    /// this many (docs/operations.md).
    package var pngRenders: Int = 1
    /// PNGs of at most this many pixels render without a place among ``pngRenders``: 300 × 300
    /// costs a few milliseconds and under 2 MiB.
    package var pngGatePixels: Int = 90_000

    /// Render threads, which take every render too costly for an event loop; 0 means one per
    /// CPU the process may use.
    package var renderThreads: Int = 0
    /// Renders that may wait for a render thread; a new ring past them gets 503 with
    /// `Retry-After`.
    package var renderQueue: Int = 64
    /// Rings whose estimated render time (``RenderCost``) is at most this many microseconds
    /// are rendered on the event loop that asked: handing them over would cost more than
    /// rendering. The default SVG ring takes about 2.
    package var inlineRenderMicroseconds: Int = 25
    /// Rings past ``inlineRenderMicroseconds`` whose estimated render time is at most this many
    /// microseconds are small: the hand-over to a render thread and back costs about as much
    /// as such a render. The loop that asked renders one at once while it has spent less than
    /// ``loopTurnMicroseconds`` on them in the last as many (``LoopRenderBudget``); past that
    /// it queues them, and a loop renders queued ones in a spare turn, between two batches of
    /// requests, for as long. So a cached answer waits for at most that and one of them. The
    /// default PNG ring is estimated at about 320 (it takes 20–60); 0: only render threads
    /// render them.
    package var spareRenderMicroseconds: Int = 400
    /// How long a loop's turn of small renders may last: the server's write delay
    /// (`--write-delay-us`), which `ring serve` copies here. 0: none rendered at once.
    package var loopTurnMicroseconds: Int = 200
    /// Rings whose estimated render time is past this many milliseconds get an error image
    /// naming the parameter that makes them costly.
    package var maxRenderMilliseconds: Int = 250

    /// What PNG text is drawn with: the embedded DejaVu Sans Bold and the fallback fonts
    /// `ring serve` loaded (`--font`, else the standard locations).
    package var fonts = LabelFonts.embedded
    /// The bounds on reading those fonts.
    package var fontLimits = FontLimits()

    /// Live values: which documents rings may read, and the bounds on reading them. Off
    /// unless hosts are allowed.
    package var sources = SourcePolicy()
    /// Addresses (`127.0.0.1:8123`) let through the source address check: for tests, whose
    /// JSON server listens on loopback, so that redirects from it meet the check.
    package var sourceExemptEndpoints: [String] = []
    /// What the source cache reads the time from: the monotonic clock, or for tests one they
    /// move by hand across time-to-live and staleness.
    package var sourceClock = SourceClock.monotonic
    /// The wall clock time progress (`from`, `to`) is measured against, in seconds since 1970
    /// (UTC): the system's, or for tests one they set.
    package var wallClock = WallClock.system
    /// How source names are resolved: the system's resolver, or for tests one that is slow,
    /// silent, or answers a different address each time.
    package var sourceLookup = SourceLookup.system

    /// The allocator settings and the hand-back of free pages that hold the memory bound.
    package var memory = MemoryPolicy()

    /// ``renderThreads`` resolved: what 0 stands for.
    package var renderThreadCount: Int { renderThreads > 0 ? renderThreads : CPUBudget.available }

    package init() {}
}
