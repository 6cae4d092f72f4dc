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

    /// Decides the outcome `policy` gives a conflict on `operation`.
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
        case .remote:
            try plugin.adoptRemote(report, in: db)
            try OutboxQueries.delete(operation.sequence, in: db)
            try Rebase.entity(operation.entity, of: plugin, in: db)
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
                try OutboxQueries.resend(
                    operation.sequence,
                    payload: payload,
                    base: report.remote,
                    force: false,
                    attempts: attempts,
                    now: now,
                    in: db
                )
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
