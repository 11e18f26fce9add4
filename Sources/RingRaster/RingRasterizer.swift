import RingCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws a ``RingScene`` as PNG: the same elements (label and caption last), in the same order and places, as the SVG
/// writer serialises, each filled through an exact-coverage mask and composited in
/// premultiplied sRGB.
///
/// What a raster image cannot do: it draws the light scheme of `theme=auto` (no
/// `prefers-color-scheme`) and the animation's final frame.
///
/// ```swift
/// let scene = RingScene(spec: try RingSpec(query: "p=72"))
/// let png = RingRasterizer.png(scene, scale: 2)  // 240 × 240 pixels
/// ```
package enum RingRasterizer {
    /// Bumped whenever the same scene would rasterise to different PNG bytes; part of a PNG's
    /// ETag, apart from the SVG's ``RingRenderer/version``. It began at 5, where the two
    /// versions parted, so no PNG tag of before means a different image now.
    package static let version = 8

    /// When ``version`` began, in seconds since 1970 (2026-12-06T15:00:00Z): every PNG's
    /// `Last-Modified`. Moves forward with every version bump.
    package static let versionDate = 1_796_569_200

    /// The image size in pixels: the SVG's `width` × `height`, times `scale`, at least 1 and at
    /// most ``largestSide`` (a scene is a package value: its numbers need not come from a spec).
    package static func pixelSize(of scene: RingScene, scale: Int) -> (width: Int, height: Int) {
        func pixels(_ length: Double) -> Int {
            let scaled = (length * Double(max(scale, 1))).rounded(.up)
            return scaled.isFinite ? Int(min(max(scaled, 1), Double(largestSide))) : 1
        }
        return (pixels(scene.width), pixels(scene.height))
    }

    /// The largest side ``pixelSize(of:scale:)`` reports, whatever the scene says; the service's
    /// ``RasterLimits`` refuse far smaller images.
    package static let largestSide = 1 << 16

    /// Most bytes one render holds at once, per pixel: the canvas (its indices, 1, and once it
    /// has turned RGBA its pixels, 4), the coverage mask (4), the scanlines (4), the palette
    /// indices (1) and the deflate output (at most about 4): 18, with room for zlib's own state
    /// on small images. ``RasterLimits`` multiplies it by the pixel count.
    package static let bytesPerPixel = 20

    /// PNG bytes of `scene` at `scale` (1 draws the SVG's pixel size). Check the size against
    /// ``RasterLimits`` first: this allocates what the size asks for. Its buffers are the
    /// calling thread's ``RenderScratch``, reused from render to render. Text is drawn with
    /// `fonts`.
    package static func png(_ scene: RingScene, scale: Int, fonts: LabelFonts = .embedded) -> [UInt8] {
        let scratch = RenderScratch.current
        defer { scratch.trim() }
        var canvas = draw(scene, scale: scale, fonts: fonts, scratch: scratch)
        defer { canvas.giveBack(to: scratch) }
        return PNGEncoder.encode(canvas, scratch: scratch)
    }

    /// The scene drawn on a canvas at `scale`.
    package static func draw(_ scene: RingScene, scale: Int, fonts: LabelFonts = .embedded) -> Canvas {
        draw(scene, scale: scale, fonts: fonts, scratch: RenderScratch.current)
    }

    private static func draw(_ scene: RingScene, scale: Int, fonts: LabelFonts, scratch: RenderScratch) -> Canvas {
        let (width, height) = pixelSize(of: scene, scale: scale)
        // A backdrop kept from one of the thread's last styles is the canvas to start from:
        // copied in, not painted over a cleared one.
        let backdrop = Backdrop(scene, scale: Double(scale), width: width, height: height)
        let kept = backdrop.isEmpty ? nil : scratch.keptBackdrop(backdrop)
        let canvas = Canvas(width: width, height: height, scratch: scratch, kept: kept)
        var painter = Painter(scene: scene, scale: Double(scale), fonts: fonts, canvas: canvas, scratch: scratch)
        painter.paint(backdrop: kept == nil && !backdrop.isEmpty ? backdrop : nil)
        return painter.canvas
    }
}

