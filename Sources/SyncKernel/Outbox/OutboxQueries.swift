import Foundation
import GRDB

/// The outbox's SQL, each statement written for the index that serves it.
enum OutboxQueries {
    /// `next_attempt_at` of an operation due at once: never the clock's time, which a clock
    /// set back would turn into a wait until the clock came round again.
    static let dueAtOnce: Double = 0

    /// The entity's last operation. Most writes find none: asking for its sequence number
    /// first spares them decoding a row, whose column table GRDB builds for every `SELECT *`
    /// (a tenth of a local write's own cost).
    static func latest(plugin: String, entity: String, in db: Database) throws -> QueuedOperation? {
        guard
            let sequence = try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT seq FROM kernel_operations WHERE plugin = ? AND entity = ? ORDER BY seq DESC LIMIT 1"
                ),
                arguments: [plugin, entity]
            )
        else { return nil }
        return try operation(sequence: sequence, in: db)
    }

    /// Makes `base` the base of the entity's unsent operations: the remote's answer to the
    /// write they were made on top of, or none when that write deleted the entity.
    static func setBase(_ base: Data?, plugin: String, entity: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations SET base = ?
                WHERE plugin = ? AND entity = ? AND state IN ('pending', 'queued')
                """
        ).execute(arguments: [base, plugin, entity])
    }

    /// Whether an operation on the entity that is not a dead letter left at least once (or
    /// was sealed): what it did may be on the remote though no answer was recorded. A dead
    /// letter was refused, or waits for a person.
    static func wasSent(plugin: String, entity: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (
                        SELECT 1 FROM kernel_operations
                        WHERE plugin = ? AND entity = ? AND dispatched = 1 AND state != 'dead'
                    )
                    """
            ),
            arguments: [plugin, entity]
        ) ?? false
    }

    /// Marks operations as never to be folded into (see `QueuedOperation.dispatched`).
    static func seal(_ sequences: [Int64], in db: Database) throws {
        guard !sequences.isEmpty else { return }
        try db.execute(
            sql: "UPDATE kernel_operations SET dispatched = 1 WHERE seq IN (\(databaseQuestionMarks(count: sequences.count)))",
            arguments: StatementArguments(sequences)
        )
    }

    static func hasOperations(plugin: String, entity: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM kernel_operations WHERE plugin = ? AND entity = ?)"
            ),
            arguments: [plugin, entity]
        ) ?? false
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
                     requires_unmetered, account, remote_unknown)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id.lowercasedString, operation.plugin, operation.kind, operation.entity, operation.payload,
            operation.base, now.timeIntervalSince1970, dueAtOnce, state.rawValue,
            requiresUnmetered, account, !operation.remoteKnown,
        ])
    }

    /// Folds a newer write into an unsent operation: its payload, and the time it was made,
    /// which `last_write_wins` compares with the remote's.
    static func fold(_ payload: Data, into sequence: Int64, madeAt now: Date, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE kernel_operations SET payload = ?, created_at = ? WHERE seq = ?")
            .execute(arguments: [payload, now.timeIntervalSince1970, sequence])
    }

    static func setPayload(_ payload: Data, of sequence: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE kernel_operations SET payload = ? WHERE seq = ?")
            .execute(arguments: [payload, sequence])
    }

    /// Removes an operation and lets the next one on its entity go first.
    static func delete(_ sequence: Int64, in db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "DELETE FROM kernel_operations WHERE seq = ? RETURNING plugin, entity"),
                arguments: [sequence]
            )
        else { return }
        try promoteHead(plugin: row["plugin"], entity: row["entity"], in: db)
    }

    /// Removes the operation `sequence` and every later one of `plugin` on `entity`.
    static func deleteEntity(_ plugin: String, _ entity: String, from sequence: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM kernel_operations WHERE plugin = ? AND entity = ? AND seq >= ?")
            .execute(arguments: [plugin, entity, sequence])
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

    /// Due operations of `plugins` whose requirements hold, oldest due first.
    /// With an `account`, operations queued under another account, or while nobody was
    /// signed in, wait.
    static func due(
        now: Date,
        limit: Int,
        plugins: Set<String>,
        unmeteredAvailable: Bool,
        account: String?,
        in db: Database
    ) throws -> [QueuedOperation] {
        // INDEXED BY: the partial index kernel_operations_ready serves the ORDER BY, so the
        // first due rows are read in order. Left to itself the planner picks the (state,
        // plugin) index for the equalities and sorts every pending row on each call: 30 ms
        // per call at 100k pending, measured by ferry-bench.
        var sql = """
            SELECT * FROM kernel_operations INDEXED BY kernel_operations_ready
            WHERE state = 'pending' AND next_attempt_at <= ?
              AND plugin IN (\(databaseQuestionMarks(count: plugins.count)))
            """
        var arguments: StatementArguments = [now.timeIntervalSince1970]
        arguments += StatementArguments(plugins.sorted())
        if !unmeteredAvailable {
            sql += " AND requires_unmetered = 0"
        }
        if let account {
            // Work queued while nobody was signed in waits too, until a login gives it an account.
            sql += " AND account = ?"
            arguments += [account]
        }
        // An operation that waits for another entity goes once that entity has no
        // operation left (kernel_operations_entity answers at once).
        sql += """
             AND (depends_on IS NULL OR NOT EXISTS (
                SELECT 1 FROM kernel_operations AS other
                WHERE other.plugin = kernel_operations.plugin AND other.entity = kernel_operations.depends_on))
            """
        sql += " ORDER BY next_attempt_at, seq LIMIT ?"
        arguments += [limit]
        return try QueuedOperation.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// Makes operations that wait for connectivity or a backoff due now.
    static func cutWaits(now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations SET next_attempt_at = ?
                WHERE state = 'pending' AND next_attempt_at > ? AND waiting_for IN ('connectivity', 'retry')
                """
        ).execute(arguments: [dueAtOnce, now.timeIntervalSince1970])
    }

    /// Whether an operation waits from a time after `now`: the clock was set back since.
    static func hasWaitsFromTheFuture(now: Date, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (
                        SELECT 1 FROM kernel_operations
                        WHERE scheduled_at > ?2 AND state = 'pending' AND next_attempt_at > ?1)
                    """
            ),
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970 + 1]
        ) ?? false
    }

    /// Starts again from `now` every wait that started after it (the clock was set back
    /// since), keeping its length: a backoff of 30 s stays 30 s, however far the clock went.
    static func restartWaitsFromTheFuture(now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations
                SET next_attempt_at = ?1 + (next_attempt_at - scheduled_at), scheduled_at = ?1
                WHERE scheduled_at > ?2 AND state = 'pending' AND next_attempt_at > ?1
                """
        ).execute(arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970 + 1])
    }

    /// Puts back in line the in-flight operations whose lease expired or whose owner died.
    /// They keep their id, so the remote recognises a resend.
    static func reclaim(now: Date, deadOwners: [String], in db: Database) throws {
        var sql =
            "UPDATE kernel_operations SET state = 'pending', lease_owner = NULL, lease_until = NULL WHERE state = 'in_flight' AND (lease_until < ?"
        var arguments: StatementArguments = [now.timeIntervalSince1970]
        if !deadOwners.isEmpty {
            sql += " OR lease_owner IN (\(databaseQuestionMarks(count: deadOwners.count)))"
            arguments += StatementArguments(deadOwners)
        }
        try db.execute(sql: sql + ")", arguments: arguments)
    }

    /// Extends the leases `owner` holds on `sequences` (a send still running).
    static func renewLeases(_ sequences: [Int64], owner: String, until: Date, in db: Database) throws {
        for sequence in sequences {
            try db.cachedStatement(
                sql:
                    "UPDATE kernel_operations SET lease_until = ? WHERE seq = ? AND lease_owner = ? AND state = 'in_flight'"
            ).execute(arguments: [until.timeIntervalSince1970, sequence, owner])
        }
    }

    /// Leases the operations `sequences` to `owner` until `until`: a statement for up to 500
    /// of them, as a statement each was a sixth of the kernel's own cost in a batched drain
    /// (ferry-bench).
    static func lease(_ sequences: [Int64], owner: String, until: Date, in db: Database) throws {
        for start in stride(from: 0, to: sequences.count, by: 500) {
            let chunk = sequences[start..<min(sequences.count, start + 500)]
            // Cached: a drain's leases come in a few sizes (one, a batch, what is left).
            try db.cachedStatement(
                sql: """
                    UPDATE kernel_operations
                    SET state = 'in_flight', lease_owner = ?, lease_until = ?, dispatched = 1, waiting_for = NULL
                    WHERE seq IN (\(databaseQuestionMarks(count: chunk.count)))
                    """
            ).execute(arguments: [owner, until.timeIntervalSince1970] + StatementArguments(chunk))
        }
    }

    /// Puts a leased operation back in line to go once `entity` has no operation left.
    static func wait(_ sequence: Int64, for entity: String, reason: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations
                SET state = 'pending', next_attempt_at = ?, waiting_for = 'entity', depends_on = ?, last_error = ?,
                    lease_owner = NULL, lease_until = NULL
                WHERE seq = ?
                """
        ).execute(arguments: [dueAtOnce, entity, reason, sequence])
    }

    /// Puts a leased operation back in line, due `delay` seconds after `now` (at once when
    /// `delay` is 0). The wait's start is kept, so that a clock set back later does not
    /// lengthen it (`restartWaitsFromTheFuture`).
    static func reschedule(
        _ sequence: Int64,
        after delay: TimeInterval,
        now: Date,
        attempts: Int,
        waitingFor: WaitingFor?,
        error: String?,
        in db: Database
    ) throws {
        let waits = delay > 0
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations
                SET state = 'pending', next_attempt_at = ?, scheduled_at = ?, attempts = ?, waiting_for = ?,
                    last_error = ?, lease_owner = NULL, lease_until = NULL
                WHERE seq = ?
                """
        ).execute(arguments: [
            waits ? now.timeIntervalSince1970 + delay : dueAtOnce, waits ? now.timeIntervalSince1970 : nil,
            attempts, waitingFor?.rawValue, error, sequence,
        ])
    }

    static func settle(
        _ sequence: Int64,
        as state: OperationState,
        attempts: Int,
        error: String,
        in db: Database
    ) throws {
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
    /// Another entity's operations (`depends_on`).
    case entity
    case connectivity
    case retry
    case login
    /// A change of the plugin's configuration (`SendOutcome.needsConfiguration`).
    case configuration
}

extension OutboxQueries {
    /// Sends an operation again under a new idempotency key (the remote refused the first,
    /// so the key may not be replayed): forced, or with a merged payload.
    static func resend(
        _ sequence: Int64,
        payload: Data? = nil,
        base: Data? = nil,
        force: Bool,
        attempts: Int,
        now: Date,
        in db: Database
    ) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations
                SET id = ?, payload = COALESCE(?, payload), base = COALESCE(?, base), force = ?, attempts = ?,
                    state = 'pending', next_attempt_at = ?, waiting_for = NULL, dispatched = 1,
                    lease_owner = NULL, lease_until = NULL
                WHERE seq = ?
                """
        ).execute(arguments: [
                UUID.timeOrdered(at: now).lowercasedString, payload, base, force, attempts, dueAtOnce, sequence,
            ])
    }

    static func operation(sequence: Int64, in db: Database) throws -> QueuedOperation? {
        try QueuedOperation.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM kernel_operations WHERE seq = ?"),
            arguments: [sequence]
        )
    }

    static func operation(id: UUID, in db: Database) throws -> QueuedOperation? {
        try QueuedOperation.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM kernel_operations WHERE id = ?"),
            arguments: [id.lowercasedString]
        )
    }
}
