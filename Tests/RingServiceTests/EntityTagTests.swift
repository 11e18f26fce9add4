import Testing

@testable import RingService

@Suite struct EntityTagTests {
    @Test(arguments: [
        ("\"a\"", true), ("W/\"a\"", true), ("*", true), ("\"b\", \"a\"", true), (" \"b\" ,\t\"a\" ", true),
        ("\"b\"", false), ("a", false), ("", false), ("\"A\"", false),
    ])
    func weakComparison(header: String, matches: Bool) {
        #expect(EntityTag.matches(header, etag: "\"a\"") == matches)
    }
}
