/// `If-None-Match` evaluation (RFC 9110 §13.1.2): `*`, or a list of entity tags compared
/// weakly (a `W/` prefix on either side is ignored).
enum EntityTag {
    static func matches(_ header: String, etag: String) -> Bool {
        let target = opaque(Substring(etag))
        for candidate in header.split(separator: ",") {
            let tag = candidate.trimmingWhitespace()
            if tag == "*" || opaque(tag) == target { return true }
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
