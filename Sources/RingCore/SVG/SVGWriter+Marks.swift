/// Tick marks and target markers: each set one path of straight radial lines, over the bars.
extension SVGWriter {
    /// `marks` as one path, with the dark-scheme class `darkClass` when their colour switches.
    func writeMarks(_ marks: RingScene.Marks, darkClass: StaticString, into w: inout ByteWriter) {
        w.append("<path d=\"")
        for mark in marks.marks {
            let inner = mark.point(at: mark.inner, centerX: scene.centerX, centerY: scene.centerY)
            let outer = mark.point(at: mark.outer, centerX: scene.centerX, centerY: scene.centerY)
            w.write("M", (inner.x, " "), (inner.y, "L"), (outer.x, " "), (outer.y, ""))
        }
        w.append(byte: UInt8(ascii: "\""))
        if marks.color.dark != nil {
            w.append(" class=\"")
            className(darkClass, into: &w, selector: false)
            w.append(byte: UInt8(ascii: "\""))
        }
        w.append(" fill=\"none\"")
        paint("stroke", marks.color.color, into: &w)
        w.write(" stroke-width=\"", (marks.width, "\"/>"))
    }
}
