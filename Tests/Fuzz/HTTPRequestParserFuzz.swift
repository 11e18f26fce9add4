// libFuzzer harness for HTTPRequestParser, compiled together with the parser's sources by
// scripts/checks/fuzz.sh (not part of the Swift package).
//
// Input: arbitrary bytes. The first byte seeds how the rest is split into chunks, so the fuzzer
// explores requests arriving in every split, down to one byte at a time.
// Checks: no crash or trap; a request's path is "/…" or "*"; the parser never yields more
// requests than it was given lines, and stops at the first error.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    var configuration = ServerConfiguration()
    configuration.maxRequestLineBytes = 512
    configuration.maxHeaderBytes = 2048
    configuration.maxHeaderCount = 16
    configuration.maxBodyBytes = 256
    var parser = HTTPRequestParser(limits: HTTPRequestParser.Limits(configuration))
    var seed = UInt64(data[0]) &+ 1
    var offset = 1
    var requests = 0
    var lineFeeds = 0
    while offset < size {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let chunk = min(size - offset, Int(seed >> 59) + 1)
        for index in offset..<(offset + chunk) where data[index] == 0x0A { lineFeeds += 1 }
        parser.append(UnsafeRawBufferPointer(start: data + offset, count: chunk))
        offset += chunk
        do {
            while let request = try parser.next() {
                requests += 1
                precondition(request.path.hasPrefix("/") || request.path == "*", "path \(request.path)")
                precondition(requests <= lineFeeds, "more requests than lines")
                _ = request.header("Host")
                _ = request.headers
            }
        } catch {
            precondition(error.status.code >= 400, "error without a 4xx/5xx status")
            return 0
        }
    }
    return 0
}
