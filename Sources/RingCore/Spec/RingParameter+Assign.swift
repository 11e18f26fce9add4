extension RingParameter {
    /// Sets this parameter's field of `spec` from its decoded value, nil for a bare name
    /// without `=`. An exhaustive switch, so the compiler asks for every parameter's rule;
    /// `ParameterTableTests` checks each against the table's declared values and ranges.
    func assign(_ value: String?, to spec: inout RingSpec) throws(RingSpecError) {
        switch self {
        case .p:
            spec.values = try QueryValue.perRing(value ?? "", "p") { item throws(RingSpecError) in
                try QueryValue.decimal(item, "p")
            }
        case .min:
            spec.minimum = try QueryValue.perRing(value ?? "", "min") { item throws(RingSpecError) in
                try QueryValue.decimal(item, "min")
            }
        case .max:
            spec.maximum = try QueryValue.perRing(value ?? "", "max") { item throws(RingSpecError) in
                try QueryValue.decimal(item, "max")
            }
        case .slice:
            spec.slice = try QueryValue.decimal(value ?? "", "slice", in: RingLimits.slice)
        case .half:
            spec.half = try QueryValue.boolean(value, "half")
        case .start:
            let degrees = try QueryValue.decimal(value ?? "", "start").truncatingRemainder(dividingBy: 360)
            spec.start = degrees < 0 ? degrees + 360 : degrees + 0  // + 0 turns -0 into 0
        case .dir:
            spec.direction = try QueryValue.keyword(value ?? "", "dir")
        case .size:
            spec.size = try QueryValue.integer(value ?? "", "size", in: RingLimits.size)
        case .segments:
            spec.segments = try QueryValue.integer(value ?? "", "segments", in: RingLimits.segments)
        case .segmentGap:
            spec.segmentGap = try QueryValue.number(value ?? "", "segmentGap")
        case .scale:
            spec.scale = try QueryValue.integer(value ?? "", "scale", in: RingLimits.scale)
        case .width:
            spec.width = try QueryValue.number(value ?? "", "width")
        case .trackWidth:
            spec.trackWidth = try QueryValue.number(value ?? "", "trackWidth")
        case .gap:
            spec.gap = try QueryValue.number(value ?? "", "gap")
        case .color:
            spec.colors = try QueryValue.perRing(value ?? "", "color") { item throws(RingSpecError) in
                try QueryValue.color(item, "color")
            }
        case .gradient:
            spec.gradient = try QueryValue.colors(value ?? "", "gradient", count: RingLimits.gradientColors)
        case .track:
            spec.tracks = try QueryValue.perRing(value ?? "", "track") { item throws(RingSpecError) in
                item == "none" ? .none : .color(try QueryValue.color(item, "track"))
            }
        case .fill:
            spec.fill = try QueryValue.optionalColor(value ?? "", "fill")
        case .bg:
            spec.background = try QueryValue.optionalColor(value ?? "", "bg")
        case .outline:
            spec.outline = try QueryValue.optionalColor(value ?? "", "outline")
        case .cap:
            spec.cap = try QueryValue.keyword(value ?? "", "cap")
        case .label:
            switch value ?? "" {
            case "auto": spec.label = .auto
            case "none": spec.label = .none
            case "":
                throw .invalid(parameter: "label", value: "", expected: "auto, none or text")
            case let text:
                spec.label = .text(try QueryValue.text(text, "label", limit: RingLimits.labelScalars))
            }
        case .labelColor:
            let text = value ?? ""
            spec.labelColor = text == "bar" ? .bar : .color(try QueryValue.color(text, "labelColor"))
        case .caption:
            let text = value ?? ""
            guard !text.isEmpty else { throw .invalid(parameter: "caption", value: text, expected: "non-empty text") }
            spec.caption = try QueryValue.text(text, "caption", limit: RingLimits.captionScalars)
        case .captionColor:
            spec.captionColor = try QueryValue.color(value ?? "", "captionColor")
        case .thresholds:
            spec.thresholds = try QueryValue.thresholds(value ?? "", "thresholds", steps: RingLimits.thresholdSteps)
        case .decimals:
            spec.decimals = try QueryValue.integer(value ?? "", "decimals", in: RingLimits.decimals)
        case .theme:
            spec.theme = try QueryValue.keyword(value ?? "", "theme")
        case .anim:
            spec.animation = try QueryValue.decimal(value ?? "", "anim", in: RingLimits.animation)
        case .shadow:
            spec.shadow = try QueryValue.boolean(value, "shadow")
        case .title:
            let text = value ?? ""
            guard !text.isEmpty else { throw .invalid(parameter: "title", value: text, expected: "non-empty text") }
            spec.title = try QueryValue.text(text, "title", limit: RingLimits.titleScalars)
        }
    }
}
