#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Arc path data, with the digits each arc's centre needs.
extension SVGWriter {
    /// Path data for `arc`: a move and one arc command per piece of at most 90°, so no arc ends
    /// where it starts or opposite it, written with ``arcDecimals(pieceDegrees:)`` digits.
    /// `closed` adds `Z` for a full circle (no caps).
    ///
    /// A renderer finds an arc's centre from its rounded end points and radius alone. On a
    /// half circle a rounding error ε moves that centre by √(2rε): 3 px on a large half gauge.
    /// A quarter circle or less keeps the error proportional to ε, and the digits keep it
    /// under 0.01 px (`ArcCentreTests` checks every emitted arc).
    func arcPath(
        _ arc: RingScene.Arc, radius r: Double, closed: Bool, move: Bool = true, into w: inout ByteWriter
    ) {
        let (pieces, piece) = Self.pieces(of: arc)
        let decimals = Self.arcDecimals(pieceDegrees: piece.magnitude)
        if move {
            w.append(byte: UInt8(ascii: "M"))
            coordinates(point(at: arc.start, radius: r), decimals: decimals, into: &w)
        }
        for index in 1...pieces {
            w.write("A", (Decimals(r, decimals), " "), (Decimals(r, decimals), ""))
            w.append(arc.sweep < 0 ? " 0 0 0 " : " 0 0 1 ")
            coordinates(point(at: arc.start + piece * Double(index), radius: r), decimals: decimals, into: &w)
        }
        if closed { w.append(byte: UInt8(ascii: "Z")) }
    }

    /// How many arc commands draw `arc`, and the sweep of each.
    static func pieces(of arc: RingScene.Arc) -> (count: Int, sweep: Double) {
        let count = max(1, Int((arc.sweep.magnitude / 90).rounded(.up)))
        return (count, arc.sweep / Double(count))
    }

    /// `x y`.
    func coordinates(_ point: (x: Double, y: Double), decimals: Int, into w: inout ByteWriter) {
        w.write("", (Decimals(point.x, decimals), " "), (Decimals(point.y, decimals), ""))
    }

    /// The fewest digits after the point (2…6) with which an arc of `pieceDegrees` implies its
    /// centre within 0.01 px.
    ///
    /// Rounding moves each coordinate by at most ε = ½·10⁻ᵈ. For an arc of angle θ, the
    /// midpoint of its chord then moves by up to √2·ε, the chord turns and carries the centre
    /// with it by √2·ε·cot(θ/2), the half chord's change moves it by √2·ε·tan(θ/2), and the
    /// radius's by ε/cos(θ/2). A quarter circle needs 3 digits; a short segment far from the
    /// centre, more.
    static func arcDecimals(pieceDegrees: Double) -> Int {
        let half = pieceDegrees * .pi / 360
        guard half > 1e-6 else { return 6 }
        let gain = 2.0.squareRoot() * (1 + 1 / tan(half) + tan(half)) + 1 / cos(half)
        var epsilon = 0.005
        for decimals in 2..<6 {
            if epsilon * gain <= 0.01 { return decimals }
            epsilon /= 10
        }
        return 6
    }
}
