import RingTestSupport
import Testing

@testable import RingCore

@Suite struct ByteWriterTests {
    private func number(_ value: Double, decimals: Int = 2, keepZeros: Bool = false) -> String {
        var writer = ByteWriter()
        writer.append(number: value, decimals: decimals, keepZeros: keepZeros)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (60, "60"), (-60, "-60"), (6.96, "6.96"), (0.5, "0.5"), (0.05, "0.05"),
        (101.605, "101.61"), (-0.004, "0"), (-0.005, "-0.01"), (1.999, "2"), (1_000_000.25, "1000000.25"),
        (12.3, "12.3"), (0.001, "0"),
    ])
    func fixedPointWithTwoDecimals(value: Double, expected: String) {
        #expect(number(value) == expected)
    }

    @Test func keepsTrailingZerosWhenAsked() {
        #expect(number(72, decimals: 2, keepZeros: true) == "72.00")
        #expect(number(72.5, decimals: 3, keepZeros: true) == "72.500")
        #expect(number(72.05, decimals: 1, keepZeros: true) == "72.1")
        #expect(number(72, decimals: 0, keepZeros: true) == "72")
    }

    @Test func roundsHalfAwayFromZero() {
        #expect(number(0.5, decimals: 0) == "1")
        #expect(number(-0.5, decimals: 0) == "-1")
        #expect(number(2.5, decimals: 0) == "3")
    }

    @Test func nonFiniteValuesDoNotTrap() {
        #expect(number(.nan) == "0")
        #expect(number(.infinity) == "0")
        #expect(number(1e300) == "0")
    }

    @Test func matchesStringFormattingOverManyValues() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let value = Double.random(in: -5000...5000, using: &generator)
            let expected = (value * 100).rounded(.toNearestOrAwayFromZero) / 100
            #expect(Double(number(value))! == expected, "\(value)")
        }
    }

    @Test func integers() {
        var writer = ByteWriter()
        for value in [0, 7, 10, 1_234_567_890, -42, Int.max, Int.min] {
            writer.append(integer: value)
            writer.append(" ")
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "0 7 10 1234567890 -42 \(Int.max) \(Int.min) ")
    }

    @Test func escapesAllFiveXMLCharacters() {
        var writer = ByteWriter()
        writer.append(escaping: "a<b>&\"c'd ü")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "a&lt;b&gt;&amp;&quot;c&#39;d ü")
    }
}
