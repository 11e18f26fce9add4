// Seeded randomness for property tests, shared by the core and service suites.

/// A small deterministic generator (SplitMix64) so property tests reproduce exactly.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random valid ring queries.
public enum RandomQuery {
    /// A random valid query; `color` fixed when `solidBar` so the bar can be found.
    public static func make(_ generator: inout SeededGenerator, solidBar: Bool = false) -> String {
        var parts = ["p=\(Double(Int.random(in: -200...1200, using: &generator)) / 10)"]
        let size = Int.random(in: 16...400, using: &generator)
        parts.append("size=\(size)")
        func maybe(_ chance: Double, _ part: @autoclosure () -> String) {
            if Double.random(in: 0..<1, using: &generator) < chance { parts.append(part()) }
        }
        let half = Bool.random(using: &generator) && Double.random(in: 0..<1, using: &generator) < 0.4
        if half {
            parts.append("half")
        } else {
            maybe(0.5, "slice=\(Double(Int.random(in: 0...90, using: &generator)) / 100)")
            maybe(0.5, "start=\(Int.random(in: -720...720, using: &generator))")
        }
        maybe(0.5, "dir=ccw")
        maybe(0.6, "width=\(Double(Int.random(in: 1...(size * 10 / 3), using: &generator)) / 10)")
        maybe(0.4, "trackWidth=\(Double(Int.random(in: 1...(size * 10 / 3), using: &generator)) / 10)")
        maybe(0.5, "cap=butt")
        maybe(0.3, "shadow=1")
        maybe(0.3, "outline=123")
        maybe(0.3, "anim=\(Int.random(in: 0...10, using: &generator))")
        maybe(0.3, "decimals=\(Int.random(in: 0...3, using: &generator))")
        maybe(0.3, "theme=\(["light", "dark", "auto"].randomElement(using: &generator)!)")
        maybe(0.2, "fill=eee")
        maybe(0.2, "bg=111")
        maybe(0.2, "track=none")
        if solidBar {
            parts.append("color=ff0000")
        } else {
            maybe(0.3, "gradient=red,00ff00,blue")
        }
        return parts.shuffled(using: &generator).joined(separator: "&")
    }
}
