import Foundation
import GRDB

/// How a conflict ends, whoever decides it (a policy or a person).
enum ConflictOutcome: Sendable {
    /// The remote's state stands: adopt it and retire the operation.
    case remote
    /// The local write stands: send it again without its precondition.
    case local
    /// The plugin merged both: send the merged payload.
    case merged(Data)
    /// Wait for a person.
    case open

    var name: String {
        switch self {
        case .remote: "remote"
        case .local: "local"
        case .merged: "merged"
        case .open: "open"
        }
    }

    /// Decides the outcome `policy` gives a conflict on `operation`. With `fields` (the
    /// write merged field by field), the policy decides only the fields both sides changed:
    /// the write goes on top of the remote's state without the fields the remote won.
    static func decide(
        _ policy: ConflictPolicy,
        operation: QueuedOperation,
        remote: Data?,
        fields: FieldMerge?,
        plugin: any SyncPlugin
    ) throws -> ConflictOutcome {
        guard let fields else { return try decide(policy, operation: operation, remote: remote, plugin: plugin) }
        if fields.conflicts.isEmpty { return .merged(operation.payload) }
        switch try decide(policy, operation: operation, remote: remote, plugin: plugin) {
        case .local:
            return .merged(operation.payload)
        case .remote:
            let rest = try FieldMerge.payload(operation.payload, dropping: fields.conflicts.map(\.field))
            return rest.map(ConflictOutcome.merged) ?? .remote
        case let other:
            return other
        }
    }

    /// Decides the outcome `policy` gives a conflict on `operation` as a whole.
    static func decide(
        _ policy: ConflictPolicy,
        operation: QueuedOperation,
        remote: Data?,
        plugin: any SyncPlugin
    ) throws -> ConflictOutcome {
        switch policy {
        case .serverWins, .firstWriteWins: return .remote
        case .clientWins: return .local
        case .manual: return .open
        case .lastWriteWins:
            // A deletion (the remote's current entity is `null`) has no time to compare with,
            // and ends the entity: it wins.
            if ConflictReport.isDeletion(remote) { return .remote }
            guard let remote, let remoteTime = plugin.remoteUpdatedAt(remote) else { return .local }
            return remoteTime > operation.createdAt ? .remote : .local
        case .merge:
            guard let remote else { return .open }
            return .merged(
                try plugin.merge(base: operation.base, local: operation.payload, remote: remote, kind: operation.kind)
            )
        }
    }

    /// A person's choice: the local write again, unconditionally, or the remote's state.
    /// Keeping the remote's state of a write merged field by field keeps only the fields
    /// both sides changed: the write's other fields still go on top.
    static func settledByHand(
        _ report: ConflictReport,
        operation: QueuedOperation,
        keepLocal: Bool
    ) throws -> ConflictOutcome {
        if keepLocal { return .local }
        guard !report.fields.isEmpty,
            let rest = try FieldMerge.payload(operation.payload, dropping: report.fields.map(\.field))
        else { return .remote }
        return .merged(rest)
    }

    /// Carries out the outcome in one transaction.
    func apply(
        to operation: QueuedOperation,
        report: ConflictReport,
        plugin: any SyncPlugin,
        maxAttempts: Int,
        now: Date,
        in db: Database
    ) throws {
        switch self {
        case .remote where report.remoteDeleted:
            // The deletion ends the entity: the writes queued after this one were made on
            // what is gone (a patch of it would be refused for good), and go with it.
            try plugin.adoptRemote(report, in: db)
            try OutboxQueries.deleteEntity(operation.plugin, operation.entity, from: operation.sequence, in: db)
        case .remote:
            try plugin.adoptRemote(report, in: db)
            try OutboxQueries.delete(operation.sequence, in: db)
            try RemoteIdentity.adopt(report, of: operation, plugin: plugin, now: now, in: db)
            try Rebase.entity(operation.entity, of: plugin, from: .elsewhere, in: db)
        case .local, .merged:
            let attempts = operation.attempts + 1
            if attempts >= maxAttempts {
                try OutboxQueries.settle(
                    operation.sequence,
                    as: .dead,
                    attempts: attempts,
                    error: "still conflicting after \(attempts) attempts: \(report.reason)",
                    in: db
                )
            } else if case .merged(let payload) = self {
                // The merged write goes on top of the remote's state, which the rows show
                // from now on with the write applied again.
                try OutboxQueries.resend(
                    operation.sequence,
                    payload: payload,
                    base: report.remote,
                    force: false,
                    attempts: attempts,
                    now: now,
                    in: db
                )
                try plugin.adoptRemote(report, in: db)
                try Rebase.entity(operation.entity, of: plugin, from: .elsewhere, in: db)
            } else {
                try OutboxQueries.resend(operation.sequence, force: true, attempts: attempts, now: now, in: db)
            }
        case .open:
            try OutboxQueries.settle(
                operation.sequence,
                as: .conflict,
                attempts: operation.attempts,
                error: report.reason,
                in: db
            )
        }
    }
}
