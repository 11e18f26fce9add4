import HTTPServer
import HTTPTestSupport

/// Answers with what it understood of the request, and a few special paths.
struct EchoResponder: HTTPResponder {
    static let bigBody = [UInt8](repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/big":
            return HTTPResponse(
                status: .ok, headers: [("Content-Type", "application/octet-stream")], body: Self.bigBody)
        case "/not-modified":
            return HTTPResponse(status: .notModified, headers: [("ETag", "\"x\"")], body: Array("never sent".utf8))
        case "/fixed":
            return .text(.ok, "fixed body")
        case "/headers":
            return .text(.ok, request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "\n"))
        default:
            return .text(.ok, "\(request.method.rawValue) \(request.path) \(request.query) 1.\(request.minorVersion)")
        }
    }
}

/// A started server on a free loopback port, shut down when the test is done with it. Every
/// suite that talks to a server runs once per I/O backend (`@Test(arguments: IOBackend.allCases)`),
/// so both pass the same tests.
final class TestServer {
    let server: Server
    let port: Int

    init(
        _ io: IOBackend, responder: any HTTPResponder = EchoResponder(),
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 2
        configuration.io = io
        configure(&configuration)
        server = Server(configuration: configuration, responder: responder)
        port = try server.start()
    }

    func client(timeout: Double = 5) throws -> RawClient {
        try RawClient(port: port, host: server.configuration.host == "::1" ? "::1" : "127.0.0.1", timeout: timeout)
    }

    /// Sends `request` on a new connection and returns the first response.
    func exchange(_ request: String) throws -> RawClient.Response? {
        let client = try client()
        client.send(request)
        return client.readResponse()
    }

    deinit {
        server.shutdown()
        server.wait()
    }
}
