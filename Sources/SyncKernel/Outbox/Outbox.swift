import Foundation
import GRDB

/// The durable queue of writes waiting for a remote.
///
/// Every method runs inside a transaction the caller opened, so a plugin's local
/// write and the operation that carries it commit together.
public struct Outbox: Sendable {
    /// The policy of every operation kind of the enabled plugins.
    let policies: PolicyBook

    /// Creates the outbox that queues under `policies`.
    init(policies: PolicyBook) {
        self.policies = policies
    }

    /// Adds `operation`, coalescing it with the latest unsent operation on the same entity
    /// as the kind's policy says.
    @discardableResult
    func enqueue(
        _ operation: NewOperation,
        account: String? = nil,
        now: Date,
        in db: Database
    ) throws -> EnqueueResult {
        let policy = policies.policy(plugin: operation.plugin, kind: operation.kind)
        let latest = try OutboxQueries.latest(plugin: operation.plugin, entity: operation.entity, in: db)
        var operation = operation
        var behindAnother = latest != nil
        if let last = latest, last.isCoalescible, last.account == account {
            switch policy.coalesce.decision(previousKind: last.kind, newKind: operation.kind, remoteKnown: last.remoteKnown) {
            case .append:
                break
            case .replacePayload:
                try OutboxQueries.fold(operation.payload, into: last.sequence, madeAt: now, in: db)
                return .coalesced(last.id)
            case .mergePayload:
                let merged = try JSONMergePatch.apply(operation.payload, to: last.payload)
                try OutboxQueries.fold(merged, into: last.sequence, madeAt: now, in: db)
                return .coalesced(last.id)
            case .dropPrevious:
                try OutboxQueries.delete(last.sequence, in: db)
                // The new write goes in its place: the remote's state before it is the one
                // the dropped write was made on.
                operation.remoteKnown = operation.remoteKnown && last.remoteKnown
                behindAnother = try OutboxQueries.hasOperations(
                    plugin: operation.plugin,
                    entity: operation.entity,
                    in: db
                )
            case .cancelBoth:
                try OutboxQueries.delete(last.sequence, in: db)
                return .cancelled
            }
        }
        let id = UUID.timeOrdered(at: now)
        try OutboxQueries.insert(
            operation,
            id: id,
            state: behindAnother ? .queued : .pending,
            requiresUnmetered: policy.requirement == .unmetered,
            account: account,
            now: now,
            in: db
        )
        return .inserted(id)
    }
}

extension QueuedOperation {
    /// Never handed to the transport and not settled: safe to fold a newer write into.
    var isCoalescible: Bool {
        !dispatched && (state == .pending || state == .queued)
    }
}
