import Foundation

/// One change of a changes feed, handed to a plugin's apply closure by
/// `PluginContext.follow`.
public struct FeedChange: Sendable {
    /// The entity's id.
    public let id: String
    /// The entity as the remote sent it (a JSON object, keys sorted); nil for a deletion.
    public let entity: Data?
    /// This plugin's unsent operations on the entity (dead letters excluded), oldest first.
    /// A pull never undoes a local write: the apply closure stores the remote's state (the
    /// base) and, when there are some, the kernel then applies them again on top through
    /// `SyncPlugin.reapply(_:in:)` and counts the change as rebased. A plugin whose pending
    /// write replaces the whole entity may instead keep its row as it is.
    public let pending: [QueuedOperation]

    /// Whether the remote deleted the entity.
    public var isDeletion: Bool { entity == nil }

    /// Decodes the entity as `T` (snake_case keys); throws for a deletion.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        guard let entity else { throw FerryError(.rejected, "the change of \(id) is a deletion, not an entity") }
        do {
            return try JSONDecoder.ferry.decode(T.self, from: entity)
        } catch {
            throw FerryError(.rejected, "the entity \(id) of a changes feed could not be read: \(error)", underlying: error)
        }
    }
}

/// What applying one change did, as a pull's summary counts it.
public enum FeedOutcome: Sendable, Equatable {
    /// The remote state was stored.
    case upserted
    /// The local row was removed.
    case deleted
    /// The row has unsent writes: the remote state became its base, the writes stay on top.
    /// The kernel counts every change with unsent writes this way (unless it was skipped).
    case rebased
    /// Nothing to do for this change (not counted).
    case skipped
}

extension PullSummary {
    mutating func count(_ outcome: FeedOutcome) {
        switch outcome {
        case .upserted: upserted += 1
        case .deleted: deleted += 1
        case .rebased: rebased += 1
        case .skipped: break
        }
    }
}
