import Foundation

/// Polls `condition` every 10 ms for up to `timeout` seconds; whether it held. For what a
/// server does on its own threads after a test's last call: closing, counting, draining.
public func waitUntil(_ timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