/// One render: the scene's elements in painting order.
private struct Painter {
    let scene: RingScene
    let scale: Double
    let fonts: LabelFonts
    var canvas: Canvas
    /// Where each element's mask takes its cells from and gives them back to.
    let scratch: RenderScratch
    var centre: Point { Point(x: scene.centerX * scale, y: scene.centerY * scale) }

    /// Paints the scene over the canvas; `backdrop`: the scene's backdrop, to paint first and
    /// keep, or nil when the canvas starts from a kept one or the scene has none.
    mutating func paint(backdrop: Backdrop?) {
        if let backdrop { paintBackdrop(backdrop) }
        let bars = scene.rings.compactMap { ring in ring.bar.map { ($0, shape(of: $0.stroke, segments: $0.segments)) } }
        if let shadow = scene.shadow {
            // The SVG blurs every bar's black copy (and the laps under a top lap) as one group.
            // The rings never overlap, so bars of one alpha blur as their union, in one pass.
            let beneath = scene.rings.compactMap { ring in ring.lap?.beneath.map { ($0, shape(of: $0.stroke)) } }
            let shadowed = bars + beneath
            for alpha in Set(shadowed.map { $0.0.paint.alpha }).sorted() {
                var union = Polygon()
                for (bar, shape) in shadowed where bar.paint.alpha == alpha { union.contours += shape.contours }
                paintShadow(shadow, of: union, alpha: alpha)
            }
        }
        var next = bars.makeIterator()
        for ring in scene.rings where ring.bar != nil {
            let (bar, barShape) = next.next()!
            // Under the top lap the laps before it; over it the head's shadow, then the head.
            if let beneath = ring.lap?.beneath { paint(beneath, shape(of: beneath.stroke)) }
            paint(bar, barShape)
            if let lap = ring.lap {
                paintHeadShadow(lap.shadow)
                if let head = lap.head { paint(head, shape(of: head.stroke)) }
            }
        }
        for marks in [scene.ticks, scene.targets].compactMap({ $0 }) {
            if let halo = marks.halo { paint(lines(of: marks, width: marks.haloWidth), halo.color) }
            paint(lines(of: marks, width: marks.width), marks.color.color)
        }
        for text in [scene.label, scene.caption].compactMap({ $0 }) where text.fontSize > 0 {
            for line in text.lines { paint(line) }
        }
    }

    /// A label or a caption: its mask from the thread's last texts when it was drawn there
    /// (``TextMask``), else from its glyphs, and kept for the next image.
    mutating func paint(_ text: RingScene.Label) {
        let key = TextMask(
            text: text.text, fontSize: text.fontSize * scale, centreX: text.x * scale, baseline: text.baseline * scale,
            width: canvas.width, height: canvas.height, fonts: fonts)
        if let kept = scratch.textMasks.firstIndex(where: { $0.key == key }) {
            canvas.fill(scratch.textMasks[kept].mask, text.color.color)
            return
        }
        let glyphs = fonts.outline(
            of: text.text, fontSize: key.fontSize, centreX: key.centreX, baseline: key.baseline)
        var textMask = mask(glyphs)
        canvas.fill(textMask, text.color.color)
        if textMask.width * textMask.height <= TextMask.largestPixels {
            if scratch.textMasks.count == TextMask.kept { scratch.textMasks.removeFirst() }
            scratch.textMasks.append((key, textMask.compacted()))
        }
        scratch.cells = textMask.takeStorage()
    }

    /// The background, the fill disc, the tracks and the outlines, kept for the thread's next
    /// images with the same (``Backdrop``): painted only when none of its last styles had it.
    mutating func paintBackdrop(_ backdrop: Backdrop) {
        if let background = scene.background { canvas.fillAll(background) }
        if let fill = scene.fill {
            var disc = Polygon()
            disc.addCircle(centre: centre, radius: fill.radius * scale)
            paint(disc, fill.color)
        }
        for ring in scene.rings {
            if let track = ring.track { paint(shape(of: track.stroke, segments: track.segments), track.color.color) }
        }
        for ring in scene.rings { if let outline = ring.outline { paint(shape(of: outline), outline.color) } }
        if canvas.width * canvas.height <= RenderScratch.retainedBytes, let snapshot = canvas.snapshot() {
            scratch.keep(backdrop, snapshot, bytes: canvas.width * canvas.height)
        }
    }

