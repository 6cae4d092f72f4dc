import Foundation
import GRDB

extension FerryRuntime {
    /// What a person does about a refused session: sign in, or first enable a plugin
    /// that signs in when none is.
    var signInRemedy: Remedy { (credentials as? CredentialBroker)?.hasProvider == false ? .enableSignIn : .signIn }

    /// Releases every queue held in "needs login"; their operations become due now.
    ///
    /// A running engine also releases a hold by itself once the credential provider has a
    /// credential other than the refused one.
    public func resumeAfterLogin() async throws {
        try await store.write { db in try PluginState.resumeAfterLogin(in: db) }
    }
}

extension FerryRuntime {
    /// Holds every plugin's queue until someone logs in (after a logout or a refused session).
    /// Nothing is dropped; a running engine ends the hold once the credential provider has
    /// a credential again.
    public func holdAllForLogin(reason: String) async throws {
        let names = registry.names
        try await store.write { db in
            for name in names { try PluginState.holdForLogin(name, reason: reason, credential: nil, in: db) }
        }
    }

    /// How many downloaded files signing out removes from this device, over every plugin
    /// (`SyncPlugin.filesRemovedBySignOut`).
    public func filesRemovedBySignOut() async throws -> Int {
        var count = 0
        for plugin in registry.plugins {
            guard let context = context(for: plugin.pluginName) else { continue }
            count += try await plugin.filesRemovedBySignOut(context)
        }
        return count
    }

    /// Removes the files signing out removes, in every plugin, before the session ends
    /// (`SyncPlugin.removeFilesForSignOut`).
    public func removeFilesForSignOut() async throws {
        for plugin in registry.plugins {
            guard let context = context(for: plugin.pluginName) else { continue }
            try await plugin.removeFilesForSignOut(context)
        }
    }

    /// How many unsent operations belong to an account other than `account`, per account.
    public func queuedForOtherAccounts(than account: String) async throws -> [String: Int] {
        try await store.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT account, COUNT(*) AS n FROM kernel_operations WHERE account IS NOT NULL AND account != ? GROUP BY account"
                ),
                arguments: [account]
            ) {
                counts[row["account"]] = row["n"]
            }
            return counts
        }
    }

    /// How many unsent operations were queued while nobody was signed in.
    public func queuedWhileSignedOut() async throws -> Int {
        try await store.read { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM kernel_operations WHERE account IS NULL")
            ) ?? 0
        }
    }

    /// Drops every operation queued under `account` (nil: while nobody was signed in), dead
    /// letters and open conflicts included, except those being sent right now; returns how
    /// many it dropped.
    public func discardQueued(forAccount account: String?) async throws -> Int {
        let registry = self.registry
        return try await store.write { db in
            let operations = try QueuedOperation.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM kernel_operations WHERE account IS ? AND state != 'in_flight' ORDER BY seq"
                ),
                arguments: [account]
            )
            for operation in operations {
                try OutboxQueries.delete(operation.sequence, in: db)
                _ = try registry.plugin(named: operation.plugin)?.discarded(operation, in: db)
            }
            return operations.count
        }
    }
}
