/// Entity-tag comparison for conditional requests (RFC 9110 §8.8.3.2): a field value is `*` or
/// a list of entity tags.
enum EntityTag {
    /// `If-None-Match`: weak comparison, a `W/` prefix on either side is ignored. `*` matches
    /// any current representation, with or without an entity tag.
    static func matches(_ header: String, etag: String?) -> Bool {
        let target = etag.map { opaque(Substring($0)) }
        for candidate in header.split(separator: ",") {
            let tag = candidate.trimmingWhitespace()
            if tag == "*" || (target != nil && opaque(tag) == target) { return true }
        }
        return false
    }

    /// `If-Match`: strong comparison, so a weak tag on either side never matches. `*` matches
    /// any current representation.
    static func matchesStrongly(_ header: String, etag: String?) -> Bool {
        for candidate in header.split(separator: ",") {
            let tag = candidate.trimmingWhitespace()
            if tag == "*" { return true }
            if let etag, !etag.hasPrefix("W/"), tag == etag { return true }
        }
        return false
    }

    private static func opaque(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