    /// A bar of `shape`, in its solid colour or its gradient; a stack part by part.
    mutating func paint(_ bar: RingScene.Bar, _ shape: Polygon) {
        guard bar.parts.isEmpty else {
            for part in bar.parts { paint(self.shape(of: part.stroke), part.color) }
            return
        }
        switch bar.paint {
        case .solid(let color):
            paint(shape, color)
        case .gradient(let gradient) where bar.stroke.isDot:
            paint(shape, gradient.color(along: 0))
        case .gradient(let gradient):
            var barMask = mask(shape)
            barMask.resolve()  // the shader reads every pixel's coverage
            paintGradient(gradient, along: bar.stroke, mask: barMask)
            scratch.cells = barMask.takeStorage()
        }
    }

    /// The top lap's head shadow: black over its piece of the band, its opacity falling linearly
    /// with the distance from the head's centre across `fade`, as the SVG's radial gradient.
    mutating func paintHeadShadow(_ shadow: RingScene.HeadShadow) {
        var shadowMask = mask(shape(of: shadow.stroke))
        shadowMask.resolve()
        let head = Polygon.point(centre, shadow.stroke.radius * scale, shadow.head)
        let (from, to) = (shadow.fade.lowerBound * scale, shadow.fade.upperBound * scale)
        let opacity = Float(shadow.opacity)
        canvas.fill(shadowMask) { x, y in
            let distance = hypot(Double(x) + 0.5 - head.x, Double(y) + 0.5 - head.y)
            let share = to > from ? min(max((to - distance) / (to - from), 0), 1) : distance <= to ? 1 : 0
            return (0, 0, 0, opacity * Float(share))
        }
        scratch.cells = shadowMask.takeStorage()
    }

    /// The marks' lines, `width` thick (the marks' own, or their halo's), as one polygon.
    func lines(of marks: RingScene.Marks, width: Double) -> Polygon {
        var lines = Polygon()
        let half = width * scale / 2
        for mark in marks.marks {
            let radians = mark.angle * .pi / 180
            let (out, along) = (Point(x: sin(radians), y: -cos(radians)), Point(x: cos(radians), y: sin(radians)))
            let shift = mark.shift * scale
            func corner(_ radius: Double, _ side: Double) -> Point {
                Point(
                    x: centre.x + out.x * radius * scale + along.x * (side + shift),
                    y: centre.y + out.y * radius * scale + along.y * (side + shift))
            }
            lines.contours.append([
                corner(mark.inner, -half), corner(mark.outer, -half), corner(mark.outer, half),
                corner(mark.inner, half),
            ])
        }
        return lines
    }

    /// Fills `polygon` with `color` through a mask in the scratch cells.
    mutating func paint(_ polygon: Polygon, _ color: RingColor) {
        var polygonMask = mask(polygon)
        canvas.fill(polygonMask, color)
        scratch.cells = polygonMask.takeStorage()
    }

    // MARK: Shapes

    /// A stroke, or with segments all of them as one polygon (same-direction contours add up).
    func shape(of stroke: RingScene.Stroke, segments: [RingScene.Stroke]) -> Polygon {
        guard !segments.isEmpty else { return shape(of: stroke) }
        var polygon = Polygon()
        for segment in segments { polygon.contours += shape(of: segment).contours }
        return polygon
    }

    /// A stroke of the scene as the area it paints: a closed band, a dot, or an arc with caps.
    func shape(of stroke: RingScene.Stroke) -> Polygon {
        var polygon = Polygon()
        let radius = stroke.radius * scale
        let half = stroke.width * scale / 2
        if stroke.isClosed {
            polygon.addAnnulus(centre: centre, inner: max(radius - half, 0), outer: radius + half)
        } else if stroke.isDot {
            polygon.addCircle(centre: Polygon.point(centre, radius, stroke.arc.start), radius: half)
        } else {
            polygon.addArcStroke(
                centre: centre, radius: radius, halfWidth: half, start: stroke.arc.start, sweep: stroke.arc.sweep,
                round: stroke.cap == .round, ends: (stroke.isRound(.start), stroke.isRound(.end)))
        }
        return polygon
    }

