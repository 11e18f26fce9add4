/// The scheme colours used where the URL gives none.
enum DefaultColors {
    static let bar = RingColor(rgb: 0x2F81F7)
    static let lightTrack = RingColor(rgb: 0xE1E4E8)
    static let darkTrack = RingColor(rgb: 0x30363D)
    static let lightLabel = RingColor(rgb: 0x24292F)
    static let darkLabel = RingColor(rgb: 0xE6EDF3)
    /// Muted: a caption reads below its label, not beside it.
    static let lightCaption = RingColor(rgb: 0x57606A)
    static let darkCaption = RingColor(rgb: 0x8B949E)
}
