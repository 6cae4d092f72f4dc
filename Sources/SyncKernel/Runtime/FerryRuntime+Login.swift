import Foundation

extension FerryRuntime {
    /// Releases every queue held in "needs login"; their operations become due now.
    public func resumeAfterLogin() async throws {
        let now = clock.now()
        try await store.write { db in try PluginState.resumeAfterLogin(now: now, in: db) }
    }
}
