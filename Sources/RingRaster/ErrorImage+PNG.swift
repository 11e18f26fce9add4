import RingCore

extension ErrorImage {
    /// The largest side of an error PNG, in pixels: an error needs no more, whatever `size`
    /// and `scale` asked for, so a refusal for too many pixels is never itself too large.
    package static let largestPNGSide = 1024

    /// The error image as PNG: the ``ErrorScene`` the SVG shows, at the box's scale (lowered
    /// until the image fits ``largestPNGSide``), its text drawn with `fonts`.
    package static func png(message: String, box: ErrorScene.Box = ErrorScene.Box(), fonts: LabelFonts = .embedded)
        -> [UInt8]
    {
        let scene = ErrorScene(message: message, box: box)
        var scale = Double(box.scale)
        while scale > 1, scene.width * scale > Double(largestPNGSide) { scale -= 1 }
        let width = Int((scene.width * scale).rounded())
        let height = Int((scene.height * scale).rounded())
        var canvas = Canvas(width: width, height: height)
        let radius = ErrorScene.cornerRadius * scale + 0.5
        let border = ErrorScene.borderWidth * scale
        var box = Polygon()
        box.addRoundedRect(x: 0, y: 0, width: Double(width), height: Double(height), radius: radius)
        canvas.fill(CoverageMask.filled(box, width: width, height: height), ErrorScene.background)
        var frame = box
        frame.addRoundedRect(
            x: border, y: border, width: Double(width) - 2 * border, height: Double(height) - 2 * border,
            radius: radius - border, clockwise: false)
        canvas.fill(CoverageMask.filled(frame, width: width, height: height), ErrorScene.border)
        if scene.showsMark {
            let mark = ErrorMark(scene)
            var disc = Polygon()
            disc.addCircle(centre: Point(x: mark.centreX * scale, y: mark.centreY * scale), radius: mark.radius * scale)
            canvas.fill(CoverageMask.filled(disc, width: width, height: height), ErrorScene.border)
            var sign = Polygon()
            let half = mark.strokeWidth * scale / 2
            sign.addRoundedRect(
                x: mark.centreX * scale - half, y: mark.stemTop * scale - half, width: 2 * half,
                height: (mark.stemBottom - mark.stemTop) * scale + 2 * half, radius: half)
            sign.addCircle(centre: Point(x: mark.centreX * scale, y: mark.dotY * scale), radius: half)
            canvas.fill(CoverageMask.filled(sign, width: width, height: height), RingColor(rgb: 0xFFFFFF))
        }
        for line in scene.lines {
            let glyphs = fonts.outline(
                of: line.text, fontSize: scene.fontSize * scale, centreX: line.x * scale,
                baseline: line.baseline * scale)
            canvas.fill(CoverageMask.filled(glyphs, width: width, height: height), ErrorScene.ink)
        }
        return PNGEncoder.encode(canvas)
    }
}

extension CoverageMask {
    /// The coverage of `polygon` within a `width` × `height` image, over the polygon's own
    /// bounds and left unresolved (``Canvas/fill(_:_:opacity:)`` sums it run by run). A mask of
    /// the whole image for each line of text made a 1024 px error image cost 24 ms, on the event
    /// loop that answers it.
    static func filled(_ polygon: Polygon, width: Int, height: Int) -> CoverageMask {
        guard let bounds = polygon.bounds(margin: 1) else {
            return CoverageMask(originX: 0, originY: 0, width: 0, height: 0)
        }
        let minX = min(max(bounds.minX, 0), width)
        let minY = min(max(bounds.minY, 0), height)
        let maxX = max(min(bounds.maxX, width), minX)
        let maxY = max(min(bounds.maxY, height), minY)
        var mask = CoverageMask(originX: minX, originY: minY, width: maxX - minX, height: maxY - minY)
        mask.add(polygon)
        return mask
    }
}
