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

    /// Whether `plugin` has pulled its feed under `name` for the account whose data the
    /// store holds: false on a new store and after another account's sign-in, while what
    /// the plugin's rows say of the remote is not known, only empty.
    public static func hasPulled(plugin: String, name: String, in db: Database) throws -> Bool {
        try cursor(plugin: plugin, name: name, in: db) != nil
    }

    /// The layout `plugin`'s rows of the feed under `name` were built with, or nil.
    static func layout(plugin: String, name: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT layout FROM kernel_cursors WHERE plugin = ? AND name = ?"),
            arguments: [plugin, name]
        )
    }

    /// The change numbers `plugin`'s feed under `name` has still to present (`seen`): the
    /// lowest and highest write answers gave since the feed was pulled; nil when none did.
    static func seen(plugin: String, name: String, in db: Database) throws -> ClosedRange<Int>? {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seen_first, seen_last FROM kernel_cursors WHERE plugin = ? AND name = ?"),
            arguments: [plugin, name]
        )
        guard let first = row?["seen_first"] as Int?, let last = row?["seen_last"] as Int? else { return nil }
        return min(first, last)...max(first, last)
    }

    /// Stores `cursor` and the `layout` of the rows it covers for `plugin` under `name`,
    /// replacing the ones before; call it in the transaction that applies those rows. The
    /// change numbers up to the highest the pull presented (`checked`) are done with; from
    /// there to a higher one noted since, the next pull presents them. A feed's first
    /// cursor takes them from the plugin's feeds never pulled (``unpulled``).
    static func save(
        _ cursor: String,
        layout: String?,
        checked: ClosedRange<Int>?,
        plugin: String,
        name: String,
        now: Date,
        in db: Database
    ) throws {
        // A feed's first cursor: its row starts as a copy of the unpulled one's numbers.
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO kernel_cursors (plugin, name, cursor, updated_at, seen_first, seen_last)
                SELECT ?1, ?2, '', 0, unpulled.seen_first, unpulled.seen_last
                FROM (SELECT 1) LEFT JOIN kernel_cursors unpulled ON unpulled.plugin = ?1 AND unpulled.name = ?3
                """
        ).execute(arguments: [plugin, name, unpulled])
        try db.cachedStatement(
            sql: """
                UPDATE kernel_cursors SET cursor = ?3, layout = ?4, updated_at = ?5,
                    seen_first = CASE WHEN ?6 IS NULL THEN seen_first WHEN seen_last <= ?6 THEN NULL
                        ELSE MAX(seen_first, ?6) END,
                    seen_last = CASE WHEN ?6 IS NULL THEN seen_last WHEN seen_last <= ?6 THEN NULL ELSE seen_last END
                WHERE plugin = ?1 AND name = ?2
                """
        ).execute(arguments: [plugin, name, cursor, layout, now.timeIntervalSince1970, checked?.upperBound])
    }

    /// Notes the change numbers a send's answers gave (`Ferry-Change`) beside every cursor
    /// of `plugin`, widening what each of its feeds presents at its next pull, and beside
    /// ``unpulled``, for the first pull of a feed that has no cursor yet.
    static func noteSeen(_ changes: ClosedRange<Int>, plugin: String, in db: Database) throws {
        try keepUnpulled(plugin: plugin, in: db)
        try db.cachedStatement(
            sql: """
                UPDATE kernel_cursors SET seen_first = MIN(COALESCE(seen_first, ?1), ?1),
                    seen_last = MAX(COALESCE(seen_last, ?2), ?2)
                WHERE plugin = ?3
                """
        ).execute(arguments: [changes.lowerBound, changes.upperBound, plugin])
    }

    /// The name of the row that stands, beside a plugin's cursors, for its feeds never
    /// pulled: what a write answer or a reset notes there, a feed's first pull takes
    /// (`PluginContext.follow`). Without it, a write sent before a feed's first pull, that
    /// a server restored from a backup then forgot, would stay on the device for good.
    /// It has no cursor of its own (an empty one), and no plugin may name a feed so.
    public static let unpulled = "kernel.unpulled"

    /// Makes sure `plugin` has its ``unpulled`` row.
    private static func keepUnpulled(plugin: String, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO kernel_cursors (plugin, name, cursor, updated_at) VALUES (?, ?, '', 0)"
        ).execute(arguments: [plugin, unpulled])
    }

    /// The layout a reset leaves beside a cursor: whatever the plugin's own, its next pull
    /// pulls the feed again from the start and sweeps what the remote no longer has.
    static let resyncLayout = "kernel.resync"

    /// Marks every cursor of `plugin` for a resync (``resyncLayout``), ``unpulled`` too: its
    /// next pull starts from the beginning and drops the rows the remote no longer has.
    static func reset(plugin: String, in db: Database) throws {
        try keepUnpulled(plugin: plugin, in: db)
        try db.cachedStatement(sql: "UPDATE kernel_cursors SET layout = ? WHERE plugin = ?")
            .execute(arguments: [resyncLayout, plugin])
    }
}