    /// The outline's band: on a full ring two thin circles; on an open arc the track's shape
    /// grown by `offset` plus half the outline, less the track's shape grown by `offset` less
    /// half the outline — the contour the SVG strokes, with its mitred butt corners.
    func shape(of outline: RingScene.Outline) -> Polygon {
        var polygon = Polygon()
        let radius = outline.radius * scale
        let offset = outline.offset * scale
        let half = outline.width * scale / 2
        if outline.isClosed {
            for ring in [radius + offset, radius - offset] where ring > 0 {
                polygon.addAnnulus(centre: centre, inner: max(ring - half, 0), outer: ring + half)
            }
            return polygon
        }
        let round = outline.cap == .round
        polygon.addArcStroke(
            centre: centre, radius: radius, halfWidth: offset + half, start: outline.arc.start,
            sweep: outline.arc.sweep, round: round, extend: half)
        polygon.addArcStroke(
            centre: centre, radius: radius, halfWidth: offset - half, start: outline.arc.start,
            sweep: outline.arc.sweep, round: round, extend: -half, clockwise: false)
        return polygon
    }

    /// A mask of `polygon`'s edges, over its bounds within the canvas, grown by `margin`.
    func mask(_ polygon: Polygon, margin: Double = 1) -> CoverageMask {
        guard let bounds = polygon.bounds(margin: margin) else {
            return CoverageMask(originX: 0, originY: 0, width: 0, height: 0)
        }
        let minX = max(bounds.minX, 0)
        let minY = max(bounds.minY, 0)
        let maxX = min(bounds.maxX, canvas.width)
        let maxY = min(bounds.maxY, canvas.height)
        var mask = CoverageMask(
            originX: minX, originY: minY, width: maxX - minX, height: maxY - minY, storage: scratch.cells)
        scratch.cells = []
        mask.add(polygon)
        return mask
    }

    // MARK: Paints

    /// The bar's colour from each pixel's angle about the centre, matching the SVG's stops:
    /// 0 at the bar's start, `span` degrees later 1; past the ends (the round caps), the colour
    /// of the nearer end.
    mutating func paintGradient(_ gradient: RingScene.Gradient, along stroke: RingScene.Stroke, mask: CoverageMask) {
        let centre = self.centre
        let start = stroke.arc.start
        let length = stroke.arc.sweep.magnitude
        let sign: Double = stroke.arc.sweep < 0 ? -1 : 1
        let closed = stroke.isClosed
        canvas.fill(mask) { x, y in
            let dx = Double(x) + 0.5 - centre.x
            let dy = Double(y) + 0.5 - centre.y
            let angle = atan2(dx, -dy) * 180 / .pi
            var along = ((angle - start) * sign).truncatingRemainder(dividingBy: 360)
            if along < 0 { along += 360 }
            if !closed, along > length {
                along = along - length < 360 - along ? length : 0
            }
            let color = gradient.color(along: along)
            return (Float(color.red), Float(color.green), Float(color.blue), Float(color.alpha) / 255)
        }
    }

    /// SVG's shadow: a black copy of the bar at the paint's alpha, moved down by `offset`,
    /// blurred with standard deviation `blur`, at `opacity`.
    mutating func paintShadow(_ shadow: RingScene.Shadow, of bar: Polygon, alpha: UInt8) {
        // A blur wider than the image spreads the shadow to nothing: cap it there.
        let sigma = min(max(shadow.blur * scale, 0), Double(max(canvas.width, canvas.height)))
        guard sigma.isFinite else { return }
        var shadowMask = mask(bar.transformed(dy: shadow.offset * scale, scale: 1), margin: 3 * sigma + 2)
        shadowMask.blur(sigma: sigma)
        canvas.fill(
            shadowMask, RingColor(red: 0, green: 0, blue: 0, alpha: alpha), opacity: Float(shadow.opacity))
        scratch.cells = shadowMask.takeStorage()
    }
}

extension Canvas {
    /// The image as PNG scanlines: each row a filter byte (0, None) and the row's pixels with
    /// alpha divided out again, as PNG stores them.
    package func scanlines() -> [UInt8] {
        var lines: [UInt8] = []
        scanlines(into: &lines)
        return lines
    }

