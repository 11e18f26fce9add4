/// Spec in, SVG bytes out: ``RingScene`` resolves the spec, ``SVGWriter`` serialises the scene.
public enum RingRenderer {
    /// Bumped whenever the same spec would render different bytes; part of the server's ETag.
    /// 2: element ids from the 128-bit digest instead of a 64-bit FNV-1a hash; the bar's
    /// visible extent, caps included, follows the value; the smallest mark is a disc; the
    /// label never reads 100 % on an open ring or 0 % beside a mark; CJK and emoji fonts.
    /// 3: a gradient bar's pieces are cut to the bar's exact shape by a mask, so its edges are
    /// anti-aliased once (as the PNG engine draws them).
    /// 4: the PNG engine keeps 31 steps of edge coverage and writes rings of at most 256
    /// colours with a palette (SVG bytes are unchanged; the version names both formats).
    /// 5: the fidelity fixes (docs/parameters.md): a caption's dark rule of its own, arcs of
    /// at most 90° with the digits their centre needs, no emoji families in the font stack,
    /// whole numbers, a palette for concentric rings, round gradient caps that blend, and
    /// error images laid out for their box.
    public static let version = 5

    /// When ``version`` began, in seconds since 1970 (2026-12-02T01:00:00Z): every ring's
    /// `Last-Modified`, since a ring's bytes change only with the renderer. Moves forward with
    /// every version bump.
    public static let versionDate = 1_796_173_200

    /// The SVG document for `spec`. Pass `digest` when the caller has it already (the server
    /// needs it for its cache first), so the canonical key is not built and hashed twice.
    /// `spec` is `consuming`, so a spec passed straight in is not copied.
    public static func render(_ spec: consuming RingSpec, digest: RingDigest? = nil) -> [UInt8] {
        let digest = digest ?? spec.digest
        let writer = SVGWriter(scene: RingScene(spec: spec), digest: digest)
        // Written into stack scratch, then copied once into the array: one allocation per ring.
        // A ring that outgrows the scratch (long gradients) moves to the heap.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
            var bytes = ByteWriter(scratch: scratch)
            writer.write(into: &bytes)
            return bytes.bytes
        }
    }
}
