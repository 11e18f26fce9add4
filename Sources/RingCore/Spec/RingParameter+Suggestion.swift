extension RingParameter {
    /// The parameter a user most likely meant by `name`, which is not one: the same name in
    /// another case or with British spelling (`Color`, `colour`, `labelColour`), a known alias
    /// from the table (`background` for `bg`), or else the nearest name within two edits
    /// (`colr`, `sizes`, `segmnets`); on a tie the one that begins as `name` does for longer,
    /// then the earlier in the table (`b` is `bg`, not `p`). Nil when nothing is
    /// that near: a suggestion that is a guess would mislead more than none.
    static func suggestion(for name: String) -> RingParameter? {
        let wanted = folded(name)
        guard !wanted.isEmpty, wanted.count <= longestSuggestible else { return nil }
        for definition in Definition.all
        where folded(definition.name) == wanted || definition.aliases.contains(where: { folded($0) == wanted }) {
            return definition.parameter
        }
        // One edit for a name of one or two letters, two for a longer one: `q` may mean `p`,
        // but `xy` is not a misspelling of `bg`.
        var best: (parameter: RingParameter, distance: Int, prefix: Int)?
        let limit = wanted.count <= 2 ? 1 : 2
        for definition in Definition.all {
            let candidate = folded(definition.name)
            let distance = editDistance(wanted, candidate, limit: limit)
            guard distance <= limit else { continue }
            let prefix = zip(wanted, candidate).prefix { $0 == $1 }.count
            if let best, (best.distance, -best.prefix) <= (distance, -prefix) { continue }
            best = (definition.parameter, distance, prefix)
        }
        return best?.parameter
    }

    /// Names longer than this get no suggestion: no parameter is within two edits of them, and
    /// the distance is not worth computing for every long name a client sends.
    static let longestSuggestible = 32

    /// `name` as suggestions compare it: ASCII letters in lower case, `colour` spelt `color`,
    /// and `_` and `-` dropped (`stroke_width`, `line-cap`).
    static func folded(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for byte in name.utf8 where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") {
            bytes.append(UInt8(ascii: "A") <= byte && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        var index = 0
        while index + 6 <= bytes.count {
            if bytes[index..<index + 6].elementsEqual("colour".utf8) {
                bytes.remove(at: index + 4)
            }
            index += 1
        }
        return bytes
    }

    /// The optimal-string-alignment distance between `a` and `b` (insertions, deletions,
    /// substitutions and swaps of neighbours, each one edit), or `limit + 1` when it is more
    /// than `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return Swift.max(a.count, b.count) }
        // Three rows of the dynamic programme: the one before last, the last and this one.
        var before = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            var smallest = row[0]
            for j in 1...b.count {
                let substitution = last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var distance = Swift.min(substitution, last[j] + 1, row[j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = Swift.min(distance, before[j - 2] + 1)
                }
                row[j] = distance
                smallest = Swift.min(smallest, distance)
            }
            guard smallest <= limit else { return limit + 1 }
            (before, last, row) = (last, row, before)
        }
        return last[b.count] <= limit ? last[b.count] : limit + 1
    }
}
