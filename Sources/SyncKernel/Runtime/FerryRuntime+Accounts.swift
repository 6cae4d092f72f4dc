import Foundation
import GRDB

/// Whose data the plugins' local copies hold, kept in the settings table.
///
/// Local data belongs to one account. When another account signs in on this device, every
/// plugin forgets its copy (`SyncPlugin.forgetAccountData`, files first), the pull cursors
/// are reset so that the next pull rebuilds it from the remote, and the new account is
/// recorded. Unsent work stays with the account it was queued under: only that account
/// sends it, and the plugins' reads show only the operations of the signed-in account and
/// those made while nobody was signed in (`LocalDataAccount.filter`).
public enum LocalDataAccount {
    /// The settings key.
    static let key = "kernel.data_account"

    /// A condition on `kernel_operations` rows: queued under the account the local data
    /// belongs to, or while nobody was signed in. Without a recorded account, every row.
    static let filter =
        " AND (account IS NULL OR account = COALESCE((SELECT value FROM kernel_settings WHERE key = '\(key)'), account))"

    /// The account the local data belongs to; nil before the first sign-in.
    public static func current(in db: Database) throws -> String? {
        try SettingsStore.text(for: key, in: db)
    }

    /// Makes the local data `account`'s when no account is recorded yet, inside a
    /// transaction the caller opened. A pass records the signed-in account, but an
    /// automatic sign-in can come inside a command, between passes: the first local write
    /// made under it makes the data that account's, so that another account signing in
    /// next forgets it rather than take it for work made while nobody was signed in.
    static func recordIfNone(_ account: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO kernel_settings (key, value) VALUES (?, ?)")
            .execute(arguments: [key, account])
    }
}

extension FerryRuntime {
    /// Makes the local data `account`'s. When it belonged to another account, every plugin
    /// forgets its copy, its files first, and the next pull rebuilds it from the remote;
    /// returns whether that happened. Data from before the first recorded sign-in is taken
    /// as the signed-in account's: nothing is forgotten then.
    @discardableResult
    public func adoptLocalData(for account: String) async throws -> Bool {
        let previous = try await store.read { db in try LocalDataAccount.current(in: db) }
        guard previous != account else { return false }
        guard previous != nil else {
            try await store.write { db in try SettingsStore.set(account, for: LocalDataAccount.key, in: db) }
            return false
        }
        for plugin in registry.plugins {
            guard let context = context(for: plugin.pluginName) else { continue }
            try await plugin.removeFilesForSignOut(context)
        }
        let plugins = registry.plugins
        try await store.write { db in
            for plugin in plugins { try plugin.forgetAccountData(in: db) }
            try db.cachedStatement(sql: "DELETE FROM kernel_cursors").execute()
            try SettingsStore.set(account, for: LocalDataAccount.key, in: db)
        }
        logger.warning("another account signed in: the local data of the previous one was forgotten")
        return true
    }

    /// Makes the signed-in account the owner of the local data, if someone is signed in;
    /// `open` and each pass of the runner call it, so that a sign-in made by another
    /// process is noticed too.
    func adoptLocalDataOfSignedInAccount() async throws {
        guard let account = await credentials.account() else { return }
        try await adoptLocalData(for: account)
    }

    /// Gives the work made while nobody was signed in to `account` when it is the account
    /// the configuration names (`CredentialProvider.ownsSignedOutWork`): it signed in by
    /// itself, and nobody is asked. Without it that work would wait for a login for good,
    /// since the configured account never needs one. The counters are read first, so a
    /// pass with no such work writes nothing.
    func keepSignedOutWorkForConfiguredAccount(_ account: String) async throws {
        guard await credentials.ownsSignedOutWork() else { return }
        let waiting = try await store.read { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT EXISTS (SELECT 1 FROM kernel_operation_counts WHERE account = '' AND n > 0)"
                )
            ) ?? false
        }
        guard waiting else { return }
        let kept = try await adoptSignedOutWork(for: account)
        logger.info("\(kept) change(s) made while nobody was signed in go as the configured account's")
    }

    /// Gives the operations queued while nobody was signed in to `account`, which sends them.
    public func adoptSignedOutWork(for account: String) async throws -> Int {
        try await store.write { db in
            try db.cachedStatement(sql: "UPDATE kernel_operations SET account = ? WHERE account IS NULL")
                .execute(arguments: [account])
            return db.changesCount
        }
    }
}
