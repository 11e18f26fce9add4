#if canImport(Glibc)
    import Glibc
#endif

/// The IMF-fixdate for the `Date` header (RFC 9110 §5.6.7), formatted at most once a second
/// per event loop.
struct HTTPDate {
    private var second: time_t = -1
    private(set) var bytes: [UInt8] = []

    /// The date for now, reformatted only when the second has changed.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            bytes = Self.format(now)
        }
        return bytes
    }

    static func format(_ seconds: time_t) -> [UInt8] {
        var t = seconds
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}
