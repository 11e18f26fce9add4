/// Estimated advance widths of text in the label's bold sans-serif font stack, in em.
///
/// An SVG inside an `<img>` cannot load web fonts or measure text, so badge services size
/// text from a width table. This one holds DejaVu Sans (metric-compatible in spirit with
/// Verdana) advances for printable ASCII, scaled up 10 % for bold. Other characters are
/// counted by what the reader sees: one character (grapheme cluster) at a time, as wide as
/// its first visible scalar, so combining marks, joiners and variation selectors add nothing
/// and an emoji sequence counts once. Chinese, Japanese, Korean and full-width forms are one
/// em, as in every CJK font; emoji a little more; everything else the average.
enum TextWidth {
    /// The estimated width of `text` at a font size of 1.
    static func em(_ text: String) -> Double {
        // Printable ASCII, a percentage label: a character a byte, added up in the same order
        // and arithmetic as below (so the same Double), without breaking the text into
        // characters (a few hundred instructions each).
        var text = text
        let printable: Double? = text.withUTF8 { bytes in
            var em = 0.0
            for byte in bytes {
                guard byte >= 32, byte < 127 else { return nil }
                em += Double(ascii[Int(byte) - 32]) / 2048 * 1.1
            }
            return em
        }
        if let printable { return printable }
        var em = 0.0
        for character in text {
            guard let scalar = character.unicodeScalars.first(where: { !isZeroWidth($0.value) }) else { continue }
            let value = scalar.value
            if value >= 32, value < 127 {
                em += Double(ascii[Int(value) - 32]) / 2048 * 1.1
            } else if value == 0xA0 || value == 0x202F {
                // The no-break spaces of French and German percentages: a space, and a narrow one.
                em += (value == 0xA0 ? 713 : 409) / 2048 * 1.1
            } else if isEmoji(value) {
                em += 1.1
            } else if isWide(value) {
                em += 1
            } else {
                em += 1300 / 2048 * 1.1
            }
        }
        return em
    }

    /// Joiners, variation selectors and other format characters that draw nothing, and
    /// combining marks (which draw over their base). Matches what the PNG engine skips.
    private static func isZeroWidth(_ value: UInt32) -> Bool {
        switch value {
        case 0x00AD, 0x034F, 0x180B...0x180F, 0x200B...0x200D, 0x2060...0x2064, 0xFE00...0xFE0F, 0xFEFF: true
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: true
        case 0xE0001, 0xE0020...0xE007F, 0xE0100...0xE01EF: true
        default: false
        }
    }

    /// East Asian wide and full-width characters: Hangul jamo and syllables, CJK radicals,
    /// punctuation, kana, ideographs and their extensions, Yi, full-width forms.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FFF, 0x1AFF0...0x1B16F,
            0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    private static func isEmoji(_ value: UInt32) -> Bool { (0x1F000...0x1FAFF).contains(value) }

    /// Advances of U+0020…U+007E in 1/2048 em.
    private static let ascii: [UInt16] = [
        651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,  // space … /
        1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303,  // 0 … 9
        690, 690, 1716, 1716, 1716, 1087, 2048,  // : ; < = > ? @
        1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767,  // A … M
        1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403,  // N … Z
        799, 690, 799, 1716, 1024, 1024,  // [ \ ] ^ _ `
        1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995,  // a … m
        1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075,  // n … z
        1303, 690, 1303, 1716,  // { | } ~
    ]
}
