/// An image that shows an error message, for places where only an image can speak: image
/// proxies such as GitHub's drop non-2xx answers, so a README author would otherwise see a
/// broken image and no reason. ``ErrorScene`` lays it out; this writes it as SVG.
package enum ErrorImage {
    /// Longest message shown, in unicode scalars; longer ones are cut with an ellipsis.
    package static let messageLimit = 120

    /// What every message is prefixed with, where there is room.
    static let prefix = "ring: "

    /// The text the image shows for `message`: prefixed, cut at ``messageLimit`` and with
    /// control and other forbidden characters replaced, so any message is safe to show.
    package static func text(for message: String) -> String {
        var text = prefix
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
        w.write(
            "<rect x=\"0.5\" y=\"0.5\" width=\"", (scene.width - ErrorScene.borderWidth, "\" height=\""),
            (scene.height - ErrorScene.borderWidth, "\" rx=\""), (ErrorScene.cornerRadius, "\" fill=\""),
            (ErrorScene.background, "\" stroke=\""), (ErrorScene.border, "\"/>"))
        if scene.showsMark {
            let mark = ErrorMark(scene)
            disc(x: mark.centreX, y: mark.centreY, radius: mark.radius, fill: ErrorScene.border, into: &w)
            w.write(
                "<path d=\"M", (mark.centreX, " "), (mark.stemTop, "V"),
                (mark.stemBottom, "\" stroke=\"#fff\" stroke-width=\""),
                (mark.strokeWidth, "\" stroke-linecap=\"round\"/>"))
            disc(x: mark.centreX, y: mark.dotY, radius: mark.strokeWidth / 2, fill: RingColor(rgb: 0xFFFFFF), into: &w)
        }
        for line in scene.lines {
            SVGWriter.openText(x: line.x, baseline: line.baseline, fontSize: scene.fontSize, into: &w)
            w.write(" fill=\"", (ErrorScene.ink, "\">"))
            w.append(escaping: line.text)
            w.append("</text>")
        }
        w.append("</svg>")
        return w.bytes
    }

    private static func disc(x: Double, y: Double, radius: Double, fill: RingColor, into w: inout ByteWriter) {
        SVGWriter.circle(x: x, y: y, radius: radius, into: &w)
        w.write(" fill=\"", (fill, "\"/>"))
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
