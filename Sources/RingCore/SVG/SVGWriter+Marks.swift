/// Tick marks and target markers: each set one path of straight radial lines, over the bars,
/// on a halo of its own when it has one.
extension SVGWriter {
    /// `marks` as one path, with the dark-scheme class `darkClass` when their colour switches;
    /// first their halo, the same lines wider, with `haloClass`.
    func writeMarks(
        _ marks: RingScene.Marks, darkClass: StaticString, haloClass: StaticString, into w: inout ByteWriter
    ) {
        if let halo = marks.halo {
            writeLines(marks, color: halo, width: marks.haloWidth, darkClass: haloClass, into: &w)
        }
        writeLines(marks, color: marks.color, width: marks.width, darkClass: darkClass, into: &w)
    }

    private func writeLines(
        _ marks: RingScene.Marks, color: RingScene.SchemeColor, width: Double, darkClass: StaticString,
        into w: inout ByteWriter
    ) {
        w.append("<path d=\"")
        for mark in marks.marks {
            let inner = mark.point(at: mark.inner, centerX: scene.centerX, centerY: scene.centerY)
            let outer = mark.point(at: mark.outer, centerX: scene.centerX, centerY: scene.centerY)
            w.write("M", (inner.x, " "), (inner.y, "L"), (outer.x, " "), (outer.y, ""))
        }
        w.append(byte: UInt8(ascii: "\""))
        if color.dark != nil {
            w.append(" class=\"")
            className(darkClass, into: &w, selector: false)
            w.append(byte: UInt8(ascii: "\""))
        }
        w.append(" fill=\"none\"")
        paint("stroke", color.color, into: &w)
        w.write(" stroke-width=\"", (width, "\"/>"))
    }
}
