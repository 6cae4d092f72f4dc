import Foundation
import GRDB

extension FerryRuntime {
    /// Sends a dead (or waiting) operation again now, with its attempts reset. An operation
    /// in another state (in flight, queued behind another, in a conflict) is left as it is.
    public func retry(_ operation: QueuedOperation) async throws {
        try await store.write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE kernel_operations
                    SET state = 'pending', attempts = 0, next_attempt_at = ?, waiting_for = NULL, last_error = NULL
                    WHERE seq = ? AND state IN ('dead', 'pending')
                    """
            ).execute(arguments: [OutboxQueries.dueAtOnce, operation.sequence])
        }
    }

    /// Sends every dead letter again; returns how many.
    public func retryAllDead() async throws -> Int {
        try await retryAll(states: [.dead])
    }

    /// Makes every operation in `states` (of `plugin`, or of every plugin) due now, with
    /// its attempts reset and its wait (backoff, connectivity) forgotten; returns how many.
    /// Operations held for a login stay held until a login.
    public func retryAll(plugin: String? = nil, states: Set<OperationState> = [.dead, .pending]) async throws -> Int {
        let states = states.intersection([.dead, .pending]).map(\.rawValue)
        guard !states.isEmpty else { return 0 }
        return try await store.write { db in
            var sql = """
                UPDATE kernel_operations
                SET state = 'pending', attempts = 0, next_attempt_at = ?, last_error = NULL,
                    waiting_for = CASE WHEN waiting_for = 'login' THEN 'login' ELSE NULL END
                WHERE state IN (\(databaseQuestionMarks(count: states.count)))
                """
            var arguments: StatementArguments = [OutboxQueries.dueAtOnce]
            arguments += StatementArguments(states)
            if let plugin {
                sql += " AND plugin = ?"
                arguments += [plugin]
            }
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }

    /// Drops an operation for good, and marks its open conflict, if any, `discarded`. The
    /// plugin's cursors are reset so that the next pull brings the entity back to the
    /// remote's state.
    ///
    /// - Throws: a `usage` error while the operation is being sent.
    public func discard(_ operation: QueuedOperation) async throws {
        guard operation.state != .inFlight else {
            throw FerryError(.usage, "operation \(operation.shortID) is being sent right now; try again in a moment")
        }
        let plugin = registry.plugin(named: operation.plugin)
        try await store.write { db in
            try OutboxQueries.delete(operation.sequence, in: db)
            if try plugin?.discarded(operation, in: db) == true {
                try Outbox.discardAll(plugin: operation.plugin, entity: operation.entity, in: db)
            }
            try db.cachedStatement(
                sql: "UPDATE kernel_conflicts SET outcome = 'discarded' WHERE operation_id = ? AND outcome = 'open'"
            ).execute(arguments: [operation.id.lowercasedString])
            try SyncCursors.reset(plugin: operation.plugin, in: db)
        }
    }
}
