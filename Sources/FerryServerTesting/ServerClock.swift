import Foundation
import Synchronization

/// A clock for the reference server that the test moves by hand, so token expiry and
/// timestamps need no waiting.
///
/// ```swift
/// let clock = ServerClock()
/// let server = try await DemoFerryServer.start(clock: clock)
/// clock.advance(by: 3601)   // every access token has expired
/// ```
public final class ServerClock: Sendable {
    private let current: Mutex<Date>

    /// A clock at `now` (2027-01-15 08:00:00 UTC unless given).
    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(now)
    }

    /// The time the server sees.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
