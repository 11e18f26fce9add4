import Primitives

/// A moment in time as `from` and `to` take it: an RFC 3339 date-time with `Z` or an offset
/// (`2026-12-06T18:00:00+01:00`, fractions of a second allowed), or a date alone, which is
/// midnight UTC (`2026-12-06`). Held as seconds since 1970-01-01T00:00:00Z.
package enum Moment {
    /// The seconds `text` names, or nil when it is no RFC 3339 date or date-time, or names a
    /// day that does not exist (`2026-02-30`). Years 0001 to 9999; no leap second (`:60`).
    static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), year >= 1, expect("-"), let month = digits(2), (1...12).contains(month),
            expect("-"), let day = digits(2), (1...daysIn(month, of: year)).contains(day)
        else { return nil }
        let date = Double(CivilDate.days(year: year, month: month, day: day)) * 86_400
        if index == bytes.count { return date }
        guard expect("Tt "), let hour = digits(2), hour < 24, expect(":"), let minute = digits(2), minute < 60,
            expect(":"), let second = digits(2), second < 60
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else {
            guard index < bytes.count else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            // A `+` written unescaped in a query reads as a space: taken as the `+` it was.
            guard expect("+- "), let hours = digits(2), hours < 24, expect(":"), let minutes = digits(2), minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count else { return nil }
        return date + Double(hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// `seconds` as the canonical key writes it: RFC 3339 in UTC, to the millisecond when it
    /// has a fraction (`2026-12-06T17:00:00Z`, `2026-12-06T17:00:00.5Z`).
    package static func text(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let whole = milliseconds.quotientAndRemainder(dividingBy: 1000)
        var (days, second) = whole.quotient.quotientAndRemainder(dividingBy: 86_400)
        var fraction = whole.remainder
        if second < 0 || fraction < 0 {
            if fraction < 0 {
                fraction += 1000
                second -= 1
            }
            if second < 0 {
                second += 86_400
                days -= 1
            }
        }
        let (year, month, day) = CivilDate.date(days: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year < 1000 ? String(repeating: "0", count: 4 - String(year).count) : "")\(year)-\(two(month))-"
        text += "\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
        if fraction > 0 {
            var digits = String(fraction + 1000).dropFirst()
            while digits.last == "0" { digits.removeLast() }
            text += ".\(digits)"
        }
        return text + "Z"
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// `from` and `to`: a moment (``Moment``).
struct MomentGrammar: ValueGrammar {
    @inline(__always)
    func read(_ text: String?, _ parameter: RingParameter) throws(RingSpecError) -> Double {
        let text = text ?? ""
        guard let seconds = Moment.seconds(text) else {
            throw .invalid(
                parameter: parameter.rawValue, value: text,
                expected: "an RFC 3339 date or date-time that exists, such as 2026-12-31 or 2026-12-31T18:00:00+01:00")
        }
        return seconds
    }

    @inline(__always)
    func write(_ value: Double, into w: inout ByteWriter) {
        for byte in Moment.text(value).utf8 { w.append(byte: byte) }
    }
    var kind: RingParameter.Kind { .moment }
    var values: String { "RFC 3339 date (midnight UTC) or date-time with Z or an offset" }
}
