import Foundation

extension SyncEngine {
    /// Pulls `plugin`; when the remote answers `400 invalid_cursor` (it never issued the
    /// cursor: it was reset, or restored from a backup), forgets the plugin's cursors and
    /// pulls once more from the beginning. Rows with pending writes are rebased by the
    /// plugin's pull as always, so no local write is lost.
    func pullResyncingForgottenCursors(_ plugin: any SyncPlugin, context: PullContext) async throws -> PullSummary {
        do {
            return try await plugin.pull(context)
        } catch let failure as RemoteFailure where failure.status == 400 && failure.code == "invalid_cursor" {
            let name = plugin.pluginName
            runtime.logger.warning(
                "\(name): the remote no longer knows this store's cursor (\(failure.reason)); pulling everything again"
            )
            try await runtime.store.write { db in try SyncCursors.reset(plugin: name, in: db) }
            runtime.events.emit(.resyncing(plugin: name, reason: failure.reason))
            return try await plugin.pull(context)
        }
    }
}
