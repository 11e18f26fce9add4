import Testing

@testable import RingCore

@Suite struct RingColorTests {
    @Test(arguments: [
        ("f00", RingColor(red: 255, green: 0, blue: 0)),
        ("#F00", RingColor(red: 255, green: 0, blue: 0)),
        ("f008", RingColor(red: 255, green: 0, blue: 0, alpha: 0x88)),
        ("2f81f7", RingColor(red: 0x2F, green: 0x81, blue: 0xF7)),
        ("#2F81F780", RingColor(red: 0x2F, green: 0x81, blue: 0xF7, alpha: 0x80)),
        ("red", RingColor(red: 255, green: 0, blue: 0)),
        ("RebeccaPurple", RingColor(red: 0x66, green: 0x33, blue: 0x99)),
        ("transparent", RingColor(red: 0, green: 0, blue: 0, alpha: 0)),
    ])
    func parses(text: String, expected: RingColor) {
        #expect(RingColor(parsing: text) == expected)
    }

    @Test(arguments: ["", "#", "ff", "fffff", "fffffffff", "gggggg", "#red", "red;", "url(#x)", "rgb(1,2,3)", "ｒｅｄ"])
    func refuses(text: String) {
        #expect(RingColor(parsing: text) == nil)
    }

    @Test func mixesChannelByChannel() {
        let black = RingColor(red: 0, green: 0, blue: 0)
        let white = RingColor(red: 255, green: 255, blue: 255)
        #expect(black.mixed(with: white, by: 0) == black)
        #expect(black.mixed(with: white, by: 1) == white)
        #expect(black.mixed(with: white, by: 0.5) == RingColor(red: 128, green: 128, blue: 128))
    }
}
