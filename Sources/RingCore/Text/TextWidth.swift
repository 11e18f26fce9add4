/// Estimated advance widths of text in the label's bold sans-serif font stack, in em.
///
/// An SVG inside an `<img>` cannot load web fonts or measure text, so badge services size
/// text from a width table. This one holds DejaVu Sans (metric-compatible in spirit with
/// Verdana) advances for printable ASCII, scaled up 10 % for bold; other characters are
/// counted as wide (East Asian, emoji) or average.
enum TextWidth {
    /// The estimated width of `text` at a font size of 1.
    static func em(_ text: String) -> Double {
        var units = 0
        for scalar in text.unicodeScalars {
            let value = Int(scalar.value)
            if value >= 32, value < 127 {
                units += Int(ascii[value - 32])
            } else if isWide(scalar.value) {
                units += 2048
            } else {
                units += 1300
            }
        }
        return Double(units) / 2048 * 1.1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F000...0x1FAFF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

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
