import RingCore

extension ErrorImage {
    /// The error image as PNG: the SVG's box and message, drawn with the label font (DejaVu
    /// Sans Bold, the one face embedded), so the box is as wide as the bold text needs.
    public static func png(message: String) -> [UInt8] {
        let text = text(for: message)
        let fontSize = 12.0
        let font = GlyphSet.labelFont
        let width = min(max(Int((font.advance(of: text, fontSize: fontSize) + 20).rounded(.up)), 120), 1024)
        let height = 28
        var canvas = Canvas(width: width, height: height)
        var box = Polygon()
        box.addRoundedRect(x: 0, y: 0, width: Double(width), height: 28, radius: 4.5)
        canvas.fill(CoverageMask.filled(box, width: width, height: height), RingColor(rgb: 0xFFF1F0))
        var border = Polygon()
        border.addRoundedRect(x: 0, y: 0, width: Double(width), height: 28, radius: 4.5)
        border.addRoundedRect(x: 1, y: 1, width: Double(width) - 2, height: 26, radius: 3.5, clockwise: false)
        canvas.fill(CoverageMask.filled(border, width: width, height: height), RingColor(rgb: 0xCF222E))
        let glyphs = font.outline(
            of: text, fontSize: fontSize, centreX: 10 + font.advance(of: text, fontSize: fontSize) / 2, baseline: 18)
        canvas.fill(CoverageMask.filled(glyphs, width: width, height: height), RingColor(rgb: 0x82071E))
        return PNGEncoder.encode(canvas)
    }
}

extension CoverageMask {
    /// The resolved coverage of `polygon` over a whole `width` × `height` image.
    static func filled(_ polygon: Polygon, width: Int, height: Int) -> CoverageMask {
        var mask = CoverageMask(originX: 0, originY: 0, width: width, height: height)
        mask.add(polygon)
        mask.resolve()
        return mask
    }
}
