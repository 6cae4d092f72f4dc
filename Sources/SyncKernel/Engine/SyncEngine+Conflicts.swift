import Foundation
import GRDB

extension SyncEngine {
    /// Applies the operation's conflict policy and records the conflict.
    func resolveConflict(
        _ operation: QueuedOperation,
        status: Int,
        reason: String,
        remote: Data?,
        policy: OperationPolicy,
        plugin: any SyncPlugin,
        now: Date
    ) async throws {
        let fields = try Self.fieldMerge(operation, remote: remote, policy: policy.conflict, plugin: plugin)
        let outcome: ConflictOutcome
        // What the report says was kept: with fields both sides changed, the side the policy
        // kept for those (the write's other fields go on top either way).
        let kept: String
        do {
            (outcome, kept) = try Self.decide(operation, remote: remote, fields: fields, policy: policy.conflict, plugin: plugin)
        } catch {
            runtime.logger.warning(
                "\(operation.plugin) \(operation.kind): merge failed (\(error)); keeping the conflict for a person"
            )
            (outcome, kept) = (.open, ConflictOutcome.open.name)
        }
        let report = ConflictReport(
            operation: operation,
            policy: policy.conflict,
            status: status,
            remote: remote,
            fields: fields?.conflicts ?? [],
            reason: reason,
            outcome: kept,
            createdAt: now
        )
        // Merged field by field with no field changed on both sides: no conflict at all.
        let clean = fields?.conflicts.isEmpty ?? false
        // A conflict answered from the remote's record of an earlier attempt shows the remote
        // as it was then: the plugin's feed is pulled again from the start.
        let replayed = answeredFromRecord.remove(operation.id) != nil
        try await writeEvenIfCancelled { db in
            if replayed { try SyncCursors.reset(plugin: operation.plugin, in: db) }
            try outcome.apply(
                to: operation,
                report: report,
                plugin: plugin,
                maxAttempts: policy.retry.maxAttempts,
                now: now,
                in: db
            )
            if !clean { try ConflictStore.insert(report, in: db) }
        }
        if clean {
            runtime.logger.debug("\(operation.plugin) \(operation.kind) \(operation.entity): merged field by field")
            return
        }
        summary.conflicts += 1
        runtime.events.emit(.conflict(report))
    }

    /// The outcome `policy` gives the conflict, and the side it kept: with fields both sides
    /// changed, the side kept for those, whatever the outcome sends.
    static func decide(
        _ operation: QueuedOperation,
        remote: Data?,
        fields: FieldMerge?,
        policy: ConflictPolicy,
        plugin: any SyncPlugin
    ) throws -> (ConflictOutcome, kept: String) {
        let outcome = try ConflictOutcome.decide(policy, operation: operation, remote: remote, fields: fields, plugin: plugin)
        guard let fields, !fields.conflicts.isEmpty else { return (outcome, outcome.name) }
        return (outcome, try ConflictOutcome.decide(policy, operation: operation, remote: remote, plugin: plugin).name)
    }

    /// The write split field by field against its base, when its plugin names the fields
    /// it sets and the policy decides per field (not `merge`, which is the plugin's own,
    /// nor `first_write_wins`, for creates).
    static func fieldMerge(
        _ operation: QueuedOperation,
        remote: Data?,
        policy: ConflictPolicy,
        plugin: any SyncPlugin
    ) throws -> FieldMerge? {
        guard policy != .merge, policy != .firstWriteWins, let remote,
            let local = try plugin.fieldChanges(operation)
        else { return nil }
        return FieldMerge(base: operation.base, local: local, remote: remote)
    }
}

extension FerryRuntime {
    /// Settles an open conflict by hand: keep the local write (sent again without its
    /// precondition) or the remote state (adopted, the operation retired).
    public func resolveConflict(id: String, keepLocal: Bool) async throws -> ConflictReport {
        let now = clock.now()
        let registry = self.registry
        let policies = outbox.policies
        return try await store.write { db in
            guard let report = try ConflictStore.find(id, in: db) else {
                throw FerryError(.notFound, "no conflict \(id)", remedy: .listConflicts)
            }
            guard report.outcome == "open" else {
                throw FerryError(.usage, "conflict \(report.id) was already settled (kept \(report.outcome))")
            }
            guard let operation = try OutboxQueries.operation(id: report.operationID, in: db),
                let plugin = registry.plugin(named: report.plugin)
            else {
                throw FerryError(.notFound, "the operation of conflict \(report.id) is gone, or its plugin is disabled")
            }
            let outcome = try ConflictOutcome.settledByHand(report, operation: operation, keepLocal: keepLocal)
            let maxAttempts = policies.policy(plugin: report.plugin, kind: report.kind).retry.maxAttempts
            try outcome.apply(
                to: operation,
                report: report,
                plugin: plugin,
                maxAttempts: max(maxAttempts, operation.attempts + 2),
                now: now,
                in: db
            )
            try ConflictStore.setOutcome(report.id, outcome.name, now: now, in: db)
            var settled = report
            settled.outcome = outcome.name
            return settled
        }
    }
}
