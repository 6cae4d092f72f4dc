import Foundation
import GRDB

/// A local entity that turned out to be one the remote already has: its creation was
/// refused in a conflict the remote won, and the plugin names the remote entity that
/// stands in its place (`SyncPlugin.remoteIdentity(of:)`).
///
/// Without this, the writes queued on the local entity wait for a remote id that never
/// comes, and end as dead letters. With it, the local id is mapped to the remote one as a
/// delivered create maps it, and those writes go to the remote entity.
enum RemoteIdentity {
    /// Maps the local entity of `operation` to the remote entity the plugin names for
    /// `report`, if any, in the transaction that settles the conflict (after the
    /// operation left the outbox and the plugin adopted the remote's state).
    static func adopt(
        _ report: ConflictReport,
        of operation: QueuedOperation,
        plugin: any SyncPlugin,
        now: Date,
        in db: Database
    ) throws {
        guard let remoteID = plugin.remoteIdentity(of: report), !remoteID.isEmpty, remoteID != operation.entity
        else { return }
        let merged = try entities(containing: operation.entity, plugin: operation.plugin, in: db)
        try IDMappings.remap(operation, to: remoteID, plugin: plugin, now: now, in: db)
        for entity in merged {
            let remoteEntity = entity.replacingOccurrences(of: operation.entity, with: remoteID)
            try lineUp(remoteEntity, plugin: operation.plugin, in: db)
            try Rebase.entity(remoteEntity, of: plugin, from: .elsewhere, in: db)
        }
    }

    /// The entity keys of `plugin`'s operations that contain `localID` (the entity itself
    /// and composite keys such as `round/movie/member`).
    private static func entities(containing localID: String, plugin: String, in db: Database) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql: "SELECT DISTINCT entity FROM kernel_operations WHERE plugin = ? AND instr(entity, ?) > 0"
            ),
            arguments: [plugin, localID]
        )
    }

    /// Unlike a fresh id, the remote entity may already have operations of its own: after
    /// the rewrite, the entity keeps one operation in front (its oldest, unless one is
    /// being sent), and the others queue behind it, so that they still go one at a time.
    private static func lineUp(_ entity: String, plugin: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE kernel_operations SET state = 'queued'
                WHERE plugin = ?1 AND entity = ?2 AND state = 'pending'
                  AND (seq > (SELECT MIN(seq) FROM kernel_operations WHERE plugin = ?1 AND entity = ?2)
                    OR EXISTS (SELECT 1 FROM kernel_operations
                               WHERE plugin = ?1 AND entity = ?2 AND state = 'in_flight'))
                """
        ).execute(arguments: [plugin, entity])
    }
}
