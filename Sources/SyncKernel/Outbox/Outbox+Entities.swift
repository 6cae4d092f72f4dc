import Foundation
import GRDB

/// What plugins may ask of the outbox about their own entities, so that no plugin
/// reads or writes the kernel's tables itself. Every read sees the operations of the
/// account the local data belongs to and those made while nobody was signed in, never
/// another account's (`LocalDataAccount`).
extension Outbox {
    /// Every operation of `plugin` on `entity` in the outbox, oldest first, dead ones included.
    public static func operations(plugin: String, entity: String, in db: Database) throws -> [QueuedOperation] {
        try QueuedOperation.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM kernel_operations WHERE plugin = ? AND entity = ?\(LocalDataAccount.filter) ORDER BY seq"
            ),
            arguments: [plugin, entity]
        )
    }

    /// The operations of `plugin` on `entity` that still have to reach the remote (dead
    /// letters excluded), oldest first: what a pull must apply again on top of remote state.
    public static func unsentOperations(plugin: String, entity: String, in db: Database) throws -> [QueuedOperation] {
        try operations(plugin: plugin, entity: entity, in: db).filter { $0.state != .dead }
    }

    /// The unsent operations of `plugin` on each of `entities` (dead letters excluded),
    /// oldest first, in one query; entities without any are left out. (The entities go as
    /// one JSON array, so the statement is the same for any number: prepared once.)
    static func unsentOperations(
        plugin: String,
        entities: [String],
        in db: Database
    ) throws -> [String: [QueuedOperation]] {
        guard !entities.isEmpty else { return [:] }
        let list = String(decoding: try SortedJSON.data(entities), as: UTF8.self)
        let operations = try QueuedOperation.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT * FROM kernel_operations
                    WHERE plugin = ? AND state != 'dead' AND entity IN (SELECT value FROM json_each(?))
                        \(LocalDataAccount.filter)
                    ORDER BY seq
                    """
            ),
            arguments: [plugin, list]
        )
        var found: [String: [QueuedOperation]] = [:]
        for operation in operations { found[operation.entity, default: []].append(operation) }
        return found
    }

    /// The entities of `plugin` that have operations in the outbox; dead ones only when asked.
    public static func entitiesWithWork(
        plugin: String,
        includingDead: Bool = false,
        in db: Database
    ) throws -> Set<String> {
        let filter = includingDead ? "" : " AND state != 'dead'"
        return try String.fetchSet(
            db.cachedStatement(
                sql: "SELECT DISTINCT entity FROM kernel_operations WHERE plugin = ?" + filter + LocalDataAccount.filter
            ),
            arguments: [plugin]
        )
    }

    /// The entities of `plugin` that have a dead letter: a write that failed for good and
    /// waits for a person (`ferry queue retry` or `discard`).
    public static func entitiesWithDeadLetters(plugin: String, in db: Database) throws -> Set<String> {
        try String.fetchSet(
            db.cachedStatement(
                sql: "SELECT DISTINCT entity FROM kernel_operations WHERE plugin = ? AND state = 'dead'"
                    + LocalDataAccount.filter
            ),
            arguments: [plugin]
        )
    }

    /// Drops every operation of `plugin` on `entity` (an entity forgotten before it ever
    /// reached the remote). Refuses while one of them is being sent.
    static func discardAll(plugin: String, entity: String, in db: Database) throws {
        let inFlight =
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT EXISTS (SELECT 1 FROM kernel_operations WHERE plugin = ? AND entity = ? AND state = 'in_flight')"
                ),
                arguments: [plugin, entity]
            ) ?? false
        guard !inFlight else {
            throw FerryError(.usage, "\(entity) is being sent right now; try again in a moment")
        }
        try db.cachedStatement(sql: "DELETE FROM kernel_operations WHERE plugin = ? AND entity = ?")
            .execute(arguments: [plugin, entity])
    }
}

extension Outbox {
    /// Every operation of `plugin` in the outbox, oldest first, dead ones included.
    public static func operations(plugin: String, in db: Database) throws -> [QueuedOperation] {
        try QueuedOperation.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM kernel_operations WHERE plugin = ?\(LocalDataAccount.filter) ORDER BY seq"
            ),
            arguments: [plugin]
        )
    }

    /// The operations of `plugin` of one `kind` (its removals, say), oldest first, dead
    /// ones included.
    public static func operations(plugin: String, kind: String, in db: Database) throws -> [QueuedOperation] {
        try QueuedOperation.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM kernel_operations WHERE plugin = ? AND kind = ?\(LocalDataAccount.filter) ORDER BY seq"
            ),
            arguments: [plugin, kind]
        )
    }
}
