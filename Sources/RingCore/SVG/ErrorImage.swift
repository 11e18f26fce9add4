/// A small SVG that shows an error message, for places where only an image can speak:
/// image proxies such as GitHub's drop non-2xx answers, so a README author would otherwise see
/// a broken image and no reason.
public enum ErrorImage {
    /// Longest message shown, in unicode scalars; longer ones are cut with an ellipsis.
    public static let messageLimit = 120

    /// The text the image shows for `message`: prefixed, cut at ``messageLimit`` and with
    /// control and other forbidden characters replaced, so any message is safe to show.
    public static func text(for message: String) -> String {
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

    /// The error image for `message` (text is escaped and cut, so any message is safe).
    public static func render(message: String) -> [UInt8] {
        let text = text(for: message)
        let fontSize = 12.0
        // Regular weight is about 10 % narrower than the bold the width table assumes.
        let width = (TextWidth.em(text) / 1.1 * fontSize + 20).rounded(.up).clamped(to: 120...1024)
        var w = ByteWriter(capacity: 512 + text.utf8.count * 2)
        w.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        w.append(number: width)
        w.append("\" height=\"28\" viewBox=\"0 0 ")
        w.append(number: width)
        w.append(" 28\" role=\"img\" aria-label=\"")
        w.append(escaping: text)
        w.append("\"><title>")
        w.append(escaping: text)
        w.append("</title><rect x=\"0.5\" y=\"0.5\" width=\"")
        w.append(number: width - 1)
        w.append("\" height=\"27\" rx=\"4\" fill=\"#fff1f0\" stroke=\"#cf222e\"/>")
        w.append("<text x=\"10\" y=\"18\" font-family=\"Verdana,DejaVu Sans,Helvetica,Arial,sans-serif\"")
        w.append(" font-size=\"12\" fill=\"#82071e\">")
        w.append(escaping: text)
        w.append("</text></svg>")
        return w.bytes
    }
}
