#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed while setting up listening sockets.
package struct SocketError: Error, Sendable, CustomStringConvertible {
    /// The call and what it was doing, e.g. `bind 0.0.0.0:8080`.
    package var operation: String
    package var errorNumber: Int32

    init(_ operation: String, errorNumber: Int32 = errno) {
        self.operation = operation
        self.errorNumber = errorNumber
    }

    package var description: String {
        "\(operation): \(String(cString: strerror(errorNumber)))"
    }
}
