/// Spec in, SVG bytes out: `RingScene` resolves the spec, `SVGWriter` serialises the scene.
public enum RingRenderer {
    /// Bumped whenever the same spec would render different bytes, in SVG or PNG; part of the
    /// server's ETag. What each version changed is listed in docs/architecture.md.
    public static let version = 7

    /// When ``version`` began, in seconds since 1970 (2026-12-06T15:00:00Z): every ring's
    /// `Last-Modified`, since a ring's bytes change only with the renderer. Moves forward with
    /// every version bump.
    public static let versionDate = 1_796_569_200

    /// The SVG document for `spec`. Pass `digest` when the caller has it already (the server
    /// needs it for its cache first), so the canonical key is not built and hashed twice.
    /// `spec` is `consuming`, so a spec passed straight in is not copied.
    public static func render(_ spec: consuming RingSpec, digest: RingDigest? = nil) -> [UInt8] {
        var spec = spec
        let digest = digest ?? RingSpec.digest(of: &spec)
        return render(scene: RingScene(spec: spec), digest: digest)
    }

    /// The SVG document of `scene`, whose ids carry `digest` (``RingImage`` builds the scene
    /// once for either format).
    package static func render(scene: borrowing RingScene, digest: RingDigest) -> [UInt8] {
        withUnsafePointer(to: scene) { scene in
            let writer = SVGWriter(scene: scene, digest: digest)
            // Written into stack scratch, then copied once into the array: one allocation per
            // ring. A ring that outgrows the scratch (long gradients) moves to the heap.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
                var bytes = ByteWriter(scratch: scratch)
                writer.write(into: &bytes)
                return bytes.bytes
            }
        }
    }
}
