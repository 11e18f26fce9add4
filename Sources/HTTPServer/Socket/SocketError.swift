#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed while setting up listening sockets.
public struct SocketError: Error, Sendable, CustomStringConvertible {
    /// The call and what it was doing, e.g. `bind 0.0.0.0:8080`.
    public var operation: String
    public var errorNumber: Int32

    init(_ operation: String, errorNumber: Int32 = errno) {
        self.operation = operation
        self.errorNumber = errorNumber
    }

    public var description: String {
        "\(operation): \(String(cString: strerror(errorNumber)))"
    }
}
