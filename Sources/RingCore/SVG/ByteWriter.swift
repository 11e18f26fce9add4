#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An append-only byte buffer that SVG, error images and canonical keys are written into.
///
/// Rendering appends bytes and formats numbers by hand instead of building `String`s:
/// `String(format:)` costs about 1.8 µs a call on Linux, and a ring has dozens of numbers.
/// The buffer is raw memory owned by this non-copyable value, so an append is a bounds check
/// and a `memcpy`, with no uniqueness checks or generic collection code on the way.
///
/// Numbers are written in fixed point with at most `decimals` digits after the point, rounded
/// half away from zero on the binary value, trailing zeros dropped, and never as `-0`.
package struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// False while writing into a caller's buffer, which is never freed here.
    private var ownsStorage: Bool
    /// Bytes written so far.
    package private(set) var count = 0

    /// Creates an empty writer that can hold `capacity` bytes before it grows.
    package init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        ownsStorage = true
    }

    /// Creates an empty writer over `scratch` (for example stack memory from
    /// `withUnsafeTemporaryAllocation`); it moves to the heap only if it outgrows it.
    /// The writer must not outlive `scratch`.
    package init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        base = scratch.baseAddress!
        capacity = scratch.count
        ownsStorage = false
    }

    deinit {
        if ownsStorage { base.deallocate() }
    }

    /// A copy of the bytes written.
    package var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes written, as UTF-8 text.
    package var text: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Calls `body` with the bytes written, without copying them.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Appends ASCII or UTF-8 text known at compile time.
    @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(raw: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends raw bytes.
    package mutating func append(raw bytes: UnsafeRawBufferPointer) {
        append(raw: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    /// Appends a single byte.
    @inline(__always)
    package mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `text` as XML character data or an attribute value: the five XML special
    /// characters become entities, everything else is copied as UTF-8.
    package mutating func append(escaping text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let entity: StaticString
                switch utf8[index] {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\""): entity = "&quot;"
                case UInt8(ascii: "'"): entity = "&#39;"
                default: continue
                }
                append(raw: utf8.baseAddress! + runStart, count: index - runStart)
                append(entity)
                runStart = index + 1
            }
            append(raw: utf8.baseAddress.map { $0 + runStart }, count: utf8.count - runStart)
        }
    }

    /// Appends a decimal integer.
    package mutating func append(integer value: Int) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), minimumDigits: 1)
    }

    /// Appends `value` in fixed point with at most `decimals` (0…6) digits after the point.
    /// With `keepZeros`, exactly `decimals` digits follow the point (`72.00`), as a label wants.
    ///
    /// Non-finite values and magnitudes beyond 9e18 after scaling cannot come out of a
    /// validated spec; they are written as `0` rather than trapping.
    package mutating func append(number value: Double, decimals: Int = 2, keepZeros: Bool = false) {
        if !keepZeros, value.magnitude < 10_000, let integer = Int(exactly: value) {
            // Whole numbers (sizes, centres, radii of default rings) skip scaling and rounding.
            if integer < 0 { append(byte: UInt8(ascii: "-")) }
            appendSmall(UInt64(integer.magnitude))
            return
        }
        let scale = Self.powerOfTen(decimals)
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, scaled.magnitude < 9.0e18 else {
            append(byte: UInt8(ascii: "0"))
            return
        }
        let fixed = Int64(scaled)
        if fixed < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = fixed.magnitude
        let integer = magnitude / scale
        if integer < 10_000 {
            appendSmall(integer)
        } else {
            appendDigits(integer, minimumDigits: 1)
        }
        var fraction = magnitude % scale
        var digits = decimals
        if !keepZeros {
            guard fraction != 0 else { return }
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
        }
        guard digits > 0 else { return }
        append(byte: UInt8(ascii: "."))
        if digits == 1 {
            append(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction))
        } else if digits == 2 {
            appendPair(Int(fraction))
        } else {
            appendDigits(fraction, minimumDigits: digits)
        }
    }

    /// 0…9999 without a division loop: the common case for coordinates.
    @inline(__always)
    private mutating func appendSmall(_ value: UInt64) {
        let small = Int(value)
        if small < 10 {
            append(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: small))
        } else if small < 100 {
            appendPair(small)
        } else if small < 1000 {
            append(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: small / 100))
            appendPair(small % 100)
        } else {
            appendPair(small / 100)
            appendPair(small % 100)
        }
    }

    /// Two digits, 00…99.
    @inline(__always)
    private mutating func appendPair(_ value: Int) {
        reserve(2)
        let pairs = Self.digitPairs.utf8Start
        base[count] = pairs[value &* 2]
        base[count + 1] = pairs[value &* 2 + 1]
        count += 2
    }

    /// Appends two lowercase hexadecimal digits.
    @inline(__always)
    package mutating func append(hexByte value: UInt8) {
        reserve(2)
        let digits = Self.hexDigits.utf8Start
        base[count] = digits[Int(value >> 4)]
        base[count + 1] = digits[Int(value & 0xF)]
        count += 2
    }

    /// Writes `value` in decimal, left-padded with zeros to `minimumDigits`, two digits per
    /// division (the usual table trick: coordinates are written a few dozen times per ring).
    private mutating func appendDigits(_ value: UInt64, minimumDigits: Int) {
        var digits = 1
        var limit: UInt64 = 10
        while value >= limit, digits < 19 {
            digits += 1
            limit &*= 10
        }
        digits = max(digits, minimumDigits)
        reserve(digits)
        var remaining = value
        var index = count + digits
        while remaining >= 100 {
            let pair = Int(remaining % 100) * 2
            remaining /= 100
            index -= 2
            base[index] = Self.digitPairs.utf8Start[pair]
            base[index + 1] = Self.digitPairs.utf8Start[pair + 1]
        }
        while index > count {
            index -= 1
            base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        }
        count += digits
    }

    @inline(__always)
    private mutating func append(raw source: UnsafePointer<UInt8>?, count length: Int) {
        guard length > 0, let source else { return }
        reserve(length)
        (base + count).update(from: source, count: length)
        count += length
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if ownsStorage { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsStorage = true
    }

    /// 10^exponent for 0…6, without a table behind a lazy global.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<min(max(exponent, 0), 6) { result &*= 10 }
        return result
    }

    // Literals, not arrays: reading them needs no lazy-initialisation check.
    private static var hexDigits: StaticString { "0123456789abcdef" }
    /// "00" "01" … "99".
    private static var digitPairs: StaticString {
        // swift-format-ignore
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
