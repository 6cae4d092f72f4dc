import Foundation
import GRDB
import Logging

/// What a plugin gets while pulling remote changes.
///
/// A pull never undoes a local write: `pendingOperations` tells which rows still carry
/// unsent writes, so the plugin applies them again on top of the remote state (a rebase).
public struct PullContext: Sendable {
    public let plugin: String
    public let transport: HTTPTransport
    public let store: FerryStore
    public let clock: any KernelClock
    public let logger: Logger
    /// Where the pull reports what a person should know (a feed pulled again from the start).
    public let events: EventBus?

    public init(
        plugin: String,
        transport: HTTPTransport,
        store: FerryStore,
        clock: any KernelClock,
        logger: Logger,
        events: EventBus? = nil
    ) {
        self.plugin = plugin
        self.transport = transport
        self.store = store
        self.clock = clock
        self.logger = logger
        self.events = events
    }

    /// The stored cursor called `name`, or nil before the first pull.
    public func cursor(_ name: String = "default") async throws -> String? {
        let plugin = self.plugin
        return try await store.read { db in try SyncCursors.cursor(plugin: plugin, name: name, in: db) }
    }

    /// Stores the cursor in the transaction that applies the rows it covers.
    public func saveCursor(_ cursor: String, name: String = "default", in db: Database) throws {
        try SyncCursors.save(cursor, plugin: plugin, name: name, now: clock.now(), in: db)
    }

    /// Unsent operations of this plugin on `entity`, oldest first.
    public func pendingOperations(entity: String, in db: Database) throws -> [QueuedOperation] {
        try Outbox.unsentOperations(plugin: plugin, entity: entity, in: db)
    }
}

/// Durable pull cursors, one per plugin and name.
public enum SyncCursors {
    public static func cursor(plugin: String, name: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT cursor FROM kernel_cursors WHERE plugin = ? AND name = ?"),
            arguments: [plugin, name]
        )
    }

    public static func save(_ cursor: String, plugin: String, name: String, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO kernel_cursors (plugin, name, cursor, updated_at) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [plugin, name, cursor, now.timeIntervalSince1970])
    }

    /// Forgets every cursor of `plugin`, so that the next pull starts from the beginning.
    public static func reset(plugin: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM kernel_cursors WHERE plugin = ?", arguments: [plugin])
    }
}
