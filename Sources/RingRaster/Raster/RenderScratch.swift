import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one thread's renders reuse: the canvas, the coverage cells, the scanlines, the deflate
/// output, our own deflate's tables and, once an RGBA image needs it, the zlib stream. A 120 px
/// ring needs buffers of 15 to 58 KB, and zlib 270 KB of state; made afresh for each PNG they
/// cost page faults and, worse, fragment the heap between the small responses the cache keeps,
/// so the process grew past its memory bound. Buffers larger than ``retainedBytes`` are let go
/// after the render that needed them.
///
/// Not `Sendable`: each thread has its own (``current``), and renders never cross threads.
package final class RenderScratch {
    /// An RGBA canvas's pixels.
    var pixels: [UInt8] = []
    /// An indexed canvas's rows, and its memo of composited colours (``Canvas``).
    var canvasIndices: [UInt8] = []
    var memo: [UInt32] = []
    /// The number of the last fill that stamped ``memo``.
    var fills: UInt32 = 0
    var cells: [Float] = []
    var lines: [UInt8] = []
    /// The rows as palette indices, for an image of at most 256 colours.
    var indexed: [UInt8] = []
    var output: [UInt8] = []
    /// Kept for the thread's life once made: `deflateInit2` allocates and clears its state,
    /// which costs more than compressing a small ring; `deflateReset` keeps it. Made on first
    /// use, by an RGBA image: palette images, most rings, are compressed by ``runs``.
    var stream: UnsafeMutablePointer<z_stream> {
        if let existing = zlibStream { return existing }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // The level and strategy are set for each image (`deflateParams`); these are RGBA's.
        let status = deflateInit2_(
            stream, 3, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib deflateInit2 failed: \(status)")
        zlibStream = stream
        return stream
    }
    private var zlibStream: UnsafeMutablePointer<z_stream>?
    /// The backdrops of the last styles drawn and the indexed canvas after each, most recent
    /// last, for the next image with one of them; only for images within ``retainedBytes``
    /// pixels, at most ``keptBackdrops`` of them and ``retainedBytes`` of canvas in all. A
    /// server behind a CDN sees many users' styles interleaved, and one kept backdrop would
    /// rarely be the next ring's.
    var backdrops: [KeptBackdrop] = []
    /// A style's backdrop, the canvas after it, and that canvas's pixels.
    struct KeptBackdrop {
        let key: Backdrop
        let snapshot: Canvas.Snapshot
        let bytes: Int
    }
    /// How many styles' backdrops a thread keeps: enough for the nine styles interleaved by
    /// scripts/bench's interleaved round, about 14 KB each for a 120 px ring.
    static let keptBackdrops = 12

    /// The kept canvas after `backdrop`, made the most recent; nil when none is kept.
    func keptBackdrop(_ backdrop: Backdrop) -> Canvas.Snapshot? {
        // Compared in place: through a closure or the array's subscript each entry was copied
        // out, its arrays retained and released, a third of the lookup's instructions.
        let index = backdrops.withUnsafeBufferPointer { kept in
            var index = kept.count - 1
            while index >= 0, kept[index].key != backdrop { index -= 1 }
            return index
        }
        guard index >= 0 else { return nil }
        let kept = backdrops.remove(at: index)
        backdrops.append(kept)
        return kept.snapshot
    }

    /// Keeps the canvas after `backdrop`, forgetting the least recent beyond the bounds.
    func keep(_ backdrop: Backdrop, _ snapshot: Canvas.Snapshot, bytes: Int) {
        backdrops.append(KeptBackdrop(key: backdrop, snapshot: snapshot, bytes: bytes))
        var total = backdrops.reduce(0) { $0 + $1.bytes }
        while backdrops.count > Self.keptBackdrops || total > Self.retainedBytes {
            total -= backdrops.removeFirst().bytes
        }
    }
    /// The masks of the last texts drawn, oldest first (``TextMask``).
    var textMasks: [(key: TextMask, mask: CoverageMask)] = []

    /// Lets go of the kept backdrop and text masks, so that the next image is drawn from
    /// nothing: for benchmarks that measure that.
    package func forgetKeptLayers() {
        backdrops = []
        textMasks = []
    }
    /// Our own deflate, with its token and code tables (about 60 KB), for palette images.
    let runs = RunLengthDeflate()

    /// Largest buffer kept between renders: rings up to 300 px a side (the service's
    /// `pngGatePixels`), which are most of them. A larger render's buffers are let go after
    /// it, so a render thread keeps at most this much per buffer between renders, not the
    /// largest render's.
    static let retainedBytes = 512 << 10

    private init() {}

    deinit {
        guard let zlibStream else { return }
        deflateEnd(zlibStream)
        zlibStream.deallocate()
    }

    /// Lets go of buffers a large render grew past ``retainedBytes``.
    func trim() {
        if pixels.capacity > Self.retainedBytes { pixels = [] }
        if canvasIndices.capacity > Self.retainedBytes { canvasIndices = [] }
        if cells.capacity * MemoryLayout<Float>.size > Self.retainedBytes { cells = [] }
        if lines.capacity > Self.retainedBytes { lines = [] }
        if indexed.capacity > Self.retainedBytes { indexed = [] }
        if output.capacity > Self.retainedBytes { output = [] }
    }

    /// The calling thread's scratch, made on first use; released when the thread exits.
    package static var current: RenderScratch {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<RenderScratch>.fromOpaque(existing).takeUnretainedValue()
        }
        let scratch = RenderScratch()
        pthread_setspecific(key, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if os(Linux)
                guard let pointer else { return }
            #endif
            Unmanaged<RenderScratch>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}

extension Array where Element: Numeric & BitwiseCopyable {
    /// Makes the array `count` zeros, keeping its storage when large enough: the elements it
    /// keeps are cleared in place by one `memset` (zero bits are zero for the integers and
    /// floats this is used on), and only those it grows by are appended.
    mutating func resetToZeros(count: Int) {
        if self.count > count { removeLast(self.count - count) }
        withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { memset(base, 0, bytes.count) }
        }
        if self.count < count { append(contentsOf: repeatElement(0, count: count - self.count)) }
    }
}