    /// A premultiplied pixel (red in the low byte, alpha in the high one) with its alpha
    /// divided out again, as PNG stores it: opaque and transparent pixels, most of a ring, as
    /// they are.
    @inline(__always)
    static func straight(_ word: UInt32) -> UInt32 {
        let alpha = word >> 24
        guard alpha != 255, alpha != 0 else { return word }
        let scale = 255 / Float(alpha)
        let red = UInt32(min(Float(word & 0xFF) * scale + 0.5, 255))
        let green = UInt32(min(Float(word >> 8 & 0xFF) * scale + 0.5, 255))
        let blue = UInt32(min(Float(word >> 16 & 0xFF) * scale + 0.5, 255))
        return red | green << 8 | blue << 16 | alpha << 24
    }

    /// ``scanlines()`` into `lines`, reusing its storage.
    package func scanlines(into lines: inout [UInt8]) {
        let rowBytes = width * 4
        lines.resetToZeros(count: height * (rowBytes + 1))
        lines.withUnsafeMutableBytes { lines in
            rgbaPixels().withUnsafeBytes { pixels in
                for row in 0..<height {
                    var target = row * (rowBytes + 1) + 1
                    var source = row * rowBytes
                    for _ in 0..<width {
                        // A pixel at a time as one word: most are transparent (already zero in
                        // `lines`) or opaque (copied as they are).
                        let word = UInt32(littleEndian: pixels.loadUnaligned(fromByteOffset: source, as: UInt32.self))
                        if word >> 24 != 0 {
                            lines.storeBytes(
                                of: Self.straight(word).littleEndian, toByteOffset: target, as: UInt32.self)
                        }
                        target += 4
                        source += 4
                    }
                }
            }
        }
    }
}

/// What a scene paints before its bars, with everything that decides its pixels: the image's
/// size and scale, the background, the fill disc, and every ring's track and outline. Rings
/// that differ only in their values, most of a dashboard's, have the same backdrop, and a
/// render thread keeps the canvas after each of the last styles it painted
/// (``RenderScratch/backdrops``): painting it again would give the same indices and colours,
/// byte for byte. (A default 120 px ring's track is a third of its render: 326 k of 986 k
/// instructions.) Compared by value: a NaN from hostile scene numbers never equals, and is
/// painted.
struct Backdrop: Equatable {
    var width: Int
    var height: Int
    var scale: Double
    var centreX: Double
    var centreY: Double
    var background: RingColor?
    var fill: RingScene.Disc?
    var tracks: [RingScene.Track?]
    var outlines: [RingScene.Outline?]

    init(_ scene: RingScene, scale: Double, width: Int, height: Int) {
        self.width = width
        self.height = height
        self.scale = scale
        centreX = scene.centerX
        centreY = scene.centerY
        background = scene.background
        fill = scene.fill
        tracks = scene.rings.map(\.track)
        outlines = scene.rings.map(\.outline)
    }

    /// Nothing to paint: nothing to keep.
    var isEmpty: Bool {
        background == nil && fill == nil && tracks.allSatisfy { $0 == nil } && outlines.allSatisfy { $0 == nil }
    }
}

/// Where a text's mask comes from, all that decides its coverage: the text, its size and
/// place in pixels, the canvas that clips it, and the fonts (the same object). A thread keeps
/// the masks of its last ``kept`` texts (``RenderScratch/textMasks``): a ring's label is its
/// percentage, so rings of one style show the same few labels again and again, and a label is
/// a fifth of a default PNG's render (217 k of 986 k instructions, most of it its edges). The
/// fill over what lies beneath is done every time. Compared by value (the fonts by identity): a NaN never equals, and is drawn.
struct TextMask: Equatable {
    var text: String
    var fontSize: Double
    var centreX: Double
    var baseline: Double
    var width: Int
    var height: Int
    var fonts: LabelFonts

    /// How many texts a thread keeps, and the largest mask kept, in pixels (about 16 KB of
    /// cells): a default ring's label is about 1 500 pixels.
    static let kept = 8
    static let largestPixels = 4_096

    static func == (lhs: TextMask, rhs: TextMask) -> Bool {
        lhs.text == rhs.text && lhs.fontSize == rhs.fontSize && lhs.centreX == rhs.centreX
            && lhs.baseline == rhs.baseline && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.fonts === rhs.fonts
    }
}
