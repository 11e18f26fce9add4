/// The scheme colours used where the URL gives none.
enum DefaultColors {
    static let bar = RingColor(rgb: 0x2F81F7)
    /// Each concentric ring's bar when no `color` is given, outermost first: distinct hues, each
    /// at least 3:1 against white and, in its dark-scheme form, against GitHub's `#0d1117`.
    /// The first is ``bar`` in both schemes, so a single ring is what it always was.
    static let barPalette: [(light: RingColor, dark: RingColor)] = [
        (bar, bar),
        (RingColor(rgb: 0x1A7F37), RingColor(rgb: 0x3FB950)),  // green
        (RingColor(rgb: 0xBC4C00), RingColor(rgb: 0xDB6D28)),  // orange
        (RingColor(rgb: 0x8250DF), RingColor(rgb: 0xA371F7)),  // purple
    ]
    static let lightTrack = RingColor(rgb: 0xE1E4E8)
    static let darkTrack = RingColor(rgb: 0x30363D)
    static let lightLabel = RingColor(rgb: 0x24292F)
    static let darkLabel = RingColor(rgb: 0xE6EDF3)
    /// Muted: a caption reads below its label, not beside it.
    static let lightCaption = RingColor(rgb: 0x57606A)
    static let darkCaption = RingColor(rgb: 0x8B949E)
    /// Muted too, yet visible on the scheme's track and on the default bar alike: at least
    /// 2:1 against both (#424a53: 7.05 on the light track, 2.40 on #2f81f7; #c9d1d9: 7.91 on
    /// the dark track, 2.43 on the bar), and less than the label's contrast on the track.
    static let lightTick = RingColor(rgb: 0x424A53)
    static let darkTick = RingColor(rgb: 0xC9D1D9)
}
