import Foundation

/// Exponential backoff with jitter, a cap and a maximum number of attempts.
public struct RetryPolicy: Sendable, Equatable {
    /// The delay before the second attempt.
    public var baseDelay: TimeInterval
    /// Each further delay is the previous one times this.
    public var multiplier: Double
    /// No delay is longer than this.
    public var maxDelay: TimeInterval
    /// After this many failed attempts that reached the remote, the operation is dead.
    public var maxAttempts: Int
    /// The share of each delay that is randomised (0 = none, 0.2 = up to 20 % either way).
    public var jitter: Double

    /// Creates a policy; the defaults are those of `config.yaml`: 1 s, doubling, up to 5
    /// minutes, 10 attempts, 20 % jitter.
    public init(
        baseDelay: TimeInterval = 1,
        multiplier: Double = 2,
        maxDelay: TimeInterval = 300,
        maxAttempts: Int = 10,
        jitter: Double = 0.2
    ) {
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.maxAttempts = maxAttempts
        self.jitter = jitter
    }

    /// The default policy.
    public static let standard = RetryPolicy()

    /// The delay after `attempts` failed attempts, before jitter: `base * multiplier^(attempts-1)`, capped.
    public func delay(afterAttempts attempts: Int) -> TimeInterval {
        guard attempts > 0 else { return 0 }
        let exponent = Double(min(attempts - 1, 62))
        return min(maxDelay, baseDelay * pow(multiplier, exponent))
    }

    /// The delay with jitter applied; `unit` is a random number in 0..<1.
    public func jitteredDelay(afterAttempts attempts: Int, unit: Double) -> TimeInterval {
        let plain = delay(afterAttempts: attempts)
        let spread = plain * jitter * (unit * 2 - 1)
        return max(0, min(maxDelay, plain + spread))
    }
}
