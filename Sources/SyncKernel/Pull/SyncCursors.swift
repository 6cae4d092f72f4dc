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

    /// What `plugin`'s feed under `name` has still to present (`seen`): the first and last
    /// change numbers write answers gave since the feed was pulled, as `first,last`; nil
    /// when there is none.
    static func seen(plugin: String, name: String, in db: Database) throws -> String? {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seen_first, seen_last FROM kernel_cursors WHERE plugin = ? AND name = ?"),
            arguments: [plugin, name]
        )
        guard let first = row?["seen_first"] as String?, let last = row?["seen_last"] as String? else { return nil }
        return first == last ? first : "\(first),\(last)"
    }

    /// Stores `cursor` and the `layout` of the rows it covers for `plugin` under `name`,
    /// replacing the ones before; call it in the transaction that applies those rows. The
    /// change numbers the pull presented (`checked`) are done with, unless another came
    /// since (then the next pull presents them all again).
    static func save(
        _ cursor: String,
        layout: String?,
        checked: String?,
        plugin: String,
        name: String,
        now: Date,
        in db: Database
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO kernel_cursors (plugin, name, cursor, layout, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (plugin, name) DO UPDATE SET
                    cursor = excluded.cursor, layout = excluded.layout, updated_at = excluded.updated_at,
                    seen_first = CASE WHEN \(presented) THEN NULL ELSE seen_first END,
                    seen_last = CASE WHEN \(presented) THEN NULL ELSE seen_last END
                """
        ).execute(arguments: [plugin, name, cursor, layout, now.timeIntervalSince1970, checked])
    }

    /// Whether the stored `seen_first` and `seen_last` are what the pull presented (`?6`,
    /// as ``seen(plugin:name:in:)`` gave it): none came since.
    private static let presented = """
        ?6 = CASE WHEN seen_first = seen_last THEN seen_first ELSE seen_first || ',' || seen_last END
        """

    /// Notes the change number a write's answer gave (`Ferry-Change`) beside every
    /// cursor of `plugin`, after the first one since its last pull: each of its feeds
    /// presents both at its next pull.
    static func noteSeen(_ change: String, plugin: String, in db: Database) throws {
        try db.cachedStatement(
            sql: "UPDATE kernel_cursors SET seen_first = COALESCE(seen_first, ?1), seen_last = ?1 WHERE plugin = ?2"
        ).execute(arguments: [change, plugin])
    }

    /// Forgets every cursor of `plugin`, so that the next pull starts from the beginning.
    static func reset(plugin: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM kernel_cursors WHERE plugin = ?").execute(arguments: [plugin])
    }
}
