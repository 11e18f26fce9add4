/// Where a label may break onto a second line, in the manner of UAX #14: at a space, which
/// is dropped, and beside a Chinese or Japanese character, where those scripts break between
/// any two characters; never before closing punctuation (`、` `。` `」` `%`…) nor after opening
/// punctuation (`「` `(`…). Korean breaks at its spaces only, as it writes them between words.
struct TextBreaks {
    private let characters: [Character]
    /// Each place as the end of the first line and the start of the second, in characters:
    /// the two differ by the spaces dropped.
    let offsets: [(end: Int, start: Int)]

    init(_ text: String) {
        let characters = Array(text)
        var offsets: [(end: Int, start: Int)] = []
        var index = 1
        while index < characters.count {
            let before = characters[index - 1]
            let here = characters[index]
            if here == " " {
                var next = index
                while next < characters.count && characters[next] == " " { next += 1 }
                if before != " " && next < characters.count { offsets.append((index, next)) }
                index = next
                continue
            }
            if before != " ", Self.breaksBeside(before) || Self.breaksBeside(here),
                !Self.closing.contains(here), !Self.opening.contains(before)
            {
                offsets.append((index, index))
            }
            index += 1
        }
        self.characters = characters
        self.offsets = offsets
    }

    /// The two lines of the break at `index` of ``offsets``.
    func split(at index: Int) -> (String, String) {
        let (end, start) = offsets[index]
        return (String(characters[..<end]), String(characters[start...]))
    }

    /// Han, kana and their punctuation and full-width forms: CJK Radicals to CJK Unified
    /// Ideographs, compatibility ideographs, half- and full-width forms, and the supplementary
    /// ideographic planes.
    private static func breaksBeside(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        return (0x2E80...0x9FFF).contains(scalar) || (0xF900...0xFAFF).contains(scalar)
            || (0xFF00...0xFFEF).contains(scalar) || (0x20000...0x3FFFF).contains(scalar)
    }

    /// No line starts with these: closing punctuation, small kana, the prolonged sound mark, `%`.
    private static let closing: Set<Character> = [
        "、", "。", "，", "．", "・", "：", "；", "！", "？", "）", "」", "』", "】", "〉", "》", "〕", "ー", "ぁ", "ぃ", "ぅ",
        "ぇ", "ぉ", "っ", "ゃ", "ゅ", "ょ", "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ", "ュ", "ョ", "％", "%", ",", ".", ":",
        ";", "!", "?", ")", "]", "}", "…",
    ]
    /// No line ends with these: opening punctuation.
    private static let opening: Set<Character> = ["「", "『", "（", "【", "〈", "《", "〔", "(", "[", "{"]
}
