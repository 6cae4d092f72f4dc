import Foundation

/// Waits for a condition that another task makes true, giving up after `limit` seconds of
/// real time so that a broken behaviour fails the test instead of hanging it. The limit is
/// generous: the whole suite shares Swift's pool of one thread a core, and on two cores the
/// simulation's seeds have held it for over a minute while a loop waited its turn.
enum Wait {
    struct TimedOut: Error, CustomStringConvertible {
        let description = "the condition did not become true in time"
    }

    static func until(limit: TimeInterval = 90, _ condition: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(limit)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw TimedOut() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
