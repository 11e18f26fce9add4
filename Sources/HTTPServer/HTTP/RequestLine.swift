import ByteGrammar

/// `method SP request-target SP HTTP-version`, each part checked (RFC 9112 §3).
struct RequestLine {
    var method: HTTPMethod
    var path: String
    var query: String
    var minorVersion: Int

    init(_ head: [UInt8], _ line: Range<Int>) throws(HTTPParseError) {
        let space = UInt8(ascii: " ")
        guard let firstSpace = head[line].firstIndex(of: space),
            let secondSpace = head[(firstSpace + 1)..<line.upperBound].firstIndex(of: space),
            firstSpace > line.lowerBound, secondSpace > firstSpace + 1
        else { throw .badRequest("malformed request line") }
        for index in line.lowerBound..<firstSpace where !ByteClass.token.contains(head[index]) {
            throw .badRequest("invalid method")
        }
        // Exactly "HTTP/" DIGIT "." DIGIT: a third space or anything else lands here too.
        let version = (secondSpace + 1)..<line.upperBound
        guard version.count == 8,
            HTTPRequestParser.equalsLowercase(head, version.lowerBound..<(version.lowerBound + 5), "http/"),
            head[version.lowerBound..<(version.lowerBound + 4)].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }),
            head[version.lowerBound + 6] == UInt8(ascii: "."),
            (0x30...0x39).contains(head[version.lowerBound + 5]), (0x30...0x39).contains(head[version.lowerBound + 7])
        else { throw .badRequest("invalid HTTP version") }
        guard head[version.lowerBound + 5] == UInt8(ascii: "1") else { throw .versionNotSupported }
        minorVersion = min(Int(head[version.lowerBound + 7] - 0x30), 1)
        // Before the target: CONNECT's authority-form or a WebDAV target is not ours to judge.
        guard let method = Self.method(head, line.lowerBound..<firstSpace) else {
            throw .notImplemented("method not implemented")
        }
        self.method = method

        var target = (firstSpace + 1)..<secondSpace
        for index in target where !(head[index] > 0x20 && head[index] < 0x7F) {
            throw .badRequest("invalid character in target")
        }
        if head[target.lowerBound] != UInt8(ascii: "/") {
            target = try Self.originOfAbsoluteForm(head, target, method: method)
        }
        if head[target].contains(UInt8(ascii: "#")) { throw .badRequest("fragment in target") }
        let pathEnd = head[target].firstIndex(of: UInt8(ascii: "?")) ?? target.upperBound
        path = pathEnd == target.lowerBound ? "/" : Self.normalizedPath(head[target.lowerBound..<pathEnd])
        query =
            pathEnd == target.upperBound ? "" : String(decoding: head[(pathEnd + 1)..<target.upperBound], as: UTF8.self)
    }

    /// The path with percent-encoded unreserved characters decoded, since they are equivalent
    /// to the characters themselves (RFC 3986 §6.2.2.2). Other escapes, `%2F` among them, stay.
    private static func normalizedPath(_ path: ArraySlice<UInt8>) -> String {
        guard path.contains(UInt8(ascii: "%")) else { return String(decoding: path, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(path.count)
        var index = path.startIndex
        while index < path.endIndex {
            if path[index] == UInt8(ascii: "%"), index + 2 < path.endIndex,
                let high = ByteClass.hexValue(path[index + 1]), let low = ByteClass.hexValue(path[index + 2])
            {
                let byte = high << 4 | low
                if ByteClass.unreserved.contains(byte) {
                    result.append(byte)
                    index += 3
                    continue
                }
            }
            result.append(path[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// For `*` (OPTIONS only) or an absolute-form target `scheme://authority/path?query`, the
    /// range of the path and query (empty path means `/`, which the caller's `?` split handles).
    private static func originOfAbsoluteForm(
        _ head: [UInt8], _ target: Range<Int>, method: HTTPMethod
    ) throws(HTTPParseError) -> Range<Int> {
        if target.count == 1, head[target.lowerBound] == UInt8(ascii: "*") {
            guard method == .options else { throw .badRequest("* target only with OPTIONS") }
            return target
        }
        guard let colon = head[target].firstIndex(of: UInt8(ascii: ":")), colon > target.lowerBound,
            head[target.lowerBound..<colon].allSatisfy({ ByteClass.scheme.contains($0) }),
            colon + 3 <= target.upperBound, head[colon + 1] == UInt8(ascii: "/"), head[colon + 2] == UInt8(ascii: "/")
        else { throw .badRequest("invalid request target") }
        let authorityStart = colon + 3
        let pathStart =
            head[authorityStart..<target.upperBound].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
            ?? target.upperBound
        guard HTTPRequestParser.isValidHost(head[authorityStart..<pathStart]) else {
            throw .badRequest("invalid authority")
        }
        return pathStart..<target.upperBound
    }

    /// The method whose name is exactly `head[range]` (methods are case-sensitive).
    private static func method(_ head: [UInt8], _ range: Range<Int>) -> HTTPMethod? {
        for (method, name) in methodNames where name.count == range.count {
            if head[range].elementsEqual(name) { return method }
        }
        return nil
    }

    private static let methodNames: [(HTTPMethod, [UInt8])] = HTTPMethod.allCases.map { ($0, Array($0.rawValue.utf8)) }
}
