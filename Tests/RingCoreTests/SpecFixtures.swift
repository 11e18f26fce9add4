@testable import RingCore

/// The scene of `query`, for suites that look at what a parameter draws.
func scene(_ query: String) throws -> RingScene {
    RingScene(spec: try RingSpec(query: query))
}

/// The error `query` is refused with, or nil when it is a ring.
func failure(_ query: String) -> RingSpecError? {
    do {
        _ = try RingSpec(query: query)
        return nil
    } catch {
        return error
    }
}

/// The error message `query` is refused with, or nil when it is a ring.
func refusal(_ query: String) -> String? {
    failure(query)?.description
}
