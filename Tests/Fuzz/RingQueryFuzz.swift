// libFuzzer harness for query → RingSpec → SVG, compiled together with RingCore's sources by
// scripts/checks/fuzz.sh (not part of the Swift package).
//
// Input: arbitrary bytes taken as a query string.
// Checks: no crash or trap; a valid spec renders well-formed XML with no script, event
// attribute or external reference, and its canonical key parses back to the same spec (a live
// ring's too, and the ring its values make); an
// invalid one gives an error naming a parameter of the contract, or an unknown name shown
// safely with a suggestion from the contract, and `RingSpec.errors(inQuery:)` begins with it.

import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

private let parameterNames = Set(RingParameter.allCases.map(\.rawValue))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRingQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let query = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parsed: RingSpec
    do {
        parsed = try RingSpec(query: query)
    } catch {
        precondition(RingSpec.errors(inQuery: query).first == error, "errors(inQuery:) disagrees")
        if case .unknown(let name, let suggestion) = error {
            precondition(!parameterNames.contains(name), "\(name) is a parameter")
            precondition(suggestion.map(parameterNames.contains) ?? true, "suggests \(suggestion ?? "")")
            // Shown as it is only when plain ASCII; anything else quoted, with no raw controls.
            let plain = name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }
            precondition(plain || name.unicodeScalars.first == "\"", "name shown raw: \(name)")
            precondition(!name.unicodeScalars.contains { TextRules.isForbidden($0) }, "forbidden in \(name)")
        } else {
            precondition(parameterNames.contains(error.parameter), "error names \(error.parameter)")
        }
        precondition(error.description.hasPrefix(error.parameter + ": "), "message \(error.description)")
        let box = ErrorScene.Box(query: query)
        let image = ErrorImage.render(message: error.description, box: box)
        precondition(XMLParser(data: Data(image)).parse(), "error image is not well-formed")
        // Laid out inside its box, at a legible size, or as the mark.
        let scene = ErrorScene(message: error.description, box: box)
        precondition(scene.showsMark || scene.fontSize >= RingGeometry.minimumFontSize, "error text too small")
        for line in scene.lines {
            let half = TextWidth.em(line.text) * scene.fontSize / 2
            precondition(line.x - half >= 0 && line.x + half <= scene.width, "error line outside its box")
        }
        return 0
    }
    // A live ring is drawn once its values are read: as the service does, with one value a
    // ring (and a max when maxField asks for one), it must be a ring the URL could have written.
    var spec = parsed
    if spec.isLive {
        precondition((try? RingSpec(query: spec.canonicalKey)) == spec, "live canonical key does not round-trip")
        let values = spec.fields.map { _ in "50" }
        guard let ring = try? spec.resolving(values: values, maximums: spec.maxFields.map { _ in "100" }) else {
            return 0
        }
        precondition(
            !ring.isLive && (try? RingSpec(query: ring.canonicalKey)) == ring, "resolved ring does not round-trip")
        spec = ring
    }
    let svg = RingRenderer.render(spec)
    // Bounded per bar: each ring writes its own elements (a gradient bar, up to 60 sub-arcs of
    // its own), and a ring that laps two bars (the lap beneath and the top one), so four rings
    // may take four (or eight) times one bar's bytes, never more.
    let bars = spec.ringCount * (spec.overflow == .lap ? 2 : 1)
    precondition(svg.count < 64 * 1024 * bars, "SVG of \(svg.count) bytes for \(bars) bars")
    let checker = MarkupChecker()
    let parser = XMLParser(data: Data(svg))
    parser.delegate = checker
    precondition(parser.parse(), "not well-formed: \(query)")
    precondition(checker.problems.isEmpty, "\(checker.problems) in \(query)")
    precondition((try? RingSpec(query: spec.canonicalKey)) == spec, "canonical key does not round-trip")
    return 0
}

/// Collects elements outside the renderer's vocabulary, event attributes and references.
private final class MarkupChecker: NSObject, XMLParserDelegate {
    static let elements: Set<String> = [
        "svg", "title", "style", "defs", "filter", "feGaussianBlur", "mask", "linearGradient", "radialGradient", "stop",
        "rect", "circle",
        "path", "g", "text",
    ]
    var problems: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if !Self.elements.contains(name) { problems.append("element \(name)") }
        for (attribute, value) in attributes {
            if attribute.lowercased().hasPrefix("on") || attribute.contains("href") {
                problems.append("attribute \(attribute)")
            }
            if value.lowercased().contains("javascript:") { problems.append("value \(value)") }
            if value.contains("url("), !value.hasPrefix("url(#r") { problems.append("reference \(value)") }
        }
    }
}
