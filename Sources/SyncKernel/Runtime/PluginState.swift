import Foundation
import GRDB

/// Per-plugin state the kernel keeps: whether its queue waits for a login, and when it last synced.
public enum PluginState {
    /// Holds `plugin`'s queue until someone logs in; nothing is dropped, no attempt is spent.
    ///
    /// - Parameter credential: the fingerprint of the credential the remote refused (nil
    ///   when none was sent); the hold ends when the provider has another one.
    static func holdForLogin(_ plugin: String, reason: String, credential: String?, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO kernel_plugin_state (plugin, needs_login, hold_reason, hold_credential) VALUES (?, 1, ?, ?)
                ON CONFLICT(plugin) DO UPDATE
                SET needs_login = 1, hold_reason = excluded.hold_reason, hold_credential = excluded.hold_credential
                """
        ).execute(arguments: [plugin, reason, credential])
    }

    /// Records that `plugin`'s operations wait for its configuration, as it is now
    /// (`fingerprint`), to change.
    static func holdForConfiguration(_ plugin: String, fingerprint: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO kernel_plugin_state (plugin, configuration_hold) VALUES (?, ?)
                ON CONFLICT(plugin) DO UPDATE SET configuration_hold = excluded.configuration_hold
                """
        ).execute(arguments: [plugin, fingerprint])
    }

    /// The plugins holding operations for a configuration change, with the fingerprint
    /// they wait to see change.
    static func configurationHolds(in db: Database) throws -> [String: String] {
        var holds: [String: String] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT plugin, configuration_hold FROM kernel_plugin_state WHERE configuration_hold IS NOT NULL"
            )
        ) {
            holds[row["plugin"]] = row["configuration_hold"]
        }
        return holds
    }

    /// Makes the operations that waited for a configuration change due now, for each plugin
    /// whose configuration is no longer the one they waited with; returns the plugins whose
    /// operations went again.
    static func releaseConfigurationHolds(current: [String: String], in db: Database) throws -> [String] {
        var released: [String] = []
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT plugin, configuration_hold FROM kernel_plugin_state WHERE configuration_hold IS NOT NULL"
            )
        ) {
            let plugin: String = row["plugin"]
            guard let fingerprint = current[plugin], fingerprint != row["configuration_hold"] as String else { continue }
            try db.cachedStatement(
                sql: """
                    UPDATE kernel_operations SET next_attempt_at = ?, waiting_for = NULL
                    WHERE plugin = ? AND state = 'pending' AND waiting_for = 'configuration'
                    """
            ).execute(arguments: [OutboxQueries.dueAtOnce, plugin])
            if db.changesCount > 0 { released.append(plugin) }
            try db.cachedStatement(sql: "UPDATE kernel_plugin_state SET configuration_hold = NULL WHERE plugin = ?")
                .execute(arguments: [plugin])
        }
        return released
    }

    /// The plugins held for a login, each with the fingerprint of the credential refused.
    static func held(in db: Database) throws -> [String: String?] {
        var held: [String: String?] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT plugin, hold_credential FROM kernel_plugin_state WHERE needs_login = 1")
        ) {
            held[row["plugin"]] = .some(row["hold_credential"])
        }
        return held
    }

    /// Releases the queues of `plugins` (every held queue when nil) and makes their
    /// operations that waited for a login due now.
    static func resumeAfterLogin(_ plugins: [String]? = nil, in db: Database) throws {
        for plugin in try plugins ?? Array(held(in: db).keys) {
            try db.cachedStatement(
                sql: "UPDATE kernel_plugin_state SET needs_login = 0, hold_reason = NULL, hold_credential = NULL WHERE plugin = ?"
            ).execute(arguments: [plugin])
            try db.cachedStatement(
                sql: """
                    UPDATE kernel_operations SET next_attempt_at = ?, waiting_for = NULL
                    WHERE state = 'pending' AND waiting_for = 'login' AND plugin = ?
                    """
            ).execute(arguments: [OutboxQueries.dueAtOnce, plugin])
        }
    }

    /// Records that `plugin` pulled successfully at `now`.
    static func recordSync(_ plugin: String, at now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO kernel_plugin_state (plugin, last_sync_at) VALUES (?, ?)
                ON CONFLICT(plugin) DO UPDATE SET last_sync_at = excluded.last_sync_at
                """
        ).execute(arguments: [plugin, now.timeIntervalSince1970])
    }
}

extension PluginState {
    /// When `plugin` last pulled successfully, if ever.
    public static func lastSync(_ plugin: String, in db: Database) throws -> Date? {
        try Double.fetchOne(
            db.cachedStatement(sql: "SELECT last_sync_at FROM kernel_plugin_state WHERE plugin = ?"),
            arguments: [plugin]
        )
        .map(Date.init(timeIntervalSince1970:))
    }
}
