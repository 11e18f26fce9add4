import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// HTTP-dates (RFC 9110 §5.6.7): the IMF-fixdate the server writes, and the three formats a
/// recipient must accept. An instance caches the `Date` header's text, formatted at most once a
/// second per event loop.
package struct HTTPDate {
    private var second: time_t = -1
    private(set) var bytes: [UInt8] = []

    init() {}

    /// The date for now, reformatted only when the second has changed.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            bytes = Array(Self.format(Int(now)).utf8)
        }
        return bytes
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for seconds since 1970.
    package static func format(_ seconds: Int) -> String {
        let parts = utc(seconds)
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// `1994-11-06T08:49:37Z`, for logs.
    package static func iso8601(_ seconds: Int) -> String {
        let parts = utc(seconds)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// `2026-11-29T21:26:14.123Z`: ``iso8601(_:)`` to the millisecond, for logs.
    package static func iso8601(milliseconds: Int) -> String {
        let parts = utc(milliseconds / 1000)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(three(milliseconds % 1000))Z"
    }

    /// `29/Nov/2026:21:26:14.123 +0000`: nginx's `$time_local` in UTC, to the millisecond.
    package static func common(milliseconds: Int) -> String {
        let parts = utc(milliseconds / 1000)
        return "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(three(milliseconds % 1000)) +0000"
    }

    private static func three(_ value: Int) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }

    /// Milliseconds since 1970, from the system's real-time clock.
    package static func nowMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }

    private static func utc(_ seconds: Int) -> tm {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Seconds since 1970 for an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), an obsolete
    /// RFC 850 date (`Sunday, 06-Nov-94 08:49:37 GMT`) or an asctime date
    /// (`Sun Nov  6 08:49:37 1994`); nil for anything else, including a list of dates.
    package static func parse(_ text: String) -> Int? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: Substring?
        if words.count == 6, words[0].hasSuffix(","), words[5] == "GMT" {
            // IMF-fixdate: day-name "," SP 2DIGIT SP month SP 4DIGIT SP time SP "GMT"
            guard days.contains(String(words[0].dropLast())), words[1].count == 2, words[3].count == 4 else {
                return nil
            }
            (day, month, year, time) = (
                number(words[1]), months.firstIndex(of: String(words[2])), number(words[3]), words[4]
            )
        } else if words.count == 4, words[0].hasSuffix(","), words[3] == "GMT" {
            // RFC 850: day-name-l "," SP 2DIGIT "-" month "-" 2DIGIT SP time SP "GMT"
            let parts = words[1].split(separator: "-")
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let short = number(parts[2]) else {
                return nil
            }
            // A two-digit year: 70–99 are 1970–1999, the rest 2000–2069 (RFC 9110 §5.6.7).
            (day, month, year, time) = (
                number(parts[0]), months.firstIndex(of: String(parts[1])), short < 70 ? 2000 + short : 1900 + short,
                words[2]
            )
        } else if words.count == 5, days.contains(String(words[0])) {
            // asctime: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP 4DIGIT
            guard words[2].count <= 2, words[4].count == 4 else { return nil }
            (day, month, year, time) = (
                number(words[2]), months.firstIndex(of: String(words[1])), number(words[4]), words[3]
            )
        }
        guard let day, let month, let year, let time, (1...31).contains(day), year >= 1970, year <= 9999 else {
            return nil
        }
        let clock = time.split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return CivilDate.days(year: year, month: month + 1, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Decimal digits only: `Int("+6")` would accept a sign.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
