import Foundation
import GRDB

/// Per-plugin state the kernel keeps: whether its queue waits for a login, and when it last synced.
public enum PluginState {
    /// Holds `plugin`'s queue until someone logs in; nothing is dropped, no attempt is spent.
    public static func holdForLogin(_ plugin: String, reason: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO kernel_plugin_state (plugin, needs_login, hold_reason) VALUES (?, 1, ?)
                ON CONFLICT(plugin) DO UPDATE SET needs_login = 1, hold_reason = excluded.hold_reason
                """,
            arguments: [plugin, reason]
        )
    }

    /// Releases every queue held for a login and makes its waiting operations due now.
    public static func resumeAfterLogin(now: Date, in db: Database) throws {
        try db.execute(sql: "UPDATE kernel_plugin_state SET needs_login = 0, hold_reason = NULL")
        try db.execute(
            sql:
                "UPDATE kernel_operations SET next_attempt_at = ?, waiting_for = NULL WHERE state = 'pending' AND waiting_for = 'login'",
            arguments: [now.timeIntervalSince1970]
        )
    }

    public static func recordSync(_ plugin: String, at now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO kernel_plugin_state (plugin, last_sync_at) VALUES (?, ?)
                ON CONFLICT(plugin) DO UPDATE SET last_sync_at = excluded.last_sync_at
                """,
            arguments: [plugin, now.timeIntervalSince1970]
        )
    }
}

extension PluginState {
    /// When `plugin` last pulled successfully, if ever.
    public static func lastSync(_ plugin: String, in db: Database) throws -> Date? {
        try Double.fetchOne(
            db,
            sql: "SELECT last_sync_at FROM kernel_plugin_state WHERE plugin = ?",
            arguments: [plugin]
        )
        .map(Date.init(timeIntervalSince1970:))
    }
}
