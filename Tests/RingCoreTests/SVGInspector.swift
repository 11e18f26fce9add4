import Foundation
import RingCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Parses an SVG with Foundation's XMLParser and keeps every element, its attributes and
/// its character data, so tests can check structure instead of bytes.
final class SVGInspector: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private(set) var parseError: (any Error)?

    /// Parses `bytes`; `isWellFormed` tells whether the parser accepted them.
    init(_ bytes: [UInt8]) {
        super.init()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = self
        if !parser.parse() { parseError = parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    var isWellFormed: Bool { parseError == nil }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: name, attributes: attributes))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let current = open.last { elements[current].text += string }
    }

    func elements(named name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The points of a path made of `M x y` and `A r r 0 large sweep x y` commands.
    static func pathPoints(_ d: String) -> (points: [(Double, Double)], radius: Double, clockwise: Bool)? {
        var numbers: [Double] = []
        var commands: [Character] = []
        var token = ""
        func flush() {
            if !token.isEmpty, let value = Double(token) { numbers.append(value) }
            token = ""
        }
        // Only paths of arcs on one circle: an outline contour (caps, lines) is not one.
        guard !d.contains("L") else { return nil }
        for character in d {
            if character == "M" || character == "A" || character == "Z" {
                flush()
                commands.append(character)
            } else if character == " " {
                flush()
            } else if character == "-", !token.isEmpty {
                flush()
                token.append(character)
            } else {
                token.append(character)
            }
        }
        flush()
        guard commands.first == "M", numbers.count >= 2 else { return nil }
        var points = [(numbers[0], numbers[1])]
        var radius = 0.0
        var clockwise = true
        var index = 2
        for command in commands.dropFirst() where command == "A" {
            guard index + 7 <= numbers.count else { return nil }
            guard radius == 0 || radius == numbers[index] else { return nil }
            radius = numbers[index]
            clockwise = numbers[index + 4] == 1
            points.append((numbers[index + 5], numbers[index + 6]))
            index += 7
        }
        return (points, radius, clockwise)
    }

    /// Every point a path names: its move, line and arc end points.
    static func vertices(_ d: String) -> [(Double, Double)] {
        let numbers = d.split { "MALZ ".contains($0) }.compactMap { Double($0) }
        var points: [(Double, Double)] = []
        var index = 0
        for command in d where "MAL".contains(command) {
            let count = command == "A" ? 7 : 2
            guard index + count <= numbers.count else { break }
            points.append((numbers[index + count - 2], numbers[index + count - 1]))
            index += count
        }
        return points
    }

    /// Degrees clockwise from 12 o'clock of a point around a centre, in 0..<360.
    static func angle(of point: (Double, Double), center: (Double, Double)) -> Double {
        let degrees = atan2(point.0 - center.0, center.1 - point.1) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}
