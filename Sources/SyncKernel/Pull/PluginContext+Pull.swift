import Foundation
import GRDB

extension PluginContext {
    /// The stored cursor called `name`, or nil before the first pull.
    public func cursor(_ name: String = "default") async throws -> String? {
        let plugin = self.name
        return try await store.read { db in try SyncCursors.cursor(plugin: plugin, name: name, in: db) }
    }

    /// Stores the cursor in the transaction that applies the rows it covers; the feed
    /// follower's, so that no plugin pages through a feed by hand.
    func saveCursor(
        _ cursor: String,
        name: String = "default",
        layout: String?,
        checked: ClosedRange<Int>? = nil,
        in db: Database
    ) throws {
        try SyncCursors.save(
            cursor,
            layout: layout,
            checked: checked,
            plugin: self.name,
            name: name,
            now: clock.now(),
            in: db
        )
    }
}
