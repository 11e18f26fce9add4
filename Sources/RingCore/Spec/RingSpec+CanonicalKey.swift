import ByteGrammar

extension RingSpec {
    /// A query string that names this ring and no other: parameters in contract order, only
    /// those that differ from their defaults, numbers as plain decimals (`72`, not `72.0`), colours as
    /// lowercase `rrggbbaa`, `start` normalised to 0…360. `p=72&color=ff0000` and
    /// `color=%23FF0000&p=72.0` both give `p=72&color=ff0000ff`.
    ///
    /// It is itself a valid query for the same ring.
    public var canonicalKey: String {
        var spec = self
        var writer = ByteWriter(capacity: 64)
        Self.writeCanonicalKey(of: &spec, into: &writer)
        return writer.text
    }

    /// ``canonicalKey`` as its pairs, each value percent-decoded: the parameters that differ
    /// from their defaults, in contract order, as `/ring.json` shows them.
    package var canonicalParameters: [(name: String, value: String)] {
        canonicalKey.split(separator: "&").map { pair in
            let name = pair.prefix { $0 != "=" }
            var value = String(pair.dropFirst(name.count + 1))
            let decoded = value.withUTF8 { QueryValue.decode($0) }
            return (String(name), decoded ?? value)
        }
    }

    /// This ring's identity: SHA-256 of ``canonicalKey``, truncated to 128 bits. The same on
    /// every process, machine and Swift version (unlike Swift's seeded `Hasher`), and not
    /// collidable by a URL's author. The cache, the ETag and the SVG's element ids use it.
    public var digest: RingDigest {
        var spec = self
        return Self.digest(of: &spec)
    }

    /// ``digest`` of a spec the caller can lend mutably, so the walk over the table reads its
    /// fields in place rather than from a copy (nothing is changed). The render path uses it.
    package static func digest(of spec: inout RingSpec) -> RingDigest {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { scratch in
            var writer = ByteWriter(scratch: scratch)
            writeCanonicalKey(of: &spec, into: &writer)
            return writer.withBytes { RingDigest(of: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes the key straight into bytes: each parameter of the table whose value is not its
    /// default, as `name=value`, in contract order. The spec is the normalised one the parser
    /// gives; a spec built in code is normalised first (``RingSpec/normalized()``).
    static func writeCanonicalKey(of spec: inout RingSpec, into w: inout ByteWriter) {
        var writer = KeyWriter(w: w)
        RingParameter.declare(to: &writer, in: &spec)
        w = writer.w
    }
}

/// Walks the table for ``RingSpec/writeCanonicalKey(of:into:)``.
private struct KeyWriter: ParameterVisitor, ~Copyable {
    typealias Failure = Never
    var w: ByteWriter

    @inline(__always)
    mutating func visit<Codec: ParameterCodec>(
        _ parameter: RingParameter, _ field: WritableKeyPath<RingSpec, Codec.Value>, _ codec: Codec,
        _ about: @autoclosure () -> ParameterAbout, in spec: inout RingSpec
    ) {
        let value = spec[keyPath: field]
        guard codec.identifiesRing, !codec.isDefault(value, in: spec) else { return }
        // p is first, and always there but in a live ring, whose values are the document's:
        // its placeholders stay out, and src comes first.
        if parameter == .p, spec.isLive || spec.isTimed { return }
        if parameter != .p && parameter != .src && !(parameter == .from && spec.isTimed) {
            w.append(byte: UInt8(ascii: "&"))
        }
        w.append(name: parameter)
        w.append(byte: UInt8(ascii: "="))
        codec.write(value, into: &w)
    }
}

extension ByteWriter {
    /// A parameter's name, as the query spells it.
    @inline(__always)
    mutating func append(name parameter: RingParameter) {
        var name = parameter.rawValue
        name.withUTF8 { append(raw: UnsafeRawBufferPointer($0)) }
    }
}

/// The pieces canonical keys are written with, one per kind of value.
enum CanonicalKey {
    /// A number's canonical text, a function of the `Double` alone and always a plain decimal
    /// the parser accepts: values exact in six decimals use the fixed-point writer, anything
    /// else the shortest round-trip digits, with an exponent spelled out as zeros.
    static func number(_ value: Double, into w: inout ByteWriter) {
        let scaled = value * 1_000_000
        if scaled.magnitude < 9e15, scaled.rounded() == scaled, scaled / 1_000_000 == value {
            w.append(number: value, decimals: 6)
            return
        }
        // The shortest round-trip digits, copied as one run of bytes when they hold no
        // exponent (every value from 1e-4 up): walking a `String`'s UTF-8 view byte by byte,
        // twice, cost about 60 instructions a byte.
        var text = value.description
        let plain = text.withUTF8 { digits in
            guard !digits.contains(UInt8(ascii: "e")) else { return false }
            w.append(raw: UnsafeRawBufferPointer(digits))
            return true
        }
        if !plain { for byte in plainDecimal(text).utf8 { w.append(byte: byte) } }
    }

    /// `6.3e-07` → `0.00000063`; text without an exponent is returned as it is. Validated
    /// numbers lie within 1e-9…1e12 in magnitude, where Swift prints positive exponents never.
    static func plainDecimal(_ text: String) -> String {
        // A byte scan first: Character-level search costs thousands of instructions per key.
        guard text.utf8.contains(UInt8(ascii: "e")), let e = text.firstIndex(of: "e"),
            let exponent = Int(text[text.index(after: e)...]), exponent < 0
        else {
            return text
        }
        var mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let digits = mantissa.filter { $0 != "." }
        let zeros = String(repeating: "0", count: -exponent - 1)
        var result = (negative ? "-" : "") + "0." + zeros + digits
        while result.hasSuffix("0") { result.removeLast() }
        return result
    }

    static func hex(_ color: RingColor, into w: inout ByteWriter) {
        w.append(hexByte: color.red)
        w.append(hexByte: color.green)
        w.append(hexByte: color.blue)
        w.append(hexByte: color.alpha)
    }

    /// Percent-encodes everything but unreserved characters, so the key stays a valid query.
    static func escape(_ text: String, into w: inout ByteWriter) {
        for byte in text.utf8 {
            if ByteClass.unreserved.contains(byte) {
                w.append(byte: byte)
            } else {
                w.append(byte: UInt8(ascii: "%"))
                w.append(hexByte: byte)
            }
        }
    }

}
