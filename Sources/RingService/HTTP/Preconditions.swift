import HTTPServer

/// Conditional requests, evaluated in the order RFC 9110 §13.2.2 gives: `If-Match`, else
/// `If-Unmodified-Since`; then `If-None-Match`, else `If-Modified-Since`. An origin server must
/// evaluate them (§13.1.1, §13.1.4): a false `If-Match` is a 412, not the image.
enum Preconditions {
    enum Outcome: Equatable {
        /// Send the selected representation.
        case proceed
        /// 304: the client's copy is current.
        case notModified
        /// 412: a precondition the client set is false.
        case failed
    }

    /// The outcome for a GET or HEAD of a representation with this entity tag and
    /// modification time (seconds since 1970), either of which may be unknown.
    static func evaluate(_ request: HTTPRequest, etag: String?, lastModified: Int?) -> Outcome {
        if let condition = request.header("If-Match") {
            guard EntityTag.matchesStrongly(condition, etag: etag) else { return .failed }
        } else if let condition = request.header("If-Unmodified-Since"), let date = HTTPDate.parse(condition),
            let lastModified, lastModified > date
        {
            return .failed
        }
        if let condition = request.header("If-None-Match") {
            if EntityTag.matches(condition, etag: etag) { return .notModified }
        } else if let condition = request.header("If-Modified-Since"), let date = HTTPDate.parse(condition),
            let lastModified, lastModified <= date
        {
            return .notModified
        }
        return .proceed
    }
}
