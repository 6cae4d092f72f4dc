import Foundation

/// What the outbox does with an operation after a failed send.
enum RetryAction: Sendable, Equatable {
    /// Try again at `at`; `attempts` is the new count of attempts spent.
    case retry(at: Date, attempts: Int, reason: String)
    /// No answer: the probe looks at once; the operation goes again at `recheckAt` if the
    /// remote answers the probe. No attempt is spent.
    case waitForConnectivity(recheckAt: Date, reason: String)
    /// Credentials were refused and could not be refreshed: hold the plugin's queue until login.
    case holdForLogin(reason: String)
    /// Hand the operation to its conflict policy.
    case resolveConflict(status: Int, reason: String, remote: Data?)
    /// Wait, spending nothing, until the plugin's configuration changes.
    case holdForConfiguration(reason: String)
    /// Wait, spending nothing, until `entity`'s operations have left the outbox.
    case waitForEntity(entity: String, reason: String)
    /// Give up: the operation becomes a dead letter and blocks only its entity.
    case deadLetter(reason: String, attempts: Int)
}

/// The pure decision of what follows a failure: no clock, no database, no randomness of its own.
enum RetryDecision {
    /// Decides the next step for an operation that has spent `attempts` attempts.
    ///
    /// - Parameters:
    ///   - failure: the failure, as `FailureClass.classify` read it.
    ///   - attempts: the attempts the operation has spent so far.
    ///   - policy: the operation's backoff and attempt limit.
    ///   - now: the time of the failure; waits are counted from it.
    ///   - unit: a random number in 0..<1 for the jitter.
    ///   - unanswered: how many requests in a row got no answer, this one included. The
    ///     first goes again as soon as the remote answers a probe; later ones back off
    ///     (`unansweredDelay`), so a remote that answers probes but drops this request is
    ///     not asked in a tight loop.
    ///   - spendsAttempt: false for a transient failure of this device rather than of the
    ///     operation (its store could not write: a full disk): it backs off as the next
    ///     attempt would, spends nothing, and never makes a dead letter.
    public static func decide(
        _ failure: FailureClass,
        attempts: Int,
        policy: RetryPolicy,
        now: Date,
        unit: Double,
        unanswered: Int = 1,
        spendsAttempt: Bool = true
    ) -> RetryAction {
        switch failure {
        case .offline(let reason):
            return .waitForConnectivity(
                recheckAt: now.addingTimeInterval(unansweredDelay(unanswered)),
                reason: reason
            )
        case .unauthorized(let reason):
            return .holdForLogin(reason: reason)
        case .conflict(let status, let reason, let remote):
            return .resolveConflict(status: status, reason: reason, remote: remote)
        case .rejected(let reason):
            return .deadLetter(reason: reason, attempts: attempts + 1)
        case .waitsFor(let entity, let reason):
            return .waitForEntity(entity: entity, reason: reason)
        case .misconfigured(let reason):
            return .holdForConfiguration(reason: reason)
        case .transient(let reason, let retryAfter):
            let spent = attempts + 1
            guard spent < policy.maxAttempts || !spendsAttempt else {
                return .deadLetter(reason: "gave up after \(spent) attempts: \(reason)", attempts: spent)
            }
            let backoff = policy.jitteredDelay(afterAttempts: spent, unit: unit)
            let delay = max(backoff, retryAfter ?? 0)
            return .retry(at: now.addingTimeInterval(delay), attempts: spendsAttempt ? spent : attempts, reason: reason)
        }
    }

    /// The wait before a request that got no answer goes again: none for the first, then
    /// from half a second, doubling, up to 15 seconds.
    public static func unansweredDelay(_ unanswered: Int) -> TimeInterval {
        guard unanswered > 1 else { return 0 }
        return min(0.5 * pow(2, Double(min(unanswered - 2, 10))), 15)
    }
}
