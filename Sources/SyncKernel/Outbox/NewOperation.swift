import Foundation

/// A write a plugin hands to the outbox, in the same transaction as its local change.
public struct NewOperation: Sendable {
    public var plugin: String
    public var kind: String
    public var entity: String
    public var payload: Data
    public var base: Data?

    /// Creates an operation whose payload is `payload` encoded as JSON.
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
