/// A validated description of one ring: every parameter of the public URL contract.
///
/// Optional fields mean "use the default", which may depend on other fields (`width` is
/// `size/10`; `trackWidth` follows `width`) or on the colour scheme. A `RingSpec` obtained from
/// ``init(query:)`` always satisfies the contract's ranges; one built in code should be
/// checked with ``validate()`` before rendering.
public struct RingSpec: Sendable, Hashable {
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        case cw, ccw
    }

    public enum Cap: String, Sendable, Hashable, CaseIterable {
        case round, butt
    }

    public enum Theme: String, Sendable, Hashable, CaseIterable {
        case light, dark, auto
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

    /// `p`: the value.
    public var value: Double
    /// `min`, `max`: the range of `value`.
    public var minimum: Double = 0
    public var maximum: Double = 100
    /// `slice`: fraction of the circle left open, centred opposite `start`.
    public var slice: Double = 0
    /// `half`: a semicircle gauge from 9 over 12 to 3 o'clock.
    public var half: Bool = false
    /// `start`: degrees clockwise from 12 o'clock.
    public var start: Double = 0
    public var direction: Direction = .cw
    /// `segments`: the usable arc split into this many equal parts with gaps; nil means one.
    public var segments: Int?
    /// `segmentGap`: the gap between segments in px along the centre line; nil means size/40.
    public var segmentGap: Double?
    /// `size`: image width (and height, unless `half`) in px.
    public var size: Int = 120
    /// `scale`: the PNG's pixels per SVG pixel (1–4). How a ring is rasterised, not which ring
    /// it is: it stays out of the canonical key and the digest, so the SVG of `scale=2` is the
    /// SVG of the same ring without it, and the PNG's cache entry and ETag add it themselves.
    public var scale: Int = 1
    /// `width`: bar thickness in px; nil means `size / 10`.
    public var width: Double?
    /// `trackWidth`: track thickness in px; nil means the bar's.
    public var trackWidth: Double?
    /// `color`: nil means the default blue.
    public var color: RingColor?
    /// `gradient`: 2…8 colours along the arc; overrides `color` when not empty.
    public var gradient: [RingColor] = []
    public var track: Paint = .standard
    public var fill: RingColor?
    public var background: RingColor?
    public var outline: RingColor?
    public var cap: Cap = .round
    public var label: Label = .auto
    /// `labelColor`: nil means the scheme's default.
    public var labelColor: LabelColor?
    /// `caption`: a second, smaller line under the label; `{p}` is the percentage.
    public var caption: String?
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
    public var theme: Theme = .auto
    /// `anim`: seconds of the fill-in animation; 0 is static.
    public var animation: Double = 0
    public var shadow: Bool = false
    /// `title`: accessible name; nil means the percentage.
    public var title: String?

    /// A default ring showing `value`.
    public init(value: Double) {
        self.value = value
    }

    /// The bar thickness in px.
    public var resolvedWidth: Double { width ?? Double(size) / 10 }
    /// The track thickness in px.
    public var resolvedTrackWidth: Double { trackWidth ?? resolvedWidth }
    /// `segmentGap` with its default: size/40, 3 px at the default size.
    public var resolvedSegmentGap: Double { segmentGap ?? Double(size) / 40 }

    /// How much of the arc the bar fills: (p − min)/(max − min), clamped to 0…1.
    public var fraction: Double {
        ((value - minimum) / (maximum - minimum)).clamped(to: 0...1)
    }

    /// The unclamped percentage the label shows: `p=150` is `150%`.
    public var percentage: Double {
        (value - minimum) / (maximum - minimum) * 100
    }
}
