import GRDB

/// The one rebase contract: the remote's state is the base, and an entity's unsent
/// operations are applied again on top of it through `SyncPlugin.reapply(_:in:)`, in the
/// transaction that stored that state. The kernel rebases wherever the remote's state
/// lands: a change a pull applied, a delivered answer with a local change, a conflict the
/// remote won.
///
/// When that state came from elsewhere (a pull, a conflict the remote won), the unsent
/// operations are also sealed: they were made on a state the remote no longer has, so a
/// newer write is never folded into them. An unsent `unsave` that a new `save` cancelled
/// would otherwise leave the remote with another device's `unsave` and this device showing
/// the recipe saved.
enum Rebase {
    /// Whose state the remote's is.
    enum Origin {
        /// The answer to this device's own write, on top of which its later writes were made.
        case ownWrite
        /// Another device's change, or a conflict the remote won.
        case elsewhere
    }

    /// Applies `pending` again through `plugin`, oldest first.
    static func reapply(
        _ pending: [QueuedOperation],
        through plugin: (any SyncPlugin)?,
        from origin: Origin,
        in db: Database
    ) throws {
        if let plugin {
            for operation in pending { try plugin.reapply(operation, in: db) }
        }
        if origin == .elsewhere {
            try OutboxQueries.seal(pending.filter { !$0.dispatched }.map(\.sequence), in: db)
        }
    }

    /// Applies the unsent operations of `entity` again through `plugin`.
    static func entity(_ entity: String, of plugin: any SyncPlugin, from origin: Origin, in db: Database) throws {
        let pending = try Outbox.unsentOperations(plugin: plugin.pluginName, entity: entity, in: db)
        try reapply(pending, through: plugin, from: origin, in: db)
    }
}
