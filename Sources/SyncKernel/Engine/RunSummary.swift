import Foundation

/// What one pass of the runner did.
public struct RunSummary: Sendable, Equatable {
    /// Operations the remote accepted.
    public var sent = 0
    /// Failed sends scheduled to go again after a backoff.
    public var retried = 0
    /// Operations that became dead letters.
    public var deadLettered = 0
    /// Conflicts met, whatever their policy decided.
    public var conflicts = 0
    /// Files the plugins' sends downloaded.
    public var downloads = TransferTally()
    /// What each plugin's pull applied, by plugin name.
    public var pulls: [String: PullSummary] = [:]
    /// Why a plugin's pull failed, by plugin name; a pull that got no answer, or hit a
    /// refused credential, is not a failure here.
    public var pullFailures: [String: String] = [:]

    /// An empty summary.
    public init() {}

    /// Whether anything failed for good in this pass: a new dead letter or a failed pull.
    public var failed: Bool { deadLettered > 0 || !pullFailures.isEmpty }
}
