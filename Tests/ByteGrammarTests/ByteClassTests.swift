import ByteGrammar
import Testing

/// Every byte's classes against the grammars' own character lists (RFC 3986 and 9110), and
/// every hex digit's value against the standard library's.
@Suite struct ByteClassTests {
    static let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    static let digits = "0123456789"

    static let expected: [(String, ByteClass, String)] = [
        ("digit", .digit, digits),
        ("alpha", .alpha, letters),
        ("hexDigit", .hexDigit, digits + "abcdefABCDEF"),
        ("unreserved", .unreserved, letters + digits + "-._~"),
        ("token", .token, letters + digits + "!#$%&'*+-.^_`|~"),
        ("scheme", .scheme, letters + digits + "+-."),
        ("whitespace", .whitespace, " \t"),
    ]

    @Test(arguments: 0...255)
    func everyByteIsInExactlyItsClasses(value: Int) {
        let byte = UInt8(value)
        for (name, member, characters) in Self.expected {
            #expect(member.contains(byte) == characters.utf8.contains(byte), "byte \(byte), \(name)")
        }
        let hex = Int(String(UnicodeScalar(byte)), radix: 16).map(UInt8.init)
        #expect(ByteClass.hexValue(byte) == (value < 0x80 ? hex : nil), "byte \(byte)")
    }
}
