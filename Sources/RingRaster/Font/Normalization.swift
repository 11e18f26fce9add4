import RingFontData

/// Unicode's canonical composition (NFC) for the PNG engine, whose module has no Foundation:
/// "e" followed by U+0301 is drawn as the font's "é", and Vietnamese typed with combining
/// tones ("e" U+0323 U+0302) as its "ệ". The data is Unicode's own, generated into
/// RingFontData by `scripts/generators/make-font-data.py`; Hangul syllables compose by arithmetic.
enum Normalization {
    /// `scalars` (one character) in NFC: decomposed, marks in canonical order, then composed.
    static func composed(_ scalars: some Sequence<Unicode.Scalar>) -> [Unicode.Scalar] {
        var decomposed: [UInt32] = []
        for scalar in scalars { decompose(scalar.value, into: &decomposed) }
        reorder(&decomposed)
        return compose(decomposed).compactMap(Unicode.Scalar.init)
    }

    /// Scalar's canonical combining class: 0 for a starter.
    static func combiningClass(_ value: UInt32) -> UInt32 {
        let table = UnsafeBufferPointer(start: ring_combining_classes(), count: Int(ring_combining_class_count()))
        var (low, high) = (0, table.count)
        while low < high {
            let middle = (low + high) / 2
            let entry = table[middle]
            if entry >> 8 == value { return entry & 0xFF }
            if entry >> 8 < value { low = middle + 1 } else { high = middle }
        }
        return 0
    }

    private static let hangul = (syllables: UInt32(0xAC00), leading: UInt32(0x1100), vowels: UInt32(0x1161))
    private static let trailingBase: UInt32 = 0x11A7
    private static let (vowelCount, trailingCount): (UInt32, UInt32) = (21, 28)
    private static let syllableCount: UInt32 = 11172

    private static func decompose(_ value: UInt32, into result: inout [UInt32]) {
        if value >= hangul.syllables, value < hangul.syllables + syllableCount {
            let index = value - hangul.syllables
            result.append(hangul.leading + index / (vowelCount * trailingCount))
            result.append(hangul.vowels + index % (vowelCount * trailingCount) / trailingCount)
            if index % trailingCount != 0 { result.append(trailingBase + index % trailingCount) }
            return
        }
        let table = UnsafeBufferPointer(start: ring_decompositions(), count: Int(ring_decomposition_count()) * 3)
        var (low, high) = (0, table.count / 3)
        while low < high {
            let middle = (low + high) / 2
            let composite = table[middle * 3]
            if composite == value {
                // Unicode's decompositions nest at most four deep, and always to smaller parts.
                decompose(table[middle * 3 + 1], into: &result)
                if table[middle * 3 + 2] != 0 { decompose(table[middle * 3 + 2], into: &result) }
                return
            }
            if composite < value { low = middle + 1 } else { high = middle }
        }
        result.append(value)
    }

    /// Sorts each run of marks by combining class, keeping the order of equal classes.
    private static func reorder(_ values: inout [UInt32]) {
        guard values.count > 1 else { return }
        let classes = values.map(combiningClass)
        var order = Array(values.indices)
        var index = 1
        while index < order.count {
            var position = index
            let moving = order[index]
            while position > 0, classes[moving] != 0, classes[order[position - 1]] > classes[moving] {
                order[position] = order[position - 1]
                position -= 1
            }
            order[position] = moving
            index += 1
        }
        values = order.map { values[$0] }
    }

    private static func compose(_ values: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(values.count)
        var starter: Int?
        var lastClass: UInt32 = 0
        for value in values {
            let valueClass = combiningClass(value)
            if let starter {
                let adjacent = result.count - 1 == starter
                let blocked = !adjacent && (lastClass == 0 || lastClass >= valueClass)
                if !blocked, let composite = pair(result[starter], value) {
                    result[starter] = composite
                    continue
                }
            }
            if valueClass == 0 { starter = result.count }
            lastClass = valueClass
            result.append(value)
        }
        return result
    }

    /// The primary composite of `first` and `second`, if they compose.
    private static func pair(_ first: UInt32, _ second: UInt32) -> UInt32? {
        let leading = hangul.leading
        if first >= leading, first < leading + 19, second >= hangul.vowels, second < hangul.vowels + vowelCount {
            return hangul.syllables + ((first - leading) * vowelCount + second - hangul.vowels) * trailingCount
        }
        if first >= hangul.syllables, first < hangul.syllables + syllableCount,
            (first - hangul.syllables) % trailingCount == 0, second > trailingBase,
            second < trailingBase + trailingCount
        {
            return first + second - trailingBase
        }
        let table = UnsafeBufferPointer(start: ring_compositions(), count: Int(ring_composition_count()) * 3)
        let key = UInt64(first) << 32 | UInt64(second)
        var (low, high) = (0, table.count / 3)
        while low < high {
            let middle = (low + high) / 2
            let found = UInt64(table[middle * 3]) << 32 | UInt64(table[middle * 3 + 1])
            if found == key { return table[middle * 3 + 2] }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
