/// Tick marks and target markers: each set one path of straight radial lines, over the bars.
extension SVGWriter {
    /// `marks` as one path, with the dark-scheme class `darkClass` when their colour switches.
    func writeMarks(_ marks: RingScene.Marks, darkClass: StaticString, into w: inout ByteWriter) {
        w.append("<path d=\"")
        for mark in marks.marks {
            let inner = point(at: mark.angle, radius: mark.inner)
            let outer = point(at: mark.angle, radius: mark.outer)
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
