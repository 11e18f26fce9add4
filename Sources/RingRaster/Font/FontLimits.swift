/// The bounds on what a font file may make the PNG engine do. A font given with `--font` is
/// trusted no more than a URL: these keep a hostile or corrupt file from costing unbounded
/// memory or time, whatever its tables claim.
public struct FontLimits: Sendable, Equatable {
    /// The largest font file read, in bytes. Droid Sans Fallback is 4 MB, NanumGothic Bold
    /// 4.4 MB, WenQuanYi Zen Hei 17 MB.
    public var maximumFileBytes: Int
    /// Decoded glyphs kept per font. A label has at most 64 characters, so this holds the
    /// working set of many labels; when it fills, it is emptied and refilled as labels ask.
    public var cachedGlyphs: Int
    /// Points in one glyph, after its components are assembled. The largest glyphs of DejaVu
    /// Sans Bold, NanumGothic Bold and Droid Sans Fallback have 846, 596 and 240.
    public var maximumPoints: Int
    /// How deep composite glyphs may nest (a cycle in a hostile file ends here).
    public var maximumComponentDepth: Int
    /// Components visited to assemble one glyph, across every level.
    public var maximumComponents: Int

    public init(
        maximumFileBytes: Int = 64 << 20, cachedGlyphs: Int = 4096, maximumPoints: Int = 4096,
        maximumComponentDepth: Int = 8, maximumComponents: Int = 256
    ) {
        self.maximumFileBytes = maximumFileBytes
        self.cachedGlyphs = cachedGlyphs
        self.maximumPoints = maximumPoints
        self.maximumComponentDepth = maximumComponentDepth
        self.maximumComponents = maximumComponents
    }
}
