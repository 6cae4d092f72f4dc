import Foundation

extension FerryRuntime {
    /// Pulls plugin `name` now: the runner's pulls and every refresh command go through
    /// here. A successful pull records when the plugin last synced and emits `.pulled`;
    /// failures are thrown for the caller to classify.
    @discardableResult
    public func pull(_ name: String) async throws -> PullSummary {
        guard let plugin = registry.plugin(named: name), let context = context(for: name) else {
            throw FerryError(.configuration, "there is no enabled plugin \(name) to pull; check plugins: in \(configuration.file)")
        }
        let summary = try await plugin.pull(context)
        let now = clock.now()
        try await store.write { db in try PluginState.recordSync(name, at: now, in: db) }
        events.emit(.pulled(plugin: name, summary: summary))
        return summary
    }
}
