/// An error image laid out for the box its query asked for, in no output format: the SVG writer
/// and the PNG engine draw the same lines in the same places.
///
/// An image proxy drops non-2xx answers, so a README author would otherwise see a broken
/// image and no reason. A page sizes the image to the box it expected (`<img width="120"
/// height="120">`), so a long strip of text shrinks to nothing there: the message is wrapped
/// to fit the box instead, at the largest size that holds it and never below the legible
/// ``RingGeometry/minimumFontSize``. A box too small for any text shows a mark, and the
/// message stays in the `X-Ring-Error` header and the title.
package struct ErrorScene: Sendable, Equatable {
    /// The box a query asked for: its `size`, `scale` and `half` when those parse, else the
    /// defaults.
    package struct Box: Sendable, Equatable, Hashable {
        package var size: Int
        package var scale: Int
        /// A half gauge's box: as wide as `size`, as tall as a half gauge of that size.
        package var half: Bool

        package init(size: Int = 120, scale: Int = 1, half: Bool = false) {
            self.size = size
            self.scale = scale
            self.half = half
        }

        /// The box's height in SVG px: `size`, or for a half gauge the height the default half
        /// gauge of that size has (67 for 120), so an error takes the place its ring would.
        var height: Double {
            guard half, let spec = try? RingSpec(query: "p=0&half&size=\(size)") else { return Double(size) }
            return RingScene(spec: spec).height
        }

        /// `size` and `scale` read from a query that may be invalid in any other way: each one
        /// that is given once and valid counts, the rest are the defaults.
        package init(query: String) {
            self.init()
            var sizes: [Int] = []
            var scales: [Int] = []
            var halves: [Bool] = []
            for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
                let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                if parts[0].elementsEqual(RingParameter.half.rawValue.utf8), parts.count == 1 || parts[1].count <= 5 {
                    let value = parts.count == 2 ? String(decoding: parts[1], as: UTF8.self) : nil
                    halves.append((try? QueryValue.boolean(value, RingParameter.half.rawValue)) ?? false)
                    continue
                }
                guard parts.count == 2, parts[1].count <= 4 else { continue }
                let value = String(decoding: parts[1], as: UTF8.self)
                let size = RingParameter.size.rawValue
                let scale = RingParameter.scale.rawValue
                if parts[0].elementsEqual(size.utf8) {
                    sizes.append((try? QueryValue.integer(value, size, in: RingLimits.size)) ?? 0)
                } else if parts[0].elementsEqual(scale.utf8) {
                    scales.append((try? QueryValue.integer(value, scale, in: RingLimits.scale)) ?? 0)
                }
            }
            if sizes.count == 1, sizes[0] > 0 { size = sizes[0] }
            if scales.count == 1, scales[0] > 0 { scale = scales[0] }
            if halves.count == 1 { half = halves[0] }
        }
    }

    package struct Line: Sendable, Equatable {
        package var text: String
        /// The line's centre.
        package var x: Double
        package var baseline: Double
    }

    /// Image size in SVG px (a PNG multiplies it by its scale).
    package var width: Double
    package var height: Double
    /// The whole message, for the title and `aria-label`.
    package var title: String
    package var fontSize: Double
    /// The message, wrapped; empty when ``showsMark``.
    package var lines: [Line]
    /// No text fits: a mark (a disc with `!`) stands for the message.
    package var showsMark: Bool

    package static let background = RingColor(rgb: 0xFFF1F0)
    package static let border = RingColor(rgb: 0xCF222E)
    package static let ink = RingColor(rgb: 0x82071E)
    /// The border's width and the corners' radius, in px.
    package static let borderWidth = 1.0
    package static let cornerRadius = 4.0

    /// How far a line's baseline lies below the previous one's, in font sizes.
    static let lineHeight = 1.25
    /// The largest font an error uses in a small box, in px: larger reads as a ring's label.
    /// A larger box lets it grow to 1/12 of its side, so a 1 024 px error reads at the size
    /// its box is shown.
    static let largestFontSize = 14.0

    /// What the layout of error images is: part of their digest, so a change to it gives
    /// every error image a new ETag.
    package static let layoutVersion = 3

    package init(message: String, box: Box = Box()) {
        let text = ErrorImage.text(for: message)
        let side = Double(box.size)
        width = side
        height = box.height
        title = text
        let padding = max(2, min(width, height) * 0.06)
        let room = (width: width - 2 * padding, height: height - 2 * padding)
        let largest = min(
            max(Self.largestFontSize, (side / 12).rounded(.down)), (min(width, height) / 8).rounded(.down))
        // On a box too small for the whole text, the message leads with its parameter's name,
        // without "ring: " (the title, the header and /ring.json keep it).
        var (wrapped, fontSize, whole) = Self.layout(text, room: room, largest: largest)
        if !whole, text.hasPrefix(ErrorImage.prefix) {
            (wrapped, fontSize, whole) = Self.layout(
                String(text.dropFirst(ErrorImage.prefix.count)), room: room, largest: largest)
        }
        // Fewer than "ring: …" legible: a mark instead of text.
        let legible = wrapped.first.map { $0.unicodeScalars.count >= 4 } ?? false
        showsMark = !legible
        self.fontSize = showsMark ? 0 : fontSize
        guard legible else {
            lines = []
            return
        }
        // The block centred: cap height about 0.72 em above each baseline.
        let block = Double(wrapped.count - 1) * fontSize * Self.lineHeight + 0.72 * fontSize
        let top = (height - block) / 2
        let centre = width / 2
        lines = wrapped.enumerated().map { index, line in
            Line(text: line, x: centre, baseline: top + 0.72 * fontSize + Double(index) * fontSize * Self.lineHeight)
        }
    }

    /// `text` wrapped for `room`: at the largest size up to `largest` that holds it in whole
    /// words, else breaking words, else at the smallest legible size with as many lines as fit,
    /// the last cut (`whole` false).
    static func layout(_ text: String, room: (width: Double, height: Double), largest: Double)
        -> (lines: [String], fontSize: Double, whole: Bool)
    {
        let minimum = RingGeometry.minimumFontSize
        // Whole words first, at the largest size that holds them all: a word is broken only
        // when even the smallest legible size cannot hold the message otherwise.
        var fontSize = largest
        var wrapped: [String] = []
        var placed = false
        while fontSize >= minimum {
            if let lines = Self.wrap(text, width: room.width / fontSize, breakingWords: false),
                Self.fits(lines.count, fontSize, in: room.height)
            {
                wrapped = lines
                placed = true
                break
            }
            fontSize -= 0.5
        }
        if !placed {
            fontSize = largest
            while fontSize >= minimum {
                wrapped = Self.wrap(text, width: room.width / fontSize, breakingWords: true) ?? []
                if Self.fits(wrapped.count, fontSize, in: room.height) { break }
                fontSize -= 0.5
            }
        }
        var whole = true
        if fontSize < minimum {
            // Not all of it fits even at the smallest size: as many lines as do, the last cut.
            whole = false
            fontSize = minimum
            let kept = Int((room.height / (fontSize * Self.lineHeight)).rounded(.down))
            wrapped = Self.wrap(text, width: room.width / fontSize, breakingWords: true) ?? []
            if kept < wrapped.count {
                wrapped.removeLast(wrapped.count - max(kept, 0))
                if let last = wrapped.popLast() { wrapped.append(Self.cut(last, width: room.width / fontSize)) }
            }
        }
        return (wrapped, fontSize, whole)
    }

    /// Whether `count` lines at `fontSize` fit `height`.
    static func fits(_ count: Int, _ fontSize: Double, in height: Double) -> Bool {
        Double(count) * fontSize * lineHeight <= height
    }

    /// Where a word may be broken before it is broken anywhere: after these, which separate
    /// the parts of names, paths, URLs and queries (`totals.lines.pct`, `example.com/x.json`).
    static let breakAfter: Set<Character> = [".", "/", ":", ",", "=", "&"]

    /// `text` in lines of at most `width` em: broken at spaces, then inside a word after
    /// ``breakAfter``, and with `breakingWords` anywhere in a word still wider than a line;
    /// nil without it when a piece is wider than a line.
    static func wrap(_ text: String, width: Double, breakingWords: Bool) -> [String]? {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if TextWidth.em(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            // The word's pieces, each ending after a break character.
            var pieces: [String] = []
            var piece = ""
            for character in word {
                piece.append(character)
                if Self.breakAfter.contains(character) {
                    pieces.append(piece)
                    piece = ""
                }
            }
            if !piece.isEmpty { pieces.append(piece) }
            for piece in pieces {
                if TextWidth.em(line + piece) <= width {
                    line += piece
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                line = ""
                guard TextWidth.em(piece) > width else {
                    line = piece
                    continue
                }
                guard breakingWords else { return nil }
                for character in piece {
                    let longer = line + String(character)
                    if TextWidth.em(longer) > width, !line.isEmpty {
                        lines.append(line)
                        line = String(character)
                    } else {
                        line = longer
                    }
                }
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `line` with a trailing `…`, shortened until it fits `width` em.
    static func cut(_ line: String, width: Double) -> String {
        var kept = Substring(line)
        while !kept.isEmpty, TextWidth.em(kept + "…") > width { kept = kept.dropLast() }
        return kept + "…"
    }
}
