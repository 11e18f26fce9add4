import CZlib
import Foundation
import RingCore
import RingTestSupport
import Testing

@testable import RingRaster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct RingRasterizerTests {
    private func png(_ query: String) throws -> PNGDecoder {
        let spec = try RingSpec(query: query)
        return try PNGDecoder(RingRasterizer.png(RingScene(spec: spec), scale: spec.scale))
    }

    /// The angle-`degrees` point at `radius` from the scene's centre, in pixels of `scale`.
    private func pixel(_ image: PNGDecoder, _ scene: RingScene, degrees: Double, radius: Double, scale: Int = 1)
        -> [UInt8]
    {
        let point = scene.point(at: degrees, radius: radius)
        return image.pixel(Int(point.x * Double(scale)), Int(point.y * Double(scale)))
    }

    /// A stack's parts, each in its colour along its share, round only at the stack's ends:
    /// where a butt cut meets the track, and where a round cap reaches past the bar's end.
    @Test func stackedPartsPaintTheirShares() throws {
        let query = "p=25,25,25&stack&color=ff0000,00ff00,0000ff&track=ffffff&label=none&size=240"
        let scene = RingScene(spec: try RingSpec(query: query))
        let image = try png(query)
        let bar = try #require(scene.rings[0].bar)
        let radius = bar.stroke.radius
        for (degrees, colour) in [(45.0, [255, 0, 0]), (135, [0, 255, 0]), (225, [0, 0, 255])] {
            #expect(pixel(image, scene, degrees: degrees, radius: radius).prefix(3).map(Int.init) == colour)
        }
        // The first part's round cap: half a cap behind where its centre line starts is red.
        // The boundary between parts is cut straight across: at the outer edge, red stops at 90°.
        let cap = bar.stroke.width / 2
        let startCap = scene.point(at: bar.stroke.arc.start, radius: radius)
        #expect(image.pixel(Int(startCap.x - cap / 2), Int(startCap.y)).prefix(3).map(Int.init) == [255, 0, 0])
        #expect(pixel(image, scene, degrees: 92, radius: radius + cap * 0.9).prefix(3).map(Int.init) == [0, 255, 0])
        #expect(pixel(image, scene, degrees: 88, radius: radius + cap * 0.9).prefix(3).map(Int.init) == [255, 0, 0])
    }

    @Test func theEncoderWritesWhatTheCanvasHolds() throws {
        let scene = RingScene(spec: try RingSpec(query: "p=72&shadow&gradient=22c55e,ef4444"))
        let canvas = RingRasterizer.draw(scene, scale: 1)
        let decoded = try PNGDecoder(PNGEncoder.encode(canvas))
        #expect(decoded.chunkTypes == ["IHDR", "sRGB", "IDAT", "IEND"])
        let lines = canvas.scanlines()
        let rowBytes = canvas.width * 4
        var straight: [UInt8] = []
        for row in 0..<canvas.height {
            let start = row * (rowBytes + 1) + 1
            straight += lines[start..<start + rowBytes]
        }
        #expect(decoded.pixels == straight)
        let pixels = canvas.rgbaPixels()
        // Straight alpha: each pixel, multiplied back, is the canvas's within rounding.
        for index in Swift.stride(from: 0, to: straight.count, by: 4) where straight[index + 3] > 0 {
            let alpha = Int(straight[index + 3])
            for channel in 0..<3 {
                let premultiplied = Int(straight[index + channel]) * alpha / 255
                #expect(abs(premultiplied - Int(pixels[index + channel])) <= 1)
            }
        }
    }

    /// A ring of at most 256 colours is written with a palette: the same pixels, exactly, in
    /// fewer bytes than its RGBA rows compress to.
    @Test(arguments: [
        "p=72", "p=100,75,50,25&size=160&width=12&gap=4&color=2f81f7", "p=64&half&caption=x&bg=0d1117",
        "p=72&track=none",
    ])
    func aRingOfFewColoursIsWrittenWithAPalette(query: String) throws {
        let scene = RingScene(spec: try RingSpec(query: query))
        let canvas = RingRasterizer.draw(scene, scale: 1)
        let lines = canvas.scanlines()
        // The palette read from the canvas's premultiplied pixels, as the service encodes.
        let decoded = try PNGDecoder(PNGEncoder.encode(canvas))
        #expect(decoded.colourType == 3, "\(query)")
        // tRNS only when something is translucent: on an opaque background nothing is.
        let opaque = query.contains("bg=")
        #expect(decoded.chunkTypes == ["IHDR", "sRGB", "PLTE"] + (opaque ? [] : ["tRNS"]) + ["IDAT", "IEND"])
        #expect(decoded.pixels == Self.straight(lines, width: canvas.width, height: canvas.height), "\(query)")
        // Translucent entries first: tRNS ends at the last of them.
        let translucent = decoded.palette.filter { $0[3] != 255 }.count
        #expect(decoded.palette.prefix(translucent).allSatisfy { $0[3] != 255 })
        let png = PNGEncoder.encode(canvas)
        #expect(png.count < PNGEncoder.deflate(lines).count, "\(query)")
        // The same palette from straight scanlines, renumbered and compressed as they are: the
        // same file as the canvas's indices read through the renumbering.
        #expect(PNGEncoder.encode(scanlines: lines, width: canvas.width, height: canvas.height) == png, "\(query)")
        // Our own deflate, with zlib's level 1 `Z_RLE` choices, against level 3's full search:
        // no larger.
        let searched = PNGEncoder.encode(
            scanlines: lines, width: canvas.width, height: canvas.height, compression: .init(level: 3))
        #expect(png.count <= searched.count, "\(query)")
    }

    /// Every filter and strategy the benchmark compares writes the same pixels.
    @Test(arguments: [true, false])
    func everyCompressionSettingDecodesToTheSamePixels(palette: Bool) throws {
        let canvas = RingRasterizer.draw(RingScene(spec: try RingSpec(query: "p=72")), scale: 1)
        let lines = canvas.scanlines()
        let expected = Self.straight(lines, width: canvas.width, height: canvas.height)
        for filter in PNGEncoder.Filter.allCases {
            for strategy in [Z_DEFAULT_STRATEGY, Z_RLE, Z_HUFFMAN_ONLY] {
                let setting = PNGEncoder.Compression(level: 1, strategy: strategy, filter: filter)
                let decoded = try PNGDecoder(
                    PNGEncoder.encode(
                        scanlines: lines, width: canvas.width, height: canvas.height, compression: setting,
                        allowPalette: palette))
                #expect(decoded.colourType == (palette ? 3 : 6), "\(setting)")
                #expect(decoded.pixels == expected, "\(setting)")
            }
        }
    }

    /// 256 colours still fit a palette; 257 do not, and the image is written as RGBA, unchanged.
    @Test(arguments: [256, 257])
    func thePaletteHoldsAtMost256Colours(colours: Int) throws {
        let width = 17
        let height = (colours + width - 1) / width + 2
        var lines: [UInt8] = []
        for row in 0..<height {
            lines.append(0)
            for column in 0..<width {
                let index = min(row * width + column, colours - 1)
                lines += [UInt8(index & 0xFF), UInt8(index >> 8), 7, UInt8(truncatingIfNeeded: 255 - index % 3)]
            }
        }
        let decoded = try PNGDecoder(PNGEncoder.encode(scanlines: lines, width: width, height: height))
        #expect(decoded.colourType == (colours <= 256 ? 3 : 6))
        #expect(decoded.pixels == Self.straight(lines, width: width, height: height))
    }

    /// The palette's run paths (four pixels at a time while they repeat, eight indices at a
    /// time when renumbered) against every row width and run length: 200 images of random runs
    /// of a few colours, 1 to 41 pixels wide, decode to exactly their pixels.
    @Test func paletteRunsDecodeToTheirPixels() throws {
        var random = SystemRandomNumberGenerator()
        let colours: [[UInt8]] = [[0, 0, 0, 0], [200, 10, 10, 255], [9, 80, 200, 128], [1, 2, 3, 255]]
        for _ in 0..<200 {
            let width = Int.random(in: 1...41, using: &random)
            let height = Int.random(in: 1...6, using: &random)
            var lines: [UInt8] = []
            var colour = colours[0]
            for _ in 0..<height {
                lines.append(0)
                for _ in 0..<width {
                    if Int.random(in: 0..<9, using: &random) == 0 { colour = colours.randomElement(using: &random)! }
                    lines += colour
                }
            }
            let decoded = try PNGDecoder(PNGEncoder.encode(scanlines: lines, width: width, height: height))
            #expect(decoded.colourType == 3)
            #expect(decoded.pixels == Self.straight(lines, width: width, height: height), "\(width) × \(height)")
        }
    }

    /// Edge coverage comes in 31 steps: a ring on nothing has no other alpha values.
    @Test func edgeCoverageHas31Steps() throws {
        let image = try png("p=72&track=none&label=none&color=ff0000")
        let steps = Set((0...31).map { UInt8($0 * 255 / 31) })
        let alphas = Set(Swift.stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] })
        #expect(alphas.isSubset(of: steps), "\(alphas.subtracting(steps).sorted())")
        #expect(alphas.count > 20, "edges use the steps: \(alphas.count)")
    }

    /// The scanlines without their filter bytes.
    private static func straight(_ lines: [UInt8], width: Int, height: Int) -> [UInt8] {
        let rowBytes = width * 4 + 1
        var pixels: [UInt8] = []
        for row in 0..<height { pixels += lines[row * rowBytes + 1..<(row + 1) * rowBytes] }
        return pixels
    }

    @Test(arguments: [
        ("p=72", 120, 120), ("p=72&scale=2", 240, 240), ("p=64&half", 120, 66), ("p=64&half&scale=3", 360, 198),
    ])
    func thePixelSizeIsTheSVGsTimesScale(query: String, width: Int, height: Int) throws {
        let image = try png(query)
        #expect(image.width == width && image.height == height)
        let svg = String(decoding: RingRenderer.render(try RingSpec(query: query)), as: UTF8.self)
        let scale = try RingSpec(query: query).scale
        #expect(svg.contains("width=\"\(width / scale)\" height=\"\(height / scale)\""))
    }

    @Test func barTrackAndLabelAreWhereTheSceneSays() throws {
        let spec = try RingSpec(query: "p=25&color=ff0000&track=0000ff&label=none")
        let scene = RingScene(spec: spec)
        let image = try png("p=25&color=ff0000&track=0000ff&label=none")
        let radius = try #require(scene.rings[0].bar?.stroke.radius)
        #expect(pixel(image, scene, degrees: 45, radius: radius) == [255, 0, 0, 255])
        #expect(pixel(image, scene, degrees: 180, radius: radius) == [0, 0, 255, 255])
        #expect(image.pixel(60, 60)[3] == 0)  // the centre, with no label or fill, is transparent
        #expect(image.pixel(0, 0)[3] == 0)
    }

    /// Targets and ticks are drawn across the track at their angles, over the bar, in their
    /// colours; beside them the bar or the track shows.
    @Test func marksAreDrawnAcrossTheTrackAtTheirAngles() throws {
        let query =
            "p=50&color=ff0000&track=0000ff&label=none&size=240&target=75&targetColor=00ff00"
            + "&ticks=4&tickColor=ffff00"
        let scene = RingScene(spec: try RingSpec(query: query))
        let image = try png(query)
        let radius = try #require(scene.rings[0].bar?.stroke.radius)
        let edge = radius + scene.rings[0].track!.stroke.width / 2 - 1.5
        #expect(pixel(image, scene, degrees: 270, radius: radius) == [0, 255, 0, 255])  // the target
        #expect(pixel(image, scene, degrees: 270, radius: edge) == [0, 255, 0, 255])
        #expect(pixel(image, scene, degrees: 90, radius: radius) == [255, 255, 0, 255])  // a tick on the bar
        #expect(pixel(image, scene, degrees: 180, radius: radius) == [255, 255, 0, 255])  // on the bar's end
        #expect(pixel(image, scene, degrees: 265, radius: radius) == [0, 0, 255, 255])  // the track beside
        #expect(pixel(image, scene, degrees: 85, radius: radius) == [255, 0, 0, 255])  // the bar beside
    }

    /// The top lap's head casts its shadow forward onto the lap beneath: darker just ahead of
    /// the head than further on, and the lap beneath is the bar's colour.
    @Test func theHeadShadowDarkensTheLapBeneath() throws {
        let query = "p=125&overflow=lap&color=ff0000&label=none&size=240"
        let scene = RingScene(spec: try RingSpec(query: query))
        let image = try png(query)
        let lap = try #require(scene.rings[0].lap)
        let radius = lap.shadow.stroke.radius
        let degreesPerPixel = 180 / (Double.pi * radius)
        let edge = lap.shadow.fade.lowerBound
        let near = pixel(image, scene, degrees: lap.shadow.head + (edge + 1) * degreesPerPixel, radius: radius)
        let halfway = pixel(
            image, scene, degrees: lap.shadow.head + (edge + lap.shadow.fade.upperBound) / 2 * degreesPerPixel,
            radius: radius)
        let far = pixel(
            image, scene, degrees: lap.shadow.head + (lap.shadow.fade.upperBound + 2) * degreesPerPixel, radius: radius)
        // A long, soft fade: still shading half way along it, gone past its end.
        #expect(halfway[0] > near[0] && halfway[0] < 255, "\(halfway)")
        #expect(near[0] < 200 && near[3] == 255, "\(near)")
        #expect(far == [255, 0, 0, 255])
        #expect(pixel(image, scene, degrees: 200, radius: radius) == [255, 0, 0, 255])  // only the lap beneath
    }

    /// Each concentric ring at its own radius, in its own colours, with the gap clear between.
    @Test func everyRingIsDrawnAtItsRadius() throws {
        let query = "p=25,50,75&color=ff0000,00ff00,0000ff&track=ffff00,00ffff,ff00ff&label=none&gap=4"
        let scene = RingScene(spec: try RingSpec(query: query))
        let image = try png(query)
        let bars: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]
        let tracks: [[UInt8]] = [[255, 255, 0, 255], [0, 255, 255, 255], [255, 0, 255, 255]]
        for (index, ring) in scene.rings.enumerated() {
            let stroke = try #require(ring.bar?.stroke)
            #expect(pixel(image, scene, degrees: 45, radius: stroke.radius) == bars[index], "ring \(index)")
            #expect(pixel(image, scene, degrees: 300, radius: stroke.radius) == tracks[index], "ring \(index)")
            if index > 0 {
                let between = stroke.radius + stroke.width / 2 + 2
                #expect(pixel(image, scene, degrees: 300, radius: between)[3] == 0, "the gap inside ring \(index - 1)")
            }
        }
        // Ring 0 at 25 % ends near 90°; ring 2 at 75 % still fills at 200°.
        let outer = try #require(scene.rings[0].bar?.stroke.radius)
        let inner = try #require(scene.rings[2].bar?.stroke.radius)
        #expect(pixel(image, scene, degrees: 200, radius: outer) == tracks[0])
        #expect(pixel(image, scene, degrees: 200, radius: inner) == bars[2])
    }

    @Test func theGradientFollowsTheAngle() throws {
        let query = "p=100&gradient=ff0000,0000ff&label=none"
        let scene = RingScene(spec: try RingSpec(query: query))
        let image = try png(query)
        let radius = try #require(scene.rings[0].bar?.stroke.radius)
        let early = pixel(image, scene, degrees: 10, radius: radius)
        let middle = pixel(image, scene, degrees: 180, radius: radius)
        let late = pixel(image, scene, degrees: 350, radius: radius)
        #expect(early[0] > 230 && early[2] < 25, "\(early)")
        #expect(abs(Int(middle[0]) - Int(middle[2])) < 12, "\(middle)")
        #expect(late[2] > 230 && late[0] < 25, "\(late)")
    }

    @Test func theShadowIsABlurredDarkCopyBelowTheBar() throws {
        let scene = RingScene(spec: try RingSpec(query: "p=100&shadow&track=none&label=none"))
        var plainScene = scene
        plainScene.shadow = nil
        let shadowed = try PNGDecoder(RingRasterizer.png(scene, scale: 1))
        let plain = try PNGDecoder(RingRasterizer.png(plainScene, scale: 1))
        let radius = try #require(scene.rings[0].bar?.stroke.radius)
        let width = try #require(scene.rings[0].bar?.stroke.width)
        // Just outside the bar at 6 o'clock, where the shadow is moved to, and at 12.
        let below = pixel(shadowed, scene, degrees: 180, radius: radius + width / 2 + 1.5)
        let above = pixel(shadowed, scene, degrees: 0, radius: radius + width / 2 + 1.5)
        #expect(below[3] > 20 && below[0] < 40, "\(below)")
        #expect(below[3] > above[3], "below \(below), above \(above)")
        #expect(pixel(plain, scene, degrees: 180, radius: radius + width / 2 + 1.5)[3] == 0)
    }

    @Test func aSceneWithNothingToDrawIsTransparent() throws {
        let image = try png("p=0&track=none&label=none")
        #expect(image.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 0 })
    }

    @Test func theLabelHasInkAtItsPlace() throws {
        let with = try png("p=72&track=none")
        let without = try png("p=72&track=none&label=none")
        var columns: [Int] = []
        for y in 0..<with.height {
            for x in 0..<with.width where with.pixel(x, y) != without.pixel(x, y) { columns.append(x) }
        }
        #expect(columns.count > 200)
        let centre = Double(columns.min()! + columns.max()! + 1) / 2
        #expect(abs(centre - 60) < 1.5, "label centred at \(centre)")
    }

    /// Every catalogue ring and random specs: finite coverage, canvases of the right size,
    /// nothing but transparency where nothing is drawn.
    @Test func randomScenesDrawWithinTheirBox() throws {
        var generator = SeededGenerator(seed: 14)
        let queries = RingExamples.all.map(\.query) + (0..<120).map { _ in RandomQuery.make(&generator) }
        for query in queries {
            let spec = try RingSpec(query: query)
            let scene = RingScene(spec: spec)
            let canvas = RingRasterizer.draw(scene, scale: spec.scale)
            let (width, height) = RingRasterizer.pixelSize(of: scene, scale: spec.scale)
            let pixels = canvas.rgbaPixels()
            #expect(canvas.width == width && canvas.height == height && pixels.count == width * height * 4)
            // Premultiplied: no channel above its alpha.
            var index = 0
            var valid = true
            while index < pixels.count {
                let alpha = pixels[index + 3]
                if pixels[index] > alpha || pixels[index + 1] > alpha || pixels[index + 2] > alpha {
                    valid = false
                }
                index += 4
            }
            #expect(valid, "\(query)")
        }
    }

    /// A render thread keeps the canvas after a ring's backdrop (background, fill, tracks,
    /// outlines) and the masks of its last texts for the next rings with the same: every
    /// catalogue style and random ones, each drawn at one value and then at others (some with
    /// the same label), give the same PNG bytes as drawn from nothing.
    @Test func keptBackdropsAndTextsGiveTheBytesOfFreshOnes() throws {
        var generator = SeededGenerator(seed: 24)
        // Each style is drawn after another value, in five pairs. By default twelve random styles
        // beside the catalogue, each style in two of the pairs (in turn, so every pair meets
        // every kind of style); CI's plain test run sets RING_DEEP_TESTS for sixty random styles,
        // each in all five pairs. A pair draws three PNGs, slow in a debug build.
        let deep = ProcessInfo.processInfo.environment["RING_DEEP_TESTS"] != nil
        let styles =
            RingExamples.all.map(\.query) + (0..<(deep ? 60 : 12)).map { _ in RandomQuery.make(&generator) }
        let pairs = [("37.5", "0"), ("0", "100"), ("100", "61.8"), ("61.8", "62.1"), ("61.6", "61.9")]
        var kept = 0
        var keptTexts = 0
        var drawn = 0
        for (number, style) in styles.enumerated() {
            let parts = style.split(separator: "&")
            guard let valueIndex = parts.firstIndex(where: { $0.hasPrefix("p=") }) else { continue }
            let rings = parts[valueIndex].split(separator: ",").count
            func query(_ value: String) -> String {
                var parts = parts.map(String.init)
                parts[valueIndex] = "p=" + Array(repeating: value, count: rings).joined(separator: ",")
                return parts.joined(separator: "&")
            }
            let scratch = RenderScratch.current
            let chosen = deep ? pairs : [pairs[number % pairs.count], pairs[(number + 2) % pairs.count]]
            for (first, second) in chosen {
                drawn += 1
                let before = try RingSpec(query: query(first))
                _ = RingRasterizer.png(RingScene(spec: before), scale: before.scale)
                let spec = try RingSpec(query: query(second))
                let scene = RingScene(spec: spec)
                let reused = !scratch.backdrops.isEmpty
                if let label = scene.label, scratch.textMasks.contains(where: { $0.key.text == label.text }) {
                    keptTexts += 1
                }
                let afterKept = RingRasterizer.png(scene, scale: spec.scale)
                scratch.forgetKeptLayers()
                let fresh = RingRasterizer.png(scene, scale: spec.scale)
                let same = afterKept == fresh  // not in the expectation: it would print every byte
                #expect(same, "\(query(second)) after \(query(first))")
                if reused { kept += 1 }
            }
        }
        // Most styles have a track, and many a label: what was kept was there to be used.
        #expect(kept > drawn * 3 / 5)
        #expect(keptTexts > drawn / 5)
    }

    /// Styles interleaved from one ring to the next each find their own backdrop kept, and the
    /// thread keeps no more than its bound.
    @Test func interleavedStylesFindTheirBackdrops() throws {
        let scratch = RenderScratch.current
        scratch.forgetKeptLayers()
        func backdrop(_ query: String) throws -> (RingScene, Backdrop) {
            let scene = RingScene(spec: try RingSpec(query: query))
            return (scene, Backdrop(scene, scale: 1, width: 120, height: 120))
        }
        for slice in 1...9 { _ = RingRasterizer.png(try backdrop("p=\(slice * 7)&slice=0.\(slice)").0, scale: 1) }
        for slice in 1...9 {
            let (scene, key) = try backdrop("p=50&slice=0.\(slice)")
            #expect(scratch.backdrops.contains { $0.key == key }, "slice=0.\(slice)")
            _ = RingRasterizer.png(scene, scale: 1)
        }
        #expect(scratch.backdrops.count == 9)
        for start in 0..<30 { _ = RingRasterizer.png(try backdrop("p=50&slice=0.5&start=\(start)").0, scale: 1) }
        #expect(scratch.backdrops.count == RenderScratch.keptBackdrops)
        #expect(try !scratch.backdrops.contains { $0.key == (try backdrop("p=50&slice=0.1")).1 })
        scratch.forgetKeptLayers()
    }

    /// A text's kept mask is used only for the same text, size, place, canvas and fonts.
    @Test func textMasksDifferInEverythingThatDrawsThem() throws {
        let base = TextMask(
            text: "72%", fontSize: 23.81, centreX: 60, baseline: 68.57, width: 120, height: 120, fonts: .embedded)
        #expect(base == base)
        var others = [base, base, base, base, base, base, base]
        others[0].text = "73%"
        others[1].fontSize = 23.82
        others[2].centreX = 60.01
        others[3].baseline = 68.6
        others[4].width = 121
        others[5].height = 119
        others[6].fonts = LabelFonts(fallbacks: [])  // the same font, another set: not the same
        for other in others { #expect(other != base) }
        var nan = base
        nan.centreX = .nan
        #expect(nan != nan)
    }

    /// Two backdrops that differ in anything that is painted are never mistaken for each other.
    @Test func backdropsDifferInEveryPaintedPart() throws {
        func backdrop(_ query: String) throws -> Backdrop {
            let spec = try RingSpec(query: query)
            let scene = RingScene(spec: spec)
            let (width, height) = RingRasterizer.pixelSize(of: scene, scale: spec.scale)
            return Backdrop(scene, scale: Double(spec.scale), width: width, height: height)
        }
        let base = try backdrop("p=10")
        #expect(try backdrop("p=90") == base)
        #expect(try backdrop("p=90&color=red&label=none") == base)
        for other in [
            "p=10&track=red", "p=10&size=121", "p=10&scale=2", "p=10&width=11", "p=10&trackWidth=11", "p=10&bg=fff",
            "p=10&fill=eee", "p=10&outline=333", "p=10&slice=0.2", "p=10&segments=4", "p=10,20", "p=10&half",
            "p=10&theme=dark", "p=10&start=90&slice=0.1",
        ] {
            #expect(try backdrop(other) != base, "\(other)")
        }
        let bare = RingScene(spec: try RingSpec(query: "p=1&track=none"))
        #expect(Backdrop(bare, scale: 1, width: 120, height: 120).isEmpty)
    }

    /// What the fuzzer found: numbers no spec produces, which a public scene may hold, draw
    /// nothing wrong and never trap.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 0, 1e-300])
    func hostileSceneNumbersNeverTrap(number: Double) throws {
        let queries = [
            "p=100&shadow", "p=72&cap=butt&outline=333&slice=0.3", "p=72&segments=5",
            "p=230&overflow=lap&target=80&ticks=10&gradient=red,blue",
        ]
        for query in queries {
            var scene = RingScene(spec: try RingSpec(query: query))
            scene.rings[0].lap?.shadow.head = number
            scene.rings[0].lap?.shadow.opacity = number
            scene.rings[0].lap?.shadow.stroke.radius = number
            scene.ticks?.width = number
            scene.ticks?.marks[0].outer = number
            scene.targets?.marks[0].angle = number
            scene.rings[0].bar?.stroke.radius = number
            scene.rings[0].track?.stroke.width = number
            scene.rings[0].outline?.offset = number
            scene.shadow?.blur = number
            scene.label?.fontSize = number
            let canvas = RingRasterizer.draw(scene, scale: 1)
            #expect(canvas.width == 120)
            scene.centerX = number
            scene.rings[0].bar?.stroke.arc.sweep = number
            _ = RingRasterizer.png(scene, scale: 2)
        }
    }

    @Test func masksNeverHoldNaNOrMoreThanFullCoverage() {
        var generator = SeededGenerator(seed: 41)
        for _ in 0..<200 {
            var polygon = Polygon()
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                polygon.contours.append(
                    (0..<Int.random(in: 3...9, using: &generator)).map { _ in
                        Point(
                            x: Double.random(in: -20...60, using: &generator),
                            y: Double.random(in: -20...60, using: &generator))
                    })
            }
            var mask = CoverageMask(originX: 0, originY: 0, width: 40, height: 40)
            mask.add(polygon)
            mask.resolve()
            let coverages = (0..<40).flatMap { row in (0..<40).map { mask.coverage($0, row) } }
            #expect(coverages.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
        }
    }
}
