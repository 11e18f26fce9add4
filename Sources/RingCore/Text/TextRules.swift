/// What free text (`label`, `title`) may contain.
enum TextRules {
    /// Control characters (C0, DEL, C1), bidirectional overrides and isolates, line and
    /// paragraph separators, and non-characters are refused: they can reorder or hide what a
    /// reader sees, and some are not even allowed in XML.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidi marks, overrides, isolates
        case 0x2028, 0x2029: true
        case 0xFDD0...0xFDEF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
