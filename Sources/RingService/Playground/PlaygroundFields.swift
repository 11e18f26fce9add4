import RingCore

/// The playground's form controls as JavaScript arrays, derived from the contract's parameter
/// table: a parameter added to the table gets its control here without a line of page code.
/// Grouped as the docs group them, one fieldset a group.
enum PlaygroundFields {
    /// `const groups = [...]; const fields = [...]; const presets = [...];`
    static let javaScript: String = {
        var lines: [String] = []
        for group in RingParameter.Group.allCases {
            for definition in RingParameter.Definition.all where definition.group == group {
                lines.append("  " + object(field(definition)))
            }
        }
        let groups = RingParameter.Group.allCases.map { group in
            "  " + object([("name", .text(group.rawValue)), ("title", .text(title(of: group)))])
        }
        let presets = PlaygroundFields.presets.map {
            "  " + object([("title", .text($0.title)), ("query", .text($0.query))])
        }
        return "const groups = [\n" + groups.joined(separator: ",\n") + ",\n];\n"
            + "const fields = [\n" + lines.joined(separator: ",\n") + ",\n];\n"
            + "const presets = [\n" + presets.joined(separator: ",\n") + ",\n];"
    }()

    /// A fieldset's legend.
    static func title(of group: RingParameter.Group) -> String {
        switch group {
        case .value: "Value and range"
        case .shape: "Shape"
        case .size: "Size and thickness"
        case .colour: "Colours"
        case .text: "Text"
        case .effects: "Effects"
        }
    }

    /// The preset row: a few rings from the catalogue the golden tests render, each showing
    /// what a group of parameters does. Named by catalogue entry, so a preset cannot drift
    /// from a ring the tests check; `PlaygroundTests` fails when a name is not in it.
    static let presetNames: [(title: String, example: String)] = [
        ("Gauge", "slice"), ("Half", "half"), ("Segments", "segments"), ("Thresholds", "thresholds-high"),
        ("Activity rings", "rings-activity"), ("Laps", "laps-gradient"), ("Ticks and target", "ticks-slice"),
        ("Test results", "stack"),
    ]

    static let presets: [(title: String, query: String)] = presetNames.compactMap { preset in
        RingExamples.all.first { $0.name == preset.example }.map { (preset.title, $0.query) }
    }

    /// One control: its input type and attributes, the default the page leaves out of URLs,
    /// and for colours the swatch each scheme shows when the field is empty.
    private static func field(_ definition: RingParameter.Definition) -> [(String, Value)] {
        var field: [(String, Value)] = [
            ("name", .text(definition.name)), ("label", .text(definition.title)), ("hint", .text(definition.summary)),
            ("group", .text(definition.group.rawValue)),
        ]
        let literal = definition.defaultValue ?? ""
        switch definition.kind {
        case .decimal where definition.perRing:
            // One value, or a comma-separated list of one per ring: text, not a number input.
            field += [
                ("type", .text("text")), ("def", .text(literal)), ("inputmode", .text("decimal")),
                ("placeholder", .text(definition.defaultValue ?? definition.example)),
            ]
        case .decimal(let range?) where range.upperBound <= 1:
            field += [
                ("type", .text("range")), ("def", .text(literal)), ("min", .text(RingLimits.plain(range.lowerBound))),
                ("max", .text(RingLimits.plain(range.upperBound))), ("step", .text("0.01")),
            ]
        case .decimal(let range):
            field += [("type", .text("number")), ("def", .text(literal)), ("step", .text("any"))]
            if let range {
                field += [
                    ("min", .text(RingLimits.plain(range.lowerBound))),
                    ("max", .text(RingLimits.plain(range.upperBound))),
                ]
            }
            if definition.defaultValue == nil { field.append(("placeholder", .text(definition.defaultText))) }
        case .length:
            // The upper bound follows `size`; the ring's own error says it when a value passes it.
            field += [("type", .text("number")), ("def", .text(literal)), ("step", .text("any")), ("min", .text("0"))]
            if definition.defaultValue == nil { field.append(("placeholder", .text(definition.defaultText))) }
        case .integer(let range) where range.count <= 8:
            field += [("type", .text("select")), ("def", .text(literal)), ("options", .list(range.map(String.init)))]
        case .integer(let range):
            field += [
                ("type", .text("number")), ("def", .text(literal)), ("min", .text(String(range.lowerBound))),
                ("max", .text(String(range.upperBound))), ("step", .text("1")),
            ]
        case .boolean:
            field += [("type", .text("checkbox")), ("def", .flag(false))]
        case .keyword(let words):
            field += [("type", .text("select")), ("def", .text(literal)), ("options", .list(words))]
        case .locale(let tags):
            // Empty: no locale, the percentages as `72%`.
            field += [("type", .text("select")), ("def", .text("")), ("options", .list([""] + tags))]
        case .color(let light, let dark, _):
            field += [
                ("type", .text("color")), ("def", .text("")), ("placeholder", .text(definition.defaultText)),
                ("light", light.map { .text(hex($0)) } ?? .null), ("dark", dark.map { .text(hex($0)) } ?? .null),
            ]
        case .source, .paths:
            field += [
                ("type", .text("text")), ("def", .text("")), ("placeholder", .text(definition.example)),
                ("wide", .flag(definition.kind == .source)),
            ]
        case .moment:
            field += [("type", .text("text")), ("def", .text("")), ("placeholder", .text(definition.example))]
        case .colors, .thresholds:
            field += [("type", .text("text")), ("def", .text("")), ("placeholder", .text(definition.example))]
        case .text:
            field += [
                ("type", .text("text")), ("def", .text("")), ("placeholder", .text(definition.defaultText)),
                ("wide", .flag(true)),
            ]
        }
        if definition.parameter == .p {
            field.removeAll { $0.0 == "placeholder" }
            field += [("required", .flag(true)), ("placeholder", .text("72 or 72,45,90"))]
        }
        return field
    }

    private enum Value {
        case text(String)
        case list([String])
        case flag(Bool)
        case null
    }

    private static func object(_ pairs: [(String, Value)]) -> String {
        "{" + pairs.map { key, value in "\(key): \(literal(value))" }.joined(separator: ", ") + "}"
    }

    private static func literal(_ value: Value) -> String {
        switch value {
        case .text(let text): quoted(text)
        case .list(let items): "[" + items.map(quoted).joined(separator: ", ") + "]"
        case .flag(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }

    /// A JavaScript string literal that is also safe inside `<script>`: `<`, `>` and `&` are
    /// escaped, so no text from the table can end the element.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            case _ where scalar.value < 0x20:
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func hex(_ color: RingColor) -> String {
        "#" + [color.red, color.green, color.blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
