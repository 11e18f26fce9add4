/// An image that shows an error message, for places where only an image can speak: image
/// proxies such as GitHub's drop non-2xx answers, so a README author would otherwise see a
/// broken image and no reason. ``ErrorScene`` lays it out; this writes it as SVG.
package enum ErrorImage {
    /// Longest message shown, in unicode scalars; longer ones are cut with an ellipsis.
    package static let messageLimit = 120

    /// The text the image shows for `message`: prefixed, cut at ``messageLimit`` and with
    /// control and other forbidden characters replaced, so any message is safe to show.
    package static func text(for message: String) -> String {
        var text = "ring: "
        for (index, scalar) in message.unicodeScalars.enumerated() {
            guard index < messageLimit else {
                text += "…"
                break
            }
            text.unicodeScalars.append(TextRules.isForbidden(scalar) ? "\u{FFFD}" : scalar)
        }
        return text
    }

    /// The error image for `message`, laid out for `box` (text is escaped and cut, so any
    /// message is safe).
    package static func render(message: String, box: ErrorScene.Box = ErrorScene.Box()) -> [UInt8] {
        let scene = ErrorScene(message: message, box: box)
        var w = ByteWriter(capacity: 768 + scene.title.utf8.count * 4)
        SVGWriter.openDocument(width: scene.width, height: scene.height, title: scene.title, into: &w)
        w.append("<rect x=\"0.5\" y=\"0.5\" width=\"")
        w.append(number: scene.width - ErrorScene.borderWidth)
        w.append("\" height=\"")
        w.append(number: scene.height - ErrorScene.borderWidth)
        w.append("\" rx=\"")
        w.append(number: ErrorScene.cornerRadius)
        w.append("\" fill=\"")
        w.append(rgb: ErrorScene.background)
        w.append("\" stroke=\"")
        w.append(rgb: ErrorScene.border)
        w.append("\"/>")
        if scene.showsMark {
            let mark = ErrorMark(scene)
            disc(x: mark.centreX, y: mark.centreY, radius: mark.radius, fill: ErrorScene.border, into: &w)
            w.append("<path d=\"M")
            w.append(number: mark.centreX)
            w.append(byte: UInt8(ascii: " "))
            w.append(number: mark.stemTop)
            w.append("V")
            w.append(number: mark.stemBottom)
            w.append("\" stroke=\"#fff\" stroke-width=\"")
            w.append(number: mark.strokeWidth)
            w.append("\" stroke-linecap=\"round\"/>")
            disc(x: mark.centreX, y: mark.dotY, radius: mark.strokeWidth / 2, fill: RingColor(rgb: 0xFFFFFF), into: &w)
        }
        for line in scene.lines {
            SVGWriter.openText(x: line.x, baseline: line.baseline, fontSize: scene.fontSize, into: &w)
            w.append(" fill=\"")
            w.append(rgb: ErrorScene.ink)
            w.append("\">")
            w.append(escaping: line.text)
            w.append("</text>")
        }
        w.append("</svg>")
        return w.bytes
    }

    private static func disc(x: Double, y: Double, radius: Double, fill: RingColor, into w: inout ByteWriter) {
        SVGWriter.circle(x: x, y: y, radius: radius, into: &w)
        w.append(" fill=\"")
        w.append(rgb: fill)
        w.append("\"/>")
    }
}

/// Where the error mark's parts go: a disc in the box's centre with a white `!`, a
/// round-capped stem and a dot (a disc: renderers disagree on a zero-length stroke's caps).
package struct ErrorMark: Sendable {
    package var centreX: Double
    package var centreY: Double
    package var radius: Double
    package var strokeWidth: Double
    package var stemTop: Double
    package var stemBottom: Double
    package var dotY: Double

    package init(_ scene: ErrorScene) {
        centreX = scene.width / 2
        centreY = scene.height / 2
        radius = min(scene.width, scene.height) * 0.3
        strokeWidth = radius * 0.28
        stemTop = centreY - radius * 0.5
        stemBottom = centreY + radius * 0.1
        dotY = centreY + radius * 0.5
    }
}
