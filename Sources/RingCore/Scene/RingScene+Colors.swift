/// How the ring chooses its default colours: for the reader's scheme, and for the fill and
/// background under them, keeping the label legible and the caption muted.
extension RingScene {
    /// The default colour of text (the label, the caption): the scheme's own, switching under
    /// `theme=auto`, when nothing lies under it; else chosen for the `layers` under it (top
    /// first), preferring the scheme's colour where it reads at ``minimumLabelContrast``.
    static func textColor(light: RingColor, dark: RingColor, on layers: [RingColor], theme: RingSpec.Theme)
        -> SchemeColor
    {
        let preferred = theme == .dark ? dark : light
        guard !layers.isEmpty else { return SchemeColor(color: preferred, dark: theme == .auto ? dark : nil) }
        return choose(on: layers, theme: theme) { labelColor(on: $0, preferring: preferred) }
    }

    /// Ring `index`'s default bar colour from ``SchemeDefault/palette``: one colour for both
    /// schemes and any background.
    static func paletteColor(_ index: Int) -> RingColor {
        SchemeDefault.palette[index % SchemeDefault.palette.count]
    }

    /// The default caption colour: the scheme's own when nothing lies under it; else, for
    /// each surface, a muted colour that keeps the hierarchy, reading at least
    /// ``minimumCaptionContrast`` but less than the label the ring would choose there.
    static func captionColor(on layers: [RingColor], theme: RingSpec.Theme) -> SchemeColor {
        let preferredLabel = theme == .dark ? SchemeDefault.label.dark : SchemeDefault.label.light
        guard !layers.isEmpty else {
            return SchemeColor(
                color: theme == .dark ? SchemeDefault.caption.dark : SchemeDefault.caption.light,
                dark: theme == .auto ? SchemeDefault.caption.dark : nil)
        }
        return choose(on: layers, theme: theme) { surface in
            mutedColor(on: surface, below: labelColor(on: surface, preferring: preferredLabel))
        }
    }

    /// The least contrast a caption chosen by the ring keeps: WCAG's for large text, since it
    /// stays below its label, which keeps ``minimumLabelContrast``.
    package static let minimumCaptionContrast = 3.0

    /// A colour on `surface` with less contrast than `label` and at least
    /// ``minimumCaptionContrast``: a scheme's caption colour when one fits, else the label's
    /// colour moved towards the surface until its contrast is halfway between the two limits.
    static func mutedColor(on surface: RingColor, below label: RingColor) -> RingColor {
        let ceiling = label.contrast(with: surface)
        for candidate in [SchemeDefault.caption.light, SchemeDefault.caption.dark] {
            let contrast = candidate.contrast(with: surface)
            if contrast >= minimumCaptionContrast, contrast < ceiling { return candidate }
        }
        guard ceiling > minimumCaptionContrast else { return label }  // no room below the label
        let target = (minimumCaptionContrast + ceiling) / 2
        var (low, high) = (0.0, 1.0)  // how far towards the surface: contrast falls as it grows
        for _ in 0..<20 {
            let middle = (low + high) / 2
            if label.mixed(with: surface, by: middle).contrast(with: surface) >= target {
                low = middle
            } else {
                high = middle
            }
        }
        return label.mixed(with: surface, by: low)
    }

    /// WCAG's minimum contrast for text, which a label chosen by the ring keeps.
    package static let minimumLabelContrast = 4.5

    /// What the reader sees under the label or the track: `layers` (top first) composited
    /// over the page; nil when they leave the page showing, so the result depends on it.
    static func surface(_ layers: [RingColor], page: RingColor) -> RingColor {
        layers.reversed().reduce(page) { below, layer in layer.over(below) }
    }

    /// Whether layers cover the page completely.
    static func isOpaque(_ layers: [RingColor]) -> Bool {
        layers.contains { $0.alpha == 255 }
    }

    /// A colour that reads on `layers` (top first): for `light` over a white page, `dark` a black
    /// one; for `auto` the same colour in both schemes when the layers are opaque, else one
    /// for each. `pick` chooses for one seen colour.
    static func choose(
        on layers: [RingColor], theme: RingSpec.Theme, _ pick: (RingColor) -> RingColor
    ) -> SchemeColor {
        let white = RingColor(rgb: 0xFFFFFF)
        let black = RingColor(rgb: 0x000000)
        switch theme {
        case .light: return SchemeColor(color: pick(surface(layers, page: white)), dark: nil)
        case .dark: return SchemeColor(color: pick(surface(layers, page: black)), dark: nil)
        case .auto:
            let light = pick(surface(layers, page: white))
            guard !isOpaque(layers) else { return SchemeColor(color: light, dark: nil) }
            let dark = pick(surface(layers, page: black))
            return SchemeColor(color: light, dark: dark == light ? nil : dark)
        }
    }

    /// A label colour for a label seen on `surface`: the preferred scheme colour when it
    /// reads at ``minimumLabelContrast``, else the other scheme's, else black or white,
    /// whichever reads better (one of them always does).
    static func labelColor(on surface: RingColor, preferring preferred: RingColor) -> RingColor {
        let other = preferred == SchemeDefault.label.dark ? SchemeDefault.label.light : SchemeDefault.label.dark
        let candidates = [preferred, other, RingColor(rgb: 0x000000), RingColor(rgb: 0xFFFFFF)]
        return candidates.first { $0.contrast(with: surface) >= minimumLabelContrast }
            ?? candidates.max { $0.contrast(with: surface) < $1.contrast(with: surface) }!
    }

    /// The default track colour that suits `surface`: the dark scheme's on a dark surface.
    static func trackColor(on surface: RingColor) -> RingColor {
        SchemeDefault.label.dark.contrast(with: surface) > SchemeDefault.label.light.contrast(with: surface)
            ? SchemeDefault.track.dark : SchemeDefault.track.light
    }
}
