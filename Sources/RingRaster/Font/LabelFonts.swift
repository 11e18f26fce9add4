import Dispatch
import Primitives
import RingFontData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fonts a PNG's text is drawn with: DejaVu Sans Bold, embedded in the binary, then the
/// fallback fonts loaded at run time, tried in order, for what DejaVu lacks (Chinese,
/// Japanese, Korean).
///
/// Text is laid out one character (extended grapheme cluster) at a time:
/// - its scalars are composed to NFC, so a decomposed accent uses the precomposed letter;
/// - zero-width characters (joiners, variation selectors, the byte-order mark, soft hyphen)
///   draw nothing;
/// - the first font that has the character's base draws it, and its marks where it has them,
///   each with the font's own advance (zero for DejaVu's combining marks);
/// - a character no font has draws one `.notdef` box, and is reported by
///   ``missingCharacters(in:)``;
/// - neighbouring glyphs of one font are kerned by its `kern` pairs.
///
/// No hinting, no shaping: right-to-left and complex scripts (Arabic, Hebrew, Devanagari,
/// Thai) are drawn letter by letter in logical order, which is not how they are read.
public final class LabelFonts: Sendable, Equatable {
    /// Every font, the embedded one first; while the fallback fonts are still being read
    /// (``loadingStandard(limits:)``), the wait for them.
    public var fonts: [TrueTypeFont] { ready.fonts }

    /// Which fallback fonts are loaded, for a PNG's entity tag (nil with none): a server given
    /// other fonts draws other pixels for the same ring, so its tags differ.
    package var tag: UInt64? { ready.tag }

    /// The fonts, or the reading that will give them. DejaVu alone is read when first drawn:
    /// parsing it costs a server's start-up about a millisecond, and an SVG never needs it.
    private enum Source: Sendable {
        case embeddedAlone
        case loaded(Loaded)
        case loading(Reading)
    }

    private struct Loaded: Sendable {
        let fonts: [TrueTypeFont]
        let tag: UInt64?

        static let embeddedAlone = Loaded(fallbacks: [])

