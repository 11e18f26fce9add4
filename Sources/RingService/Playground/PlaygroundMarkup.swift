import RingCore

/// The playground's HTML, CSS and JavaScript, from the files in Markup/ (embedded by
/// scripts/generators/make-playground.py) with the parameter table written in. Kept apart from the
/// response so the policy hashes cover exactly the text between `<script>` / `<style>` and
/// their end tags.
enum PlaygroundMarkup {
    static func html(style: String, script: String) -> String {
        pageFile.replacing("{{style}}", with: style).replacing("{{reference}}", with: reference)
            .replacing("{{script}}", with: script)
    }

    /// Every parameter with its meaning, values and default, from the table the parser reads:
    /// the reference the footer links to, true for this server's version.
    static let reference: String = {
        var rows = ""
        for group in RingParameter.Group.allCases {
            rows +=
                "<tr class=\"group\"><th colspan=\"4\" scope=\"rowgroup\">"
                + escaped(PlaygroundFields.title(of: group)) + "</th></tr>\n"
            for definition in RingParameter.Definition.all where definition.group == group {
                rows +=
                    "<tr id=\"r-\(definition.name)\"><td><code>\(definition.name)</code></td><td>"
                    + [definition.summary, definition.values, definition.defaultText].map(escaped)
                    .joined(separator: "</td><td>") + "</td></tr>\n"
            }
        }
        return """
            <section id="reference" aria-labelledby="reference-title">
            <h2 id="reference-title">Parameters</h2>
            <div class="table"><table>
            <thead><tr><th scope="col">name</th><th scope="col">meaning</th><th scope="col">values</th>\
            <th scope="col">default</th></tr></thead>
            <tbody>
            \(rows)</tbody></table></div>
            </section>
            """
    }()

    /// Text as HTML character data and attribute values.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Desktop: controls on the left, the preview and snippets in a sticky column on the right.
    /// Phone (up to 760 px): the column dissolves (`display: contents`) so the preview sits
    /// above the controls and stays at the top while they scroll under it, and the snippets
    /// come after the controls.
    static let style = styleFile

    /// The page's behaviour, with the parameter table's controls written in.
    static let script = scriptFile.replacing(
        "/* {{fields}}: the parameter table, written by PlaygroundFields */", with: PlaygroundFields.javaScript)
}
