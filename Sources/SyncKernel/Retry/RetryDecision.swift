import Foundation

/// What the outbox does with an operation after a failed send.
public enum RetryAction: Sendable, Equatable {
    /// Try again at `at`; `attempts` is the new count of attempts spent.
    case retry(at: Date, attempts: Int, reason: String)
    /// No answer: wait for connectivity, look again at `recheckAt`; no attempt is spent.
    case waitForConnectivity(recheckAt: Date, reason: String)
    /// Credentials were refused and could not be refreshed: hold the plugin's queue until login.
    case holdForLogin(reason: String)
    /// Hand the operation to its conflict policy.
    case resolveConflict(status: Int, reason: String, remote: Data?)
    /// Give up: the operation becomes a dead letter and blocks only its entity.
    case deadLetter(reason: String, attempts: Int)
}

/// The pure decision of what follows a failure: no clock, no database, no randomness of its own.
public enum RetryDecision {
    /// How long an operation waits before looking again after an offline failure.
    public static let offlineRecheck: TimeInterval = 30

    /// Decides the next step for an operation that has spent `attempts` attempts.
    ///
    /// - Parameter unit: a random number in 0..<1 for the jitter.
    public static func decide(
        _ failure: FailureClass,
        attempts: Int,
        policy: RetryPolicy,
        now: Date,
        unit: Double
    ) -> RetryAction {
        switch failure {
        case .offline(let reason):
            return .waitForConnectivity(recheckAt: now.addingTimeInterval(offlineRecheck), reason: reason)
        case .unauthorized(let reason):
            return .holdForLogin(reason: reason)
        case .conflict(let status, let reason, let remote):
            return .resolveConflict(status: status, reason: reason, remote: remote)
        case .rejected(let reason):
            return .deadLetter(reason: reason, attempts: attempts + 1)
        case .transient(let reason, let retryAfter):
            let spent = attempts + 1
            guard spent < policy.maxAttempts else {
                return .deadLetter(reason: "gave up after \(spent) attempts: \(reason)", attempts: spent)
            }
            let backoff = policy.jitteredDelay(afterAttempts: spent, unit: unit)
            let delay = max(backoff, retryAfter ?? 0)
            return .retry(at: now.addingTimeInterval(delay), attempts: spent, reason: reason)
        }
    }
}
