import Foundation

/// A write a plugin hands to the outbox, in the same transaction as its local change.
public struct NewOperation: Sendable {
    /// The name of the plugin that sends it.
    public var plugin: String
    /// The operation's kind, one of the plugin's `operations`; it picks the policy.
    public var kind: String
    /// The entity key it changes: operations on one key go out one at a time, in order. A
    /// local id (`local-<uuid>`) for an entity created offline is rewritten once the remote
    /// gives its id.
    public var entity: String
    /// The JSON the plugin's `send` reads back (`QueuedOperation.decodePayload`).
    public var payload: Data
    /// The entity as the plugin last knew it from the remote, for the `merge` conflict policy.
    public var base: Data?
    /// False when the plugin did not know the remote's state of the entity as it made this
    /// write (a set it has never pulled). A later opposite write (`cancels`) then replaces
    /// it instead of cancelling both: what the remote held before it may not be the opposite.
    public var remoteKnown = true

    /// Creates an operation whose payload is `payload` encoded as JSON (`JSONEncoder.ferry`:
    /// snake_case keys, ISO-8601 dates).
    public init<Payload: Encodable>(
        plugin: String,
        kind: String,
        entity: String,
        payload: Payload,
        base: Data? = nil
    ) throws {
        self.plugin = plugin
        self.kind = kind
        self.entity = entity
        self.payload = try JSONEncoder.ferry.encode(payload)
        self.base = base
    }

    /// Creates an operation from an already encoded JSON payload.
    public init(plugin: String, kind: String, entity: String, payloadJSON: Data, base: Data? = nil) {
        self.plugin = plugin
        self.kind = kind
        self.entity = entity
        self.payload = payloadJSON
        self.base = base
    }
}

/// What enqueueing did with a new operation.
public enum EnqueueResult: Sendable, Equatable {
    /// Stored as a new operation.
    case inserted(UUID)
    /// Folded into the unsent operation with this id (replaced or merged).
    case coalesced(UUID)
    /// It cancelled an unsent opposite operation; nothing is left to send.
    case cancelled
}
