import Foundation

/// Waits for a condition that another task makes true, giving up after `limit` seconds of
/// real time so that a broken behaviour fails the test instead of hanging it.
enum Wait {
    struct TimedOut: Error, CustomStringConvertible {
        let description = "the condition did not become true in time"
    }

    static func until(limit: TimeInterval = 10, _ condition: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(limit)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw TimedOut() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
