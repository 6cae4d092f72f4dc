import Foundation
import GRDB

/// The outbox's SQL, each statement written for the index that serves it.
enum OutboxQueries {
    static func latest(plugin: String, entity: String, in db: Database) throws -> QueuedOperation? {
        try QueuedOperation.fetchOne(
            db.cachedStatement(
                sql: "SELECT * FROM kernel_operations WHERE plugin = ? AND entity = ? ORDER BY seq DESC LIMIT 1"),
            arguments: [plugin, entity])
    }

    static func hasOperations(plugin: String, entity: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM kernel_operations WHERE plugin = ? AND entity = ?)"),
            arguments: [plugin, entity]) ?? false
    }

    static func insert(
        _ operation: NewOperation,
        id: UUID,
        state: OperationState,
        requiresUnmetered: Bool,
        account: String?,
        now: Date,
        in db: Database
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO kernel_operations
                    (id, plugin, kind, entity, payload, base, created_at, next_attempt_at, state,
                     requires_unmetered, account)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id.uuidString.lowercased(), operation.plugin, operation.kind, operation.entity, operation.payload,
            operation.base, now.timeIntervalSince1970, now.timeIntervalSince1970, state.rawValue,
            requiresUnmetered, account,
        ])
    }

    static func setPayload(_ payload: Data, of sequence: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE kernel_operations SET payload = ? WHERE seq = ?")
            .execute(arguments: [payload, sequence])
    }

    /// Removes an operation and lets the next one on its entity go first.
    static func delete(_ sequence: Int64, in db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT plugin, entity FROM kernel_operations WHERE seq = ?"),
                arguments: [sequence])
        else { return }
        try db.cachedStatement(sql: "DELETE FROM kernel_operations WHERE seq = ?").execute(arguments: [sequence])
        try promoteHead(plugin: row["plugin"], entity: row["entity"], in: db)
    }

    /// Makes the first operation of an entity pending if it was queued behind another.
    static func promoteHead(plugin: String, entity: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations SET state = 'pending'
                WHERE seq = (SELECT seq FROM kernel_operations WHERE plugin = ? AND entity = ? ORDER BY seq LIMIT 1)
                  AND state = 'queued'
                """
        ).execute(arguments: [plugin, entity])
    }

    /// Due operations whose requirements hold, oldest due first.
    static func due(
        now: Date,
        limit: Int,
        heldPlugins: Set<String>,
        unmeteredAvailable: Bool,
        in db: Database
    ) throws -> [QueuedOperation] {
        var sql = "SELECT * FROM kernel_operations WHERE state = 'pending' AND next_attempt_at <= ?"
        var arguments: StatementArguments = [now.timeIntervalSince1970]
        if !heldPlugins.isEmpty {
            sql += " AND plugin NOT IN (\(databaseQuestionMarks(count: heldPlugins.count)))"
            arguments += StatementArguments(heldPlugins.sorted())
        }
        if !unmeteredAvailable {
            sql += " AND requires_unmetered = 0"
        }
        sql += " ORDER BY next_attempt_at, seq LIMIT ?"
        arguments += [limit]
        return try QueuedOperation.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func lease(_ sequence: Int64, owner: String, until: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations
                SET state = 'in_flight', lease_owner = ?, lease_until = ?, dispatched = 1, waiting_for = NULL
                WHERE seq = ?
                """
        ).execute(arguments: [owner, until.timeIntervalSince1970, sequence])
    }

    /// Puts a leased operation back in line, due at `at`.
    static func reschedule(
        _ sequence: Int64,
        at: Date,
        attempts: Int,
        waitingFor: WaitingFor?,
        error: String?,
        in db: Database
    ) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations
                SET state = 'pending', next_attempt_at = ?, attempts = ?, waiting_for = ?, last_error = ?,
                    lease_owner = NULL, lease_until = NULL
                WHERE seq = ?
                """
        ).execute(arguments: [at.timeIntervalSince1970, attempts, waitingFor?.rawValue, error, sequence])
    }

    static func settle(_ sequence: Int64, as state: OperationState, attempts: Int, error: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations
                SET state = ?, attempts = ?, last_error = ?, waiting_for = NULL, lease_owner = NULL, lease_until = NULL
                WHERE seq = ?
                """
        ).execute(arguments: [state.rawValue, attempts, error, sequence])
    }
}

/// Why a pending operation is not being sent right now, as stored with it.
enum WaitingFor: String, Sendable {
    case connectivity
    case retry
    case login
}
