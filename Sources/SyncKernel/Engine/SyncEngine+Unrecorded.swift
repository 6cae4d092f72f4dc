import Foundation

extension SyncEngine {
    /// The remote answered `operation` (`answer`), but what follows could not be recorded:
    /// a local change that goes with it threw (the plugin's `adoptRemote` after a conflict
    /// the remote won, its merge), or the store failed.
    ///
    /// The error is read as the send's failure, as for an acknowledgement whose local change
    /// throws (`LocalChange`): one that may pass (a full disk, a store held by another process, an answer
    /// the plugin could not read) sends the operation again after a backoff, spending an
    /// attempt; one that will not (a plugin's SQL that fails) makes it a dead letter at once,
    /// naming the plugin, the answer and the error, which `ferry queue` shows and the pass
    /// counts. Either way the operation leaves flight: left there, it would be leased again
    /// whenever its lease ran out, sent, answered the same, and never settled.
    func unrecorded(
        _ answer: FailureClass,
        of operation: QueuedOperation,
        error: any Error,
        policy: OperationPolicy,
        plugin: any SyncPlugin
    ) async {
        let now = runtime.clock.now()
        let reason =
            "the \(operation.plugin) plugin could not record the remote's answer (\(answer.reason)): \(error)"
        let action: RetryAction
        switch FailureClass.classify(error, now: now) {
        case .rejected:
            action = .deadLetter(reason: reason, attempts: operation.attempts + 1)
        default:
            action = RetryDecision.decide(
                .transient(reason: reason, retryAfter: nil),
                attempts: operation.attempts,
                policy: policy.retry,
                now: now,
                unit: runtime.random()
            )
        }
        do {
            // A retry or a dead letter writes the outbox alone: nothing of the plugin's runs.
            try await apply(action, to: operation, policy: policy, plugin: plugin, refused: nil, now: now)
        } catch {
            // The store itself fails (a full disk): the lease runs out, and the operation goes again.
            runtime.logger.error(
                "could not record the outcome of operation \(operation.id) (\(reason)): \(error); it goes again once its lease runs out"
            )
        }
    }
}
