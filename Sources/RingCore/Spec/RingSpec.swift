/// A validated description of one image of 1 to 4 concentric rings: every parameter of the
/// public URL contract.
///
/// What may differ from ring to ring (`p`, `min`, `max`, `color`, `track`) is held as the URL
/// gives it: one value for every ring, or one per ring, outermost first; `ring(_:)` reads
/// one ring's. Optional fields mean "use the default", which may depend on other fields (`width` is
/// `size/10`; `trackWidth` follows `width`) or on the colour scheme. A `RingSpec` obtained from
/// ``init(query:)`` always satisfies the contract's ranges; one built in code should be
/// checked with ``validate()`` before rendering.
public struct RingSpec: Sendable, Hashable {
    /// `dir`: which way the bar grows from `start`.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        case cw, ccw
    }

    /// `cap`: the shape of the bar's ends.
    public enum Cap: String, Sendable, Hashable, CaseIterable {
        case round, butt
    }

    /// `theme`: the colour scheme; `auto` follows the viewer's `prefers-color-scheme`.
    public enum Theme: String, Sendable, Hashable, CaseIterable {
        case light, dark, auto
    }

    /// `overflow`: what a value past `max` draws.
    public enum Overflow: String, Sendable, Hashable, CaseIterable {
        /// A full ring, as at `max`.
        case clamp
        /// Further laps over the first, as Apple's activity rings draw them.
        case lap
    }

    /// A colour parameter that also accepts `none`.
    public enum Paint: Sendable, Hashable {
        /// The scheme's default colour (only meaningful for `track`).
        case standard
        case none
        case color(RingColor)
    }

    /// The centre text.
    public enum Label: Sendable, Hashable {
        /// The formatted percentage, e.g. `72%`.
        case auto
        case none
        /// Free text in which `{p}` stands for the formatted percentage.
        case text(String)
    }

    /// `p`: each ring's value, outermost first; as many as there are rings (1 to 4).
    public var values: [Double]
    /// `min`, `max`: the range of the values; one for every ring, or one per ring.
    public var minimum: [Double] = Self.defaultMinimum
    /// `max`: the value at a full ring; one for every ring, or one per ring.
    public var maximum: [Double] = Self.defaultMaximum
    /// `stack`: the values are parts of one ring, drawn end to end from `start`, instead of
    /// concentric rings; `max` is the whole ring (``sumOfParts`` for `max=sum`).
    public var stack: Bool = false
    /// `parts`: each stacked part's name, for the title; empty for none.
    public var partNames: [String] = []
    /// `target`: a marker across each ring's track at a value, in the units of `p`; one for
    /// every ring or one per ring, nil (`none`) for a ring without one.
    public var targets: [Double?] = Self.defaultTargets
    /// `src`: a live ring's JSON document; nil for a ring whose values are in the URL. A spec
    /// with a source is not drawn as it is: the service reads `fields` from the document and
    /// draws ``resolving(values:maximums:)``'s ring. Until then `values` holds one 0 a ring.
    public var source: SourceURL?
    /// `field`: the path of each ring's value in the document, one per ring.
    public var fields: [FieldPath] = []
    /// `maxField`: the path of `max` in the document, one for every ring or one per ring;
    /// empty when `max` is the URL's.
    public var maxFields: [FieldPath] = []
    /// Time progress: the value is the share of `from`…`to` (seconds since 1970, UTC) elapsed
    /// when the ring is asked for (``resolving(at:)``).
    public var from: Double?
    public var to: Double?
    /// `slice`: fraction of the circle left open, centred opposite `start`.
    public var slice: Double = 0
    /// `half`: a semicircle gauge from 9 over 12 to 3 o'clock.
    public var half: Bool = false
    /// `start`: degrees clockwise from 12 o'clock.
    public var start: Double = 0
    /// `dir`: clockwise unless given.
    public var direction: Direction = .cw
    /// `overflow`: a value past `max` clamps to a full ring unless given.
    public var overflow: Overflow = .clamp
    /// `segments`: the usable arc split into this many equal parts with gaps; nil means one.
    public var segments: Int?
    /// `segmentGap`: the gap between segments in px along the centre line; nil means size/40.
    public var segmentGap: Double?
    /// `ticks`: marks dividing the usable arc into this many equal parts; nil draws none.
    public var ticks: Int?
    /// `size`: image width (and height, unless `half`) in px.
    public var size: Int = RingSpec.standardSize
    /// `scale`: the PNG's pixels per SVG pixel (1–4). How a ring is rasterised, not which ring
    /// it is: it stays out of the canonical key and the digest, so the SVG of `scale=2` is the
    /// SVG of the same ring without it, and the PNG's cache entry and ETag add it themselves.
    public var scale: Int = 1
    /// `width`: bar thickness in px; nil means `size / 10`.
    public var width: Double?
    /// `trackWidth`: track thickness in px; nil means the bar's.
    public var trackWidth: Double?
    /// `gap`: px between neighbouring rings' strokes; nil means size/60.
    public var gap: Double?
    /// `color`: the bar colours; empty means the default blue, else one for every ring or one
    /// per ring.
    public var colors: [RingColor] = []
    /// `gradient`: 2…8 colours along the arc; overrides `color` when not empty.
    public var gradient: [RingColor] = []
    /// `track`: one for every ring, or one per ring.
    public var tracks: [Paint] = Self.defaultTracks
    /// `targetColor`: nil means the scheme's text colour.
    public var targetColor: RingColor?
    /// `tickColor`: nil means the scheme's muted tick colour.
    public var tickColor: RingColor?
    /// `fill`: the disc inside the ring; nil draws none.
    public var fill: RingColor?
    /// `bg`: the whole image's background; nil leaves it transparent.
    public var background: RingColor?
    /// `outline`: thin rings along the track's edges; nil draws none.
    public var outline: RingColor?
    /// `cap`: round unless given.
    public var cap: Cap = .round
    /// `label`: the centre text; the percentage unless given.
    public var label: Label = .auto
    /// `labelColor`: nil means the scheme's default.
    public var labelColor: LabelColor?
    /// `caption`: a second, smaller line under the label; `{p}` is the percentage.
    public var caption: String?
    /// How the label and the title write percentages; nil: `72%`, `72.5%`.
    public var locale: PercentFormat?
    /// `captionColor`: nil means the scheme's muted default.
    public var captionColor: RingColor?
    /// `thresholds`: the bar's colour by value; nil means `color` (or `gradient`) decides.
    public var thresholds: Thresholds?

    /// What `labelColor` asks for: a colour, or the bar's own (`bar`), whatever decides it.
    public enum LabelColor: Sendable, Hashable {
        case color(RingColor)
        case bar
    }
    /// `decimals`: digits after the point in the percentage.
    public var decimals: Int = 0
    /// `theme`: both schemes, switched by the viewer, unless given.
    public var theme: Theme = .auto
    /// `anim`: seconds of the fill-in animation; 0 is static.
    public var animation: Double = 0
    /// `shadow`: a soft drop shadow under the bar.
    public var shadow: Bool = false
    /// `title`: accessible name; nil means the percentage.
    public var title: String?

    /// A default ring showing `value`.
    public init(value: Double) {
        self.values = [value]
    }

    /// Default concentric rings showing `values`, outermost first.
    public init(values: [Double]) {
        self.values = values
    }

    /// The defaults of the per-ring lists, built once: a spec copies them by reference instead
    /// of allocating three arrays on every parse.
    private static let defaultMinimum: [Double] = [standardMinimum]
    private static let defaultMaximum: [Double] = [standardMaximum]
    private static let defaultTracks: [Paint] = [.standard]
    private static let defaultTargets: [Double?] = [nil]

    /// How many concentric rings the image has: a stack is one.
    public var ringCount: Int { stack ? 1 : values.count }

    /// `max=sum`: the whole ring is the sum of the stack's parts. Infinite, so no number a
    /// query can spell means it.
    public static let sumOfParts = Double.infinity

    /// What differs from ring to ring, resolved for one ring.
    package struct Ring: Sendable, Hashable {
        package var value: Double
        package var minimum: Double
        package var maximum: Double
        /// Nil means the default blue (or `gradient` or `thresholds` decide).
        package var color: RingColor?
        package var track: Paint
        /// `target`, in the units of `p`; nil for none.
        package var target: Double?

        /// The values `p` and `target` may take on this ring, and the range as errors state it:
        /// of magnitude at most 1e12, with a percentage of `minimum`…`maximum` within ±1e9,
        /// which the label and the title can show.
        package var scale: Scale {
            let share = (maximum - minimum) * RingLimits.percentage / 100
            let low = max(-RingLimits.magnitude, minimum - share)
            let high = min(RingLimits.magnitude, minimum + share)
            return Scale(range: low...high, minimum: minimum, maximum: maximum)
        }

        /// A ring's scale: the range, and its text for errors, written only when one is
        /// thrown (every value of every ring is checked against the range on the miss path).
        package struct Scale {
            package var range: ClosedRange<Double>
            var minimum: Double
            var maximum: Double

            package var text: String {
                guard range.lowerBound > -RingLimits.magnitude || range.upperBound < RingLimits.magnitude else {
                    return RingLimits.magnitudeText
                }
                return "\(RingLimits.plain(range.lowerBound))…\(RingLimits.plain(range.upperBound)) (a percentage "
                    + "within ±1e9 of min \(RingLimits.plain(minimum)) to max \(RingLimits.plain(maximum)))"
            }
        }

        /// How much of the arc the bar fills: (p − min)/(max − min), clamped to 0…1.
        package var fraction: Double {
            ((value - minimum) / (maximum - minimum)).clamped(to: 0...1)
        }

        /// The unclamped percentage the label shows: `p=150` is `150%`.
        package var percentage: Double {
            (value - minimum) / (maximum - minimum) * 100
        }

        /// How many times the value goes round the ring, unclamped: 2.3 at `p=230`; 0 below
        /// `min`.
        package var laps: Double {
            max((value - minimum) / (maximum - minimum), 0)
        }

        /// Where the target sits on the arc, 0…1: a target outside `min`…`max` at the nearer end.
        package var targetFraction: Double? {
            targetLaps.map { $0.clamped(to: 0...1) }
        }

        /// The target as a number of laps, unclamped: 1.5 for `target=150` of 100.
        package var targetLaps: Double? {
            target.map { ($0 - minimum) / (maximum - minimum) }
        }
    }

    /// Ring `index` (0 is the outermost): its value, with the list items that apply to it.
    @inline(__always)
    package func ring(_ index: Int) -> Ring {
        guard !stack else { return stackRing }
        return Ring(
            value: values[index], minimum: Self.item(minimum, index, or: Self.standardMinimum),
            maximum: Self.item(maximum, index, or: Self.standardMaximum),
            color: colors.isEmpty ? nil : Self.item(colors, index, or: SchemeDefault.bar.light),
            track: Self.item(tracks, index, or: .standard), target: Self.item(targets, index, or: nil))
    }

    /// A stack's one ring: its value is the parts' sum, its `max` the whole (with `max=sum`,
    /// the sum; a stack of nothing but zeros draws an empty ring of the default `max`), its
    /// colour the first part's.
    private var stackRing: Ring {
        var total = 0.0
        for value in values { total += value }
        var maximum = Self.item(self.maximum, 0, or: Self.standardMaximum)
        if maximum == Self.sumOfParts { maximum = total > 0 ? total : Self.standardMaximum }
        return Ring(
            value: total, minimum: Self.item(minimum, 0, or: Self.standardMinimum), maximum: maximum,
            color: colors.first, track: Self.item(tracks, 0, or: .standard), target: Self.item(targets, 0, or: nil))
    }

    /// Stacked part `index`: its value on the stack's scale, and its colour; nil colour for the
    /// palette's.
    package func part(_ index: Int) -> Ring {
        var part = stackRing
        part.value = values[index]
        part.color = colors.isEmpty ? nil : Self.item(colors, index, or: SchemeDefault.bar.light)
        return part
    }

    /// What the label's `{pN}` and the title show as item `index`: ring `index`, or a stack's
    /// part `index`.
    package func shown(_ index: Int) -> Ring { stack ? part(index) : ring(index) }

    /// A per-ring list's item for ring `index`: the one item when it applies to every ring.
    /// A list that validation would refuse (empty, or too short) gives `fallback`.
    @inline(__always)
    private static func item<Item>(_ list: [Item], _ index: Int, or fallback: Item) -> Item {
        list.count == 1 ? list[0] : index < list.count ? list[index] : fallback
    }

    /// The bar thickness in px, its default from the table.
    package var resolvedWidth: Double { width ?? DerivedLength.width.value(in: self) }
    /// The track thickness in px.
    package var resolvedTrackWidth: Double { trackWidth ?? DerivedLength.trackWidth.value(in: self) }
    /// `segmentGap` with its default.
    package var resolvedSegmentGap: Double { segmentGap ?? DerivedLength.segmentGap.value(in: self) }
    /// `gap` with its default.
    package var resolvedGap: Double { gap ?? DerivedLength.gap.value(in: self) }
}
