/// Writes responses into a connection's output.
enum ResponseSerializer {
    /// Appends the whole response: the head into the connection's own buffer, the body by
    /// reference. `headOnly` for HEAD: same headers, no body.
    static func append(
        _ response: HTTPResponse, headOnly: Bool, keepAlive: Bool, minorVersion: Int, date: [UInt8],
        to output: inout OutputQueue
    ) {
        output.appendOwned { out in
            // The server's own version, whatever the request's (RFC 9110 §2.5); `minorVersion`
            // only decides the connection rules below.
            out.append(contentsOf: "HTTP/1.1 ".utf8)
            appendInteger(response.status.code, to: &out)
            out.append(0x20)
            out.append(contentsOf: response.status.reason.utf8)
            out.append(contentsOf: "\r\n".utf8)
            response.sharedHeaders.write(to: &out)
            response.headers.write(to: &out)
            if response.requestHeaders.count > 0 { response.requestHeaders.write(to: &out) }
            if !response.status.forbidsContent {
                out.append(contentsOf: "Content-Length: ".utf8)
                appendInteger(response.body.count, to: &out)
                out.append(contentsOf: "\r\n".utf8)
            }
            out.append(contentsOf: "Date: ".utf8)
            out.append(contentsOf: date)
            if !keepAlive {
                out.append(contentsOf: "\r\nConnection: close\r\n\r\n".utf8)
            } else if minorVersion == 0 {
                out.append(contentsOf: "\r\nConnection: keep-alive\r\n\r\n".utf8)
            } else {
                out.append(contentsOf: "\r\n\r\n".utf8)
            }
        }
        if !headOnly, !response.status.forbidsContent {
            output.append(body: response.body)
        }
    }

    static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendInteger(value / 10, to: &out) }
        out.append(UInt8(0x30 + value % 10))
    }
}
