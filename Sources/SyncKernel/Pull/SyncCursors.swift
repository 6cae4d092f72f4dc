import Foundation
import GRDB

/// Durable pull cursors, one per plugin and name.
public enum SyncCursors {
    /// The cursor `plugin` stored under `name`, or nil before its first pull.
    public static func cursor(plugin: String, name: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT cursor FROM kernel_cursors WHERE plugin = ? AND name = ?"),
            arguments: [plugin, name]
        )
    }

    /// The layout `plugin`'s rows of the feed under `name` were built with, or nil.
    static func layout(plugin: String, name: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT layout FROM kernel_cursors WHERE plugin = ? AND name = ?"),
            arguments: [plugin, name]
        )
    }

    /// Stores `cursor` and the `layout` of the rows it covers for `plugin` under `name`,
    /// replacing the ones before; call it in the transaction that applies those rows.
    static func save(_ cursor: String, layout: String?, plugin: String, name: String, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO kernel_cursors (plugin, name, cursor, layout, updated_at) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [plugin, name, cursor, layout, now.timeIntervalSince1970])
    }

    /// Forgets every cursor of `plugin`, so that the next pull starts from the beginning.
    static func reset(plugin: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM kernel_cursors WHERE plugin = ?").execute(arguments: [plugin])
    }
}
