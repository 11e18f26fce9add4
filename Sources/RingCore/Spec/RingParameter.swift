/// The names of the URL query parameters: the public contract. Any other name is ignored.
public enum RingParameter: String, Sendable, CaseIterable {
    case p, min, max, slice, half, start, dir, size, width, trackWidth, color, gradient, track
    case fill, bg, outline, cap, label, labelColor, decimals, theme, anim, shadow, title

    /// The parameter with exactly this (case-sensitive) name.
    init?(name: String) {
        self.init(rawValue: name)
    }
}
