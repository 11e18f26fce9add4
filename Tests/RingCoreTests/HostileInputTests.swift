import Foundation
import Testing

@testable import RingCore

/// Every parameter against a catalogue of hostile values: the answer is either an error that
/// names that parameter in one short line, or an SVG in which nothing of the value became
/// markup, an event handler, a script URL or an external reference.
@Suite struct HostileInputTests {
    static let values: [String] = [
        "<script>alert(1)</script>", "\"><svg onload=alert(1)>", "'><g onclick='x'>", "]]>", "<![CDATA[", "&amp;",
        "&#x3C;script&#x3E;", "&lt;", "\u{0}", "\u{1}\u{7}\u{1B}[31m", "a\r\nX-Injected: 1", "\u{202E}gnp.exe",
        "\u{2066}x\u{2069}", "\u{FEFF}", "\u{FFFF}", "𝕏🙂", String(repeating: "A", count: 10_000),
        String(repeating: "9", count: 400), "1e400", "1e-400", "NaN", "nan", "-Infinity", "inf", "0x10", "0b1", "1_0",
        "", " ", "+", "-", ".", "-0", "99999999999999999999999", "0.00000000000000000001", "javascript:alert(1)",
        "url(http://evil.example/x)", "url(#x)", "expression(alert(1))", "red;stroke:url(http://x)", "%", "%zz", "%00",
        "%3Cscript%3E", "&", "=", "\\", "{p}{p}{p}", "red,blue,", String(repeating: "red,", count: 100) + "red",
    ]

    static let parameters = RingParameter.allCases.map(\.rawValue)

    static let allowedElements: Set<String> = [
        "svg", "title", "style", "defs", "filter", "feGaussianBlur", "mask", "linearGradient", "stop", "rect", "circle",
        "path", "g", "text",
    ]

    @Test(arguments: parameters)
    func hostileValuesStayInert(parameter: String) throws {
        var rendered = 0
        var refused = 0
        for value in Self.values {
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            // Raw (undecoded) forms too: the parser must cope with broken escapes itself.
            for form in [encoded, value.replacingOccurrences(of: "&", with: "%26")] {
                let query = parameter == "p" ? "p=\(form)" : "p=50&\(parameter)=\(form)"
                do {
                    let spec = try RingSpec(query: query)
                    let svg = RingRenderer.render(spec)
                    try Self.checkInert(svg, query: query)
                    rendered += 1
                } catch let error as RingSpecError {
                    #expect(error.parameter == parameter || error.parameter == "half", "\(query) → \(error)")
                    let message = error.description
                    #expect(message.count < 200, "message of \(message.count) characters")
                    #expect(!message.unicodeScalars.contains { TextRules.isForbidden($0) }, "\(message)")
                    try Self.checkInert(ErrorImage.render(message: message), query: query)
                    refused += 1
                }
            }
        }
        #expect(rendered + refused == Self.values.count * 2)
    }

    /// The biggest ring the contract allows stays small: an upper bound on output per request.
    @Test func largestSpecIsBounded() throws {
        let wide = String(repeating: "\u{5168}", count: RingLimits.labelScalars)
        let title = String(repeating: "&", count: RingLimits.titleScalars)
        let query =
            "p=99.999&size=1024&width=341&trackWidth=341&gradient="
            + ["f001", "0f02", "00f3", "ff04", "0ff5", "f0f6", "fff7", "0008"].joined(separator: ",")
            + "&outline=fff8&fill=0008&bg=1238&shadow=1&anim=10&decimals=3&dir=ccw&start=12.5&cap=round&theme=auto"
            + "&label=" + wide.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            + "&title=" + title.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let svg = RingRenderer.render(try RingSpec(query: query))
        #expect(svg.count < 48 * 1024, "\(svg.count) bytes")
        try Self.checkInert(svg, query: query)
    }

    static func checkInert(_ svg: [UInt8], query: String) throws {
        let inspector = SVGInspector(svg)
        #expect(inspector.isWellFormed, "\(query)")
        for element in inspector.elements {
            #expect(allowedElements.contains(element.name), "\(query): element \(element.name)")
            for (name, value) in element.attributes {
                #expect(!name.lowercased().hasPrefix("on"), "\(query): attribute \(name)")
                #expect(!name.contains("href"), "\(query): attribute \(name)")
                // aria-label is text for screen readers; a quoted value there is inert.
                if name == "aria-label" { continue }
                #expect(!value.lowercased().contains("javascript:"), "\(query): \(name)=\(value)")
                if value.contains("url(") {
                    // Only the ring's own ids: `r`, 32 hex digits of the digest, a short suffix.
                    let id = value.dropFirst(6).dropLast()
                    #expect(
                        value.hasPrefix("url(#r") && value.hasSuffix(")") && id.count > 33 && id.count <= 38
                            && id.prefix(32).allSatisfy(\.isHexDigit) && id.dropFirst(32).first == "-"
                            && id.dropFirst(33).allSatisfy { $0.isLowercase || $0.isNumber }, "\(query): \(value)")
                }
            }
            if element.name == "style" {
                #expect(!element.text.contains("url("), "\(query): style \(element.text)")
                #expect(!element.text.contains("@import"), "\(query): style \(element.text)")
            }
        }
    }
}
