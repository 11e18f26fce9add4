/// The names of the URL query parameters: the public contract. Any other name is ignored.
public enum RingParameter: String, Sendable, CaseIterable {
    case p, min, max, slice, half, start, dir, size, width, trackWidth, color, gradient, track
    case fill, bg, outline, cap, label, labelColor, decimals, theme, anim, shadow, title

    /// The parameter with exactly this (case-sensitive) name, compared as bytes: the parser
    /// meets every name of every query, so this avoids building a `String` for each.
    init?(name: UnsafeBufferPointer<UInt8>) {
        for (index, candidate) in Self.names.enumerated() where candidate.count == name.count {
            if candidate.elementsEqual(name) {
                self = Self.ordered[index]
                return
            }
        }
        return nil
    }

    /// Position in the contract's order (0…23), for bit sets.
    var index: UInt32 {
        UInt32(Self.ordered.firstIndex(of: self)!)
    }

    private static let ordered: [RingParameter] = allCases
    private static let names: [[UInt8]] = allCases.map { Array($0.rawValue.utf8) }
}
