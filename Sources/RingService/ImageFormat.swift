import RingRaster

/// The image formats served, each on its own route, with its own cache entries and ETags: the
/// library's own, which knows each format's renderer version.
package typealias ImageFormat = RingImage.Format

extension ImageFormat {
    /// The format's number in the cache key and in tables by format.
    var code: UInt8 { self == .svg ? 0 : 1 }
    var index: Int { Int(code) }

    var contentType: String {
        switch self {
        case .svg: "image/svg+xml; charset=utf-8"
        case .png: "image/png"
        }
    }

    /// The cache key's variant for an error image: its own, so an error image never shares an
    /// entry with a ring, and is kept in the error images' own budget.
    var errorVariant: UInt8 { ResponseCache.Key.errorImageFlag | code }

    /// The cache key's output variant: the SVG ignores `scale`; each PNG scale is its own image.
    func variant(scale: Int) -> UInt8 {
        switch self {
        case .svg: 0
        case .png: 0x10 | UInt8(truncatingIfNeeded: scale)
        }
    }
}
