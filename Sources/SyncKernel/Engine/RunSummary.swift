import Foundation

/// What one pass of the runner did.
public struct RunSummary: Sendable, Equatable {
    public var sent = 0
    public var retried = 0
    public var deadLettered = 0
    public var conflicts = 0
    public var pulls: [String: PullSummary] = [:]
    public var pullFailures: [String: String] = [:]

    public init() {}

    /// Whether anything failed for good in this pass: a new dead letter or a failed pull.
    public var failed: Bool { deadLettered > 0 || !pullFailures.isEmpty }
}
