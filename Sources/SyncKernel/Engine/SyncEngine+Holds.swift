import Foundation

extension SyncEngine {
    /// How long the engine waits before asking the credential provider again when a held
    /// queue could not resume (a provider may sign in on each ask).
    static let holdRecheck: TimeInterval = 2

    /// Ends the holds for a login whose refused credential is no longer the provider's:
    /// someone logged in (here or in another process), the provider signed in by itself,
    /// or it refreshed. The held operations become due at once.
    func releaseHolds() async throws {
        let now = runtime.clock.now()
        guard nextHoldCheck.hasCome(at: now) else { return }
        let held = try await runtime.store.read { db in try PluginState.held(in: db) }
        guard !held.isEmpty else { return }
        nextHoldCheck.restart(from: now, after: Self.holdRecheck)
        guard let token = try? await runtime.credentials.accessToken() else { return }
        let fingerprint = CredentialFingerprint.of(token)
        let released = held.filter { $0.value != fingerprint }.keys.sorted()
        guard !released.isEmpty else { return }
        try await runtime.store.write { db in try PluginState.resumeAfterLogin(released, in: db) }
        nextHoldCheck.reset()
        for plugin in released {
            runtime.logger.info("\(plugin): signed in again; sending the operations held for a login")
            runtime.events.emit(.resumedAfterLogin(plugin: plugin))
        }
    }

    /// Makes the local data the signed-in account's before anything is sent or pulled, so
    /// that a sign-in by another account in another process is followed too; and gives the
    /// configured account the work made while nobody was signed in, once it has signed in
    /// by itself.
    func followSignedInAccount() async throws {
        guard let account = await runtime.credentials.account() else { return }
        if account != dataAccount {
            try await runtime.adoptLocalData(for: account)
            dataAccount = account
        }
        try await runtime.keepSignedOutWorkForConfiguredAccount(account)
    }
}
