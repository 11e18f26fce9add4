import RingCore

/// What one PNG render may cost: its largest side in pixels and the memory it holds at once.
/// A size and a scale that pass these are safe to render; the service also bounds how many
/// renders run at once (docs/operations.md).
public struct RasterLimits: Sendable, Equatable {
    /// Largest width or height of a PNG, in pixels (`--png-max-side`).
    public var maxSide: Int = 2048
    /// Most bytes one render may hold (`--png-max-render-mb`). The default, 32 MiB, allows
    /// about 1 290 × 1 290 px (a 512 px ring at 2×, a 1024 px ring at 1×), and keeps one large
    /// render inside the memory bound of docs/operations.md; 2048 px a side needs 80 MiB.
    public var maxRenderBytes: Int = 32 << 20

    /// The server's defaults.
    public init() {}

    /// Nil when `scene` at `scale` may be rendered, else why not, naming the parameter to change.
    package func refusal(_ scene: RingScene, scale: Int) -> String? {
        let (width, height) = RingRasterizer.pixelSize(of: scene, scale: scale)
        return refusal(width: width, height: height, scale: scale)
    }

    /// Nil when a PNG of `width` × `height` pixels at `scale` may be rendered, else why not:
    /// for a caller that knows the size without a scene (a full ring is `size × scale` square).
    package func refusal(width: Int, height: Int, scale: Int) -> String? {
        let culprit = (scale > 1 ? RingParameter.scale : .size).rawValue
        if max(width, height) > maxSide {
            return "\(culprit): a \(width)x\(height) px PNG is larger than the limit of \(maxSide) px a side"
        }
        let bytes = width * height * RingRasterizer.bytesPerPixel
        if bytes > maxRenderBytes {
            return "\(culprit): a \(width)x\(height) px PNG needs \(Self.mebibytes(bytes)) to render,"
                + " more than the limit of \(Self.mebibytes(maxRenderBytes))"
        }
        return nil
    }

    /// `bytes` in MiB to a tenth: `0.9 MiB`.
    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
