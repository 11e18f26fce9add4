/// The `<style>` (dark-scheme rules, the fill-in animation) and `<defs>` (the shadow's blur,
/// the animation's mask) of a ring.
extension SVGWriter {
    func writeStyle(into w: inout ByteWriter) {
        let animation = scene.animation
        let ticksDark = scene.ticks?.color.dark
        let targetsDark = scene.targets?.color.dark
        let ticksHaloDark = scene.ticks?.halo?.dark
        let targetsHaloDark = scene.targets?.halo?.dark
        let switches =
            trackDark != nil || labelDark != nil || captionDark != nil || ticksDark != nil
            || targetsDark != nil || ticksHaloDark != nil || targetsHaloDark != nil
        guard switches || animation != nil else { return }
        w.append("<style>")
        if switches {
            w.append("@media (prefers-color-scheme:dark){")
            if let trackDark {
                className("t", into: &w, selector: true)
                w.write("{stroke:", (trackDark, "}"))
            }
            if let ticksDark {
                className("k", into: &w, selector: true)
                w.write("{stroke:", (ticksDark, "}"))
            }
            if let targetsDark {
                className("x", into: &w, selector: true)
                w.write("{stroke:", (targetsDark, "}"))
            }
            if let ticksHaloDark {
                className("kh", into: &w, selector: true)
                w.write("{stroke:", (ticksHaloDark, "}"))
            }
            if let targetsHaloDark {
                className("xh", into: &w, selector: true)
                w.write("{stroke:", (targetsHaloDark, "}"))
            }
            if let labelDark {
                className("l", into: &w, selector: true)
                w.write("{fill:", (labelDark, "}"))
            }
            if let captionDark {
                className("c", into: &w, selector: true)
                w.write("{fill:", (captionDark, "}"))
            }
            w.append("}")
        }
        if let animation {
            // The static attributes already show the final ring; only browsers that run CSS
            // animations and allow motion see it fill in. Each bar has its own keyframes, so
            // every ring fills in over the same time whatever its length.
            w.append("@media (prefers-reduced-motion:no-preference){")
            for index in scene.rings.indices where scene.rings[index].bar != nil {
                className("a", ring: index, into: &w, selector: true)
                w.append("{animation:")
                appendID(into: &w)
                w.append("-f")
                ringNumber(index, into: &w)
                w.write(" ", (Decimals(animation, 3), "s ease-out both}"))
            }
            w.append(byte: UInt8(ascii: "}"))
            for index in scene.rings.indices {
                guard let bar = maskStroke(ofRing: index) else { continue }
                w.append("@keyframes ")
                appendID(into: &w)
                w.append("-f")
                ringNumber(index, into: &w)
                w.write("{from{stroke-dashoffset:", (maskDashLength(bar), "}}"))
            }
        }
        w.append("</style>")
    }

    /// What ring `index`'s animation mask uncovers, along the bar from its start: the bar, or
    /// for a ring that laps the whole circle, which the final picture fills.
    func maskStroke(ofRing index: Int) -> RingScene.Stroke? {
        guard var bar = scene.rings[index].bar?.stroke else { return nil }
        if let lap = scene.rings[index].lap {
            bar.arc = RingScene.Arc(start: bar.arc.start, sweep: lap.shadow.stroke.arc.sweep < 0 ? -360 : 360)
        }
        return bar
    }

    /// Longer than the bar's path, so a single dash covers all of it.
    func maskDashLength(_ bar: RingScene.Stroke) -> Double {
        (bar.arc.sweep.magnitude * .pi / 180 * bar.radius + bar.width + 2).rounded(.up)
    }

    func writeDefinitions(into w: inout ByteWriter) {
        guard hasBars, scene.shadow != nil || scene.animation != nil else { return }
        w.append("<defs>")
        if let shadow = scene.shadow {
            // Only a blur: the shadow is its own element under the bar, offset by a transform
            // and dimmed by its opacity, so a renderer without filters (CairoSVG) draws it
            // sharp but in its place, and never moves the bar.
            w.append("<filter id=\"")
            appendID(into: &w)
            w.append("-s\" filterUnits=\"userSpaceOnUse\"")
            region(y: -shadow.offset, into: &w)
            w.write(
                " color-interpolation-filters=\"sRGB\"><feGaussianBlur stdDeviation=\"", (shadow.blur, "\"/></filter>"))
        }
        if scene.animation != nil {
            w.append("<mask id=\"")
            appendID(into: &w)
            w.append("-m\" maskUnits=\"userSpaceOnUse\"")
            region(into: &w)
            w.append(byte: UInt8(ascii: ">"))
            for index in scene.rings.indices {
                guard let bar = maskStroke(ofRing: index) else { continue }
                w.append("<path class=\"")
                className("a", ring: index, into: &w, selector: false)
                w.append("\" d=\"")
                arcPath(bar.arc, radius: bar.radius, closed: false, into: &w)
                w.append("\" fill=\"none\" stroke=\"#fff\" stroke-width=\"")
                // Wide enough to uncover the shadow's blur and offset too; neighbouring rings'
                // masks may overlap, since each uncovers only what is there to see.
                let shadowExtent = scene.shadow.map { 2 * (3 * $0.blur + $0.offset) } ?? 0
                w.append(number: bar.width + 2 + shadowExtent)
                w.append(bar.cap == .round ? "\" stroke-linecap=\"round" : "\" stroke-linecap=\"square")
                w.write("\" stroke-dasharray=\"", (maskDashLength(bar), " "), (maskDashLength(bar), "\"/>"))
            }
            w.append("</mask>")
        }
        w.append("</defs>")
    }
}
