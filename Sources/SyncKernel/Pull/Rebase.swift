import GRDB

/// The one rebase contract: the remote's state is the base, and an entity's unsent
/// operations are applied again on top of it through `SyncPlugin.reapply(_:in:)`, in the
/// transaction that stored that state. The kernel rebases wherever the remote's state
/// lands: a change a pull applied, a delivered answer with a local change, a conflict the
/// remote won.
enum Rebase {
    /// Applies `pending` again through `plugin`, oldest first.
    static func reapply(_ pending: [QueuedOperation], through plugin: any SyncPlugin, in db: Database) throws {
        for operation in pending { try plugin.reapply(operation, in: db) }
    }

    /// Applies the unsent operations of `entity` again through `plugin`.
    static func entity(_ entity: String, of plugin: any SyncPlugin, in db: Database) throws {
        let pending = try Outbox.unsentOperations(plugin: plugin.pluginName, entity: entity, in: db)
        try reapply(pending, through: plugin, in: db)
    }
}