        init(fallbacks: [TrueTypeFont]) {
            fonts = [TrueTypeFont.embedded] + fallbacks
            tag =
                fallbacks.isEmpty
                ? nil : fallbacks.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ $1.fingerprint) &* 0x100_0000_01b3 }
        }
    }

    /// Fallback fonts read by the first caller to claim the reading (``wait()`` claims it when
    /// none has); ``wait()`` returns them once read.
    private final class Reading: Sendable {
        private let limits: FontLimits
        private let claimed = Locked(false)
        private let result = Locked<(Loaded, [String])?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(limits: FontLimits) { self.limits = limits }

        /// The reading, for the first caller to run on a thread of its choice; nil for the others.
        func claim() -> (@Sendable () -> Void)? {
            let first = claimed.withLock { claimed in
                defer { claimed = true }
                return !claimed
            }
            guard first else { return nil }
            return { [self] in
                let (fallbacks, warnings) = LabelFonts.readStandard(limits: limits)
                result.withLock { $0 = (Loaded(fallbacks: fallbacks), warnings) }
                done.signal()
            }
        }

        func wait() -> (Loaded, [String]) {
            if let read = result.withLock({ $0 }) { return read }
            claim()?()
            done.wait()
            done.signal()  // for the next waiter
            return result.withLock { $0 }!
        }
    }

    private let source: Source

    private var ready: Loaded {
        switch source {
        case .embeddedAlone: .embeddedAlone
        case .loaded(let loaded): loaded
        case .loading(let reading): reading.wait().0
        }
    }

    /// DejaVu Sans Bold alone.
    public static let embedded = LabelFonts(source: .embeddedAlone)

    /// DejaVu Sans Bold, then `fallbacks` in order.
    public init(fallbacks: [TrueTypeFont]) {
        source = .loaded(Loaded(fallbacks: fallbacks))
    }

    private init(source: Source) { self.source = source }

    /// The same fonts in an object of its own. Every ``RingImage`` holds its fonts, so each
    /// thread that makes images keeps its own copy: one object shared by several threads has its
    /// reference count written from all their cores, a cache line they pass back and forth.
    public init(copying other: LabelFonts) {
        source = other.source
    }

    /// The standard fallback fonts (``standardLocations``), read where ``claimReading()`` says,
    /// or by the first use that needs them. A server reads them on a thread of its own below
    /// the event loops once its listeners are open, and answers SVG, which needs no font file,
    /// meanwhile (reading Droid Sans Fallback and NanumGothic takes about 9 ms of a core). A
    /// PNG waits for them, and ``warnings`` too.
    public static func loadingStandard(limits: FontLimits = FontLimits()) -> LabelFonts {
        LabelFonts(source: .loading(Reading(limits: limits)))
    }

    /// The reading of ``loadingStandard(limits:)``'s fonts, to run on a thread of the caller's
    /// choice; from then on, whatever needs the fonts waits for it. Nil for fonts already
    /// given, or whose reading another caller has.
    public func claimReading() -> (@Sendable () -> Void)? {
        if case .loading(let reading) = source { reading.claim() } else { nil }
    }

    /// Whether there are fallback fonts, or while they are read, whether a file of them exists:
    /// what the memory formula counts, known without waiting.
    public var hasFallbacks: Bool {
        switch source {
        case .embeddedAlone: false
        case .loaded(let loaded): loaded.fonts.count > 1
        case .loading: Self.standardLocations.joined().contains { access($0, F_OK) == 0 }
        }
    }

    /// What reading the standard fonts found wrong, once read (none for fonts given at once).
    public var warnings: [String] {
        if case .loading(let reading) = source { reading.wait().1 } else { [] }
    }

    /// The same fonts in the same order.
    public static func == (lhs: LabelFonts, rhs: LabelFonts) -> Bool {
        lhs.fonts.map(ObjectIdentifier.init) == rhs.fonts.map(ObjectIdentifier.init)
    }

    /// Where the fallback fonts are looked for when none is named, by what they cover; the
    /// first file of each group that exists and reads is used:
    /// - Chinese and Japanese: Debian's `fonts-droid-fallback`, else `fonts-wqy-zenhei`;
    /// - Korean: Debian's `fonts-nanum` (Droid Sans Fallback has 3 of the 11 172 syllables);
    /// - everything, on macOS: Arial Unicode.
    public static let standardLocations = [
        [
            "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
            "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
        ],
        ["/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf"],
        ["/System/Library/Fonts/Supplemental/Arial Unicode.ttf"],
    ]

    /// The fonts named by `paths`, in order, each of which must load; or, with no paths, one
    /// of each group of ``standardLocations``, with a warning for a file that exists and is
    /// refused.
    public static func load(paths: [String], limits: FontLimits = FontLimits()) throws(FontError) -> (
        fonts: LabelFonts, warnings: [String]
    ) {
        guard paths.isEmpty else {
            var fallbacks: [TrueTypeFont] = []
            for path in paths {
                do {
                    fallbacks.append(try TrueTypeFont(contentsOf: path, limits: limits))
                } catch {
                    throw FontError(message: "font \(path) \(error.message)")
                }
            }
            return (LabelFonts(fallbacks: fallbacks), [])
        }
        let (fallbacks, warnings) = readStandard(limits: limits)
        return (LabelFonts(fallbacks: fallbacks), warnings)
    }

    /// One font of each group of ``standardLocations`` that exists and reads, with a warning
    /// for a file that exists and is refused.
    private static func readStandard(limits: FontLimits) -> (fallbacks: [TrueTypeFont], warnings: [String]) {
        var fallbacks: [TrueTypeFont] = []
        var warnings: [String] = []
        for group in standardLocations {
            for path in group where access(path, F_OK) == 0 {
                do {
                    fallbacks.append(try TrueTypeFont(contentsOf: path, limits: limits))
                    break
                } catch {
                    warnings.append("font \(path) \(error.message); not used")
                }
            }
        }
        return (fallbacks, warnings)
    }

    /// The fonts in use, for the start-up line: "DejaVu Sans Bold (embedded), Droid Sans
    /// Fallback (/usr/share/…)".
    public var summary: String {
        zip(fonts, [nil] + fonts.dropFirst().map(\.path)).map { font, path in
            "\(font.name) (\(path ?? "embedded"))"
        }.joined(separator: ", ")
    }

    /// One line of text, laid out at a font size.
    struct Line {
        /// A glyph of one of ``fonts``, its left edge `x` pixels from the line's start.
        struct Placed {
            var font: Int
            var id: UInt16
            var x: Double
        }

        var glyphs: [Placed] = []
        /// The advance of the whole line, in pixels.
        var width = 0.0
        /// The characters drawn as `.notdef`.
        var missing: [Character] = []
    }

    func layout(_ text: String, fontSize: Double) -> Line {
        let fonts = self.fonts  // read once: while fonts load, each read waits on a lock
        var line = Line()
        var previous: Line.Placed?
        func place(_ font: Int, _ id: UInt16) {
            let face = fonts[font]
            let scale = fontSize / face.unitsPerEm
            if let previous, previous.font == font { line.width += Double(face.kerning(previous.id, id)) * scale }
            let placed = Line.Placed(font: font, id: id, x: line.width)
            line.glyphs.append(placed)
            line.width += Double(face.advance(of: id)) * scale
            previous = placed
        }
        for character in text {
            let scalars = Normalization.composed(character.unicodeScalars).filter { !Self.drawsNothing($0) }
            guard let base = scalars.first else { continue }
            guard let (font, id) = Self.glyph(for: base, in: fonts, preferring: nil) else {
                line.missing.append(character)
                place(0, 0)
                continue
            }
            place(font, id)
            var reported = false
            for mark in scalars.dropFirst() {
                if let (markFont, markID) = Self.glyph(for: mark, in: fonts, preferring: font) {
                    place(markFont, markID)
                } else if !reported {
                    line.missing.append(character)
                    reported = true
                    place(0, 0)
                }
            }
        }
        return line
    }

    /// The first font's glyph for `scalar`, trying `preferred` first.
    private static func glyph(for scalar: Unicode.Scalar, in fonts: [TrueTypeFont], preferring preferred: Int?)
        -> (Int, UInt16)?
    {
        if let preferred, let id = fonts[preferred].glyphID(for: scalar) { return (preferred, id) }
        for (index, font) in fonts.enumerated() {
            if let id = font.glyphID(for: scalar) { return (index, id) }
        }
        return nil
    }

    /// Characters that take no space and draw nothing: the zero-width space, joiners and word
    /// joiner, invisible operators, variation selectors, the byte-order mark, the soft
    /// hyphen, the combining grapheme joiner, Mongolian free variation selectors and tags.
    static func drawsNothing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x034F, 0x180B...0x180F, 0x200B...0x200D, 0x2060...0x2064, 0xFE00...0xFE0F, 0xFEFF: true
        case 0xE0001, 0xE0020...0xE007F, 0xE0100...0xE01EF: true
        default: false
        }
    }

    /// The characters of `text` that no font has, each drawn as one `.notdef` box.
    public func missingCharacters(in text: String) -> [Character] {
        // DejaVu has every printable ASCII character, and text has no control characters.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return [] }
        return layout(text, fontSize: 1).missing
    }

    /// The width of `text` at `fontSize` pixels.
    func advance(of text: String, fontSize: Double) -> Double {
        layout(text, fontSize: fontSize).width
    }

    /// The outlines of `text` at `fontSize` pixels, centred on `centreX` (SVG's
    /// `text-anchor="middle"`) with its baseline at `baseline`, flattened to polygons.
    func outline(of text: String, fontSize: Double, centreX: Double, baseline: Double) -> Polygon {
        let line = layout(text, fontSize: fontSize)
        let left = centreX - line.width / 2
        let fonts = self.fonts
        var polygon = Polygon()
        for placed in line.glyphs {
            let font = fonts[placed.font]
            let scale = fontSize / font.unitsPerEm
            let penX = left + placed.x
            for contour in font.glyph(placed.id).contours {
                let points = contour.map { Point(x: penX + $0.x * scale, y: baseline - $0.y * scale) }
                polygon.contours.append(Self.flatten(points, onCurve: contour.map(\.onCurve)))
            }
        }
        return polygon
    }

    /// A closed TrueType contour as straight edges. Between two off-curve points lies an
    /// implied on-curve point at their middle; each off-curve point is the control point of a
    /// quadratic Bézier, split into enough lines to stay within ``Polygon/tolerance``.
    static func flatten(_ points: [Point], onCurve: [Bool]) -> [Point] {
        let count = points.count
        guard count > 1 else { return points }
        func middle(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
        // Start on the curve: at an on-curve point, or between two off-curve ones.
        let first = onCurve.firstIndex(of: true)
        let start = first.map { points[$0] } ?? middle(points[0], points[1])
        let origin = first ?? 0
        var result = [start]
        var current = start
        var control: Point?
        for step in 1...count {
            let index = (origin + step) % count
            let point = points[index]
            if onCurve[index] {
                if let pending = control {
                    quadratic(from: current, pending, to: point, into: &result)
                    control = nil
                } else {
                    result.append(point)
                }
                current = point
            } else if let pending = control {
                let implied = middle(pending, point)
                quadratic(from: current, pending, to: implied, into: &result)
                current = implied
                control = point
            } else {
                control = point
            }
        }
        if let pending = control { quadratic(from: current, pending, to: start, into: &result) }
        return result
    }

    private static func quadratic(from start: Point, _ control: Point, to end: Point, into result: inout [Point]) {
        // A quadratic strays at most |p0 − 2p1 + p2| / 4 from its chord; n lines cut that by n².
        let dx = start.x - 2 * control.x + end.x
        let dy = start.y - 2 * control.y + end.y
        let deviation = (dx * dx + dy * dy).squareRoot() / 4
        let wanted = (deviation / Polygon.tolerance).squareRoot().rounded(.up)
        let count = wanted.isFinite ? Int(min(max(wanted, 1), Double(Polygon.maximumSegments))) : 1
        for index in 1...count {
            let t = Double(index) / Double(count)
            let u = 1 - t
            result.append(
                Point(
                    x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
                    y: u * u * start.y + 2 * u * t * control.y + t * t * end.y))
        }
    }
}

extension TrueTypeFont {
    /// DejaVu Sans Bold, from RingFontData. Our own bytes, checked by the tests: a font that
    /// does not read is a build error.
    static let embedded: TrueTypeFont = {
        let bytes = Array(UnsafeBufferPointer(start: ring_font_data(), count: Int(ring_font_data_size())))
        do {
            return try TrueTypeFont(bytes: bytes, fallbackName: "DejaVu Sans Bold")
        } catch {
            fatalError("the embedded font does not read: \(error)")
        }
    }()

    /// Reads the font file at `path`, refusing one larger than the limits allow before reading
    /// it, and keeps it open to read outlines from. A collection gives its first face.
    public convenience init(contentsOf path: String, limits: FontLimits = FontLimits()) throws(FontError) {
        let file = try FontFile(path: path)
        guard let size = file.regularFileSize() else { throw FontError(message: "is not a regular file") }
        guard size <= limits.maximumFileBytes else {
            throw FontError(message: "is \(size) bytes, more than the limit of \(limits.maximumFileBytes)")
        }
        let bytes = file.read(count: size, at: 0)
        guard bytes.count == size else { throw FontError(message: "could not be read in full") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        try self.init(bytes: bytes, fallbackName: name, limits: limits, file: file)
    }
}
