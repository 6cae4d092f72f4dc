import Foundation

extension SyncEngine {
    /// The remote answered `operation` (`answer` says how), but what follows could not be
    /// recorded: a local change that goes with it threw (an acknowledgement's `apply`, the
    /// plugin's `adoptRemote` after a conflict the remote won), or the store failed.
    ///
    /// The error is classified as a send's failure is (`LocalChange`): one that may pass (a
    /// full disk, an answer the plugin could not read, an error the kernel does not know)
    /// sends the operation again after a backoff, spending an attempt (none for a full disk:
    /// the device's condition, not the operation's); one that will not (SQL
    /// that fails, a `FerryError` that says so) makes it a dead letter at once, naming the
    /// plugin, the answer and the error, which `ferry queue` shows and the pass counts.
    /// Either way the operation leaves flight: left there, it would be leased again whenever
    /// its lease ran out, sent, answered the same, and never settled.
    func unrecorded(
        _ answer: String,
        of operation: QueuedOperation,
        error: any Error,
        plugin: any SyncPlugin
    ) async {
        let now = runtime.clock.now()
        let policy = runtime.outbox.policies.policy(plugin: operation.plugin, kind: operation.kind)
        let reason = "the \(operation.plugin) plugin could not record the remote's answer (\(answer)): \(error)"
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
                unit: runtime.random(),
                spendsAttempt: !StoreFailure.isFull(error)
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
