/// A value an element's template writes between its static pieces.
package protocol TemplateValue {
    func write(into w: inout ByteWriter)
}

extension Double: TemplateValue {
    /// At most two decimals, trailing zeros dropped: the precision of the SVG's lengths.
    @inline(__always)
    package func write(into w: inout ByteWriter) { w.append(number: self) }
}

extension Int: TemplateValue {
    @inline(__always)
    package func write(into w: inout ByteWriter) { w.append(integer: self) }
}

extension RingColor: TemplateValue {
    /// `#rrggbb`; the opacity is the template's to write.
    @inline(__always)
    package func write(into w: inout ByteWriter) { w.append(rgb: self) }
}

/// A number at a precision other than the default two decimals.
package struct Decimals: TemplateValue {
    let value: Double
    let digits: Int

    @inline(__always)
    package init(_ value: Double, _ digits: Int) {
        self.value = value
        self.digits = digits
    }

    @inline(__always)
    package func write(into w: inout ByteWriter) { w.append(number: value, decimals: digits) }
}

extension ByteWriter {
    // One element, or one run of it, as a template: its first static piece, then each value
    // with the static text that follows it:
    //
    //     w.write("<circle cx=\"", (x, "\" cy=\""), (y, "\" r=\""), (radius, "\"/>"))
    //
    // The pieces are `StaticString`s (copied, never scanned) and the values are written in
    // place, so a template costs what the appends it stands for cost. Overloads for one to
    // seven values (the most an element has) rather than a parameter pack: a pack of tuples is not specialised, and
    // looked its tuple types up at run time on every call (+50 % on the default ring).

    /// Appends `first`, then each value and the static text after it.
    @inline(__always)
    package mutating func write<V0: TemplateValue>(_ first: StaticString, _ p0: (V0, StaticString)) {
        append(first)
        p0.0.write(into: &self)
        append(p0.1)
    }

    /// ``write(_:_:)`` with 2 values.
    @inline(__always)
    package mutating func write<V0: TemplateValue, V1: TemplateValue>(
        _ first: StaticString, _ p0: (V0, StaticString), _ p1: (V1, StaticString)
    ) {
        append(first)
        p0.0.write(into: &self)
        append(p0.1)
        p1.0.write(into: &self)
        append(p1.1)
    }

    /// ``write(_:_:)`` with 3 values.
    @inline(__always)
    package mutating func write<V0: TemplateValue, V1: TemplateValue, V2: TemplateValue>(
        _ first: StaticString, _ p0: (V0, StaticString), _ p1: (V1, StaticString), _ p2: (V2, StaticString)
    ) {
        append(first)
        p0.0.write(into: &self)
        append(p0.1)
        p1.0.write(into: &self)
        append(p1.1)
        p2.0.write(into: &self)
        append(p2.1)
    }

    /// ``write(_:_:)`` with 4 values.
    @inline(__always)
    package mutating func write<V0: TemplateValue, V1: TemplateValue, V2: TemplateValue, V3: TemplateValue>(
        _ first: StaticString, _ p0: (V0, StaticString), _ p1: (V1, StaticString), _ p2: (V2, StaticString),
        _ p3: (V3, StaticString)
    ) {
        append(first)
        p0.0.write(into: &self)
        append(p0.1)
        p1.0.write(into: &self)
        append(p1.1)
        p2.0.write(into: &self)
        append(p2.1)
        p3.0.write(into: &self)
        append(p3.1)
    }

    /// ``write(_:_:)`` with 5 values.
    @inline(__always)
    package mutating func write<
        V0: TemplateValue, V1: TemplateValue, V2: TemplateValue, V3: TemplateValue, V4: TemplateValue
    >(
        _ first: StaticString, _ p0: (V0, StaticString), _ p1: (V1, StaticString), _ p2: (V2, StaticString),
        _ p3: (V3, StaticString), _ p4: (V4, StaticString)
    ) {
        append(first)
        p0.0.write(into: &self)
        append(p0.1)
        p1.0.write(into: &self)
        append(p1.1)
        p2.0.write(into: &self)
        append(p2.1)
        p3.0.write(into: &self)
        append(p3.1)
        p4.0.write(into: &self)
        append(p4.1)
    }

    /// ``write(_:_:)`` with 6 values.
    @inline(__always)
    package mutating func write<
        V0: TemplateValue, V1: TemplateValue, V2: TemplateValue, V3: TemplateValue, V4: TemplateValue, V5: TemplateValue
    >(
        _ first: StaticString, _ p0: (V0, StaticString), _ p1: (V1, StaticString), _ p2: (V2, StaticString),
        _ p3: (V3, StaticString), _ p4: (V4, StaticString), _ p5: (V5, StaticString)
    ) {
        append(first)
        p0.0.write(into: &self)
        append(p0.1)
        p1.0.write(into: &self)
        append(p1.1)
        p2.0.write(into: &self)
        append(p2.1)
        p3.0.write(into: &self)
        append(p3.1)
        p4.0.write(into: &self)
        append(p4.1)
        p5.0.write(into: &self)
        append(p5.1)
    }

    /// ``write(_:_:)`` with 7 values.
    @inline(__always)
    package mutating func write<
        V0: TemplateValue, V1: TemplateValue, V2: TemplateValue, V3: TemplateValue, V4: TemplateValue,
        V5: TemplateValue, V6: TemplateValue
    >(
        _ first: StaticString, _ p0: (V0, StaticString), _ p1: (V1, StaticString), _ p2: (V2, StaticString),
        _ p3: (V3, StaticString), _ p4: (V4, StaticString), _ p5: (V5, StaticString), _ p6: (V6, StaticString)
    ) {
        append(first)
        p0.0.write(into: &self)
        append(p0.1)
        p1.0.write(into: &self)
        append(p1.1)
        p2.0.write(into: &self)
        append(p2.1)
        p3.0.write(into: &self)
        append(p3.1)
        p4.0.write(into: &self)
        append(p4.1)
        p5.0.write(into: &self)
        append(p5.1)
        p6.0.write(into: &self)
        append(p6.1)
    }
}
