import Foundation
import GRDB

/// The operations a local write decides, inside its transaction.
public struct OperationsToQueue: Sendable {
    fileprivate(set) var operations: [NewOperation] = []
    fileprivate(set) var forgotten: [(plugin: String, entity: String, removal: NewOperation?)] = []

    /// Queues `operation` with the write: both commit, or neither does.
    public mutating func enqueue(_ operation: NewOperation) {
        operations.append(operation)
    }

    /// Drops every operation of `plugin` on `entity` with the write: for an entity removed
    /// before it ever reached the remote. The write fails (and nothing changes) while one
    /// of them is being sent, unless `removal` is given.
    ///
    /// - Parameter removal: what removes the entity from the remote, for an entity whose
    ///   creation may have reached it: when one of its operations was sent already (its
    ///   answer never recorded; not a dead letter) or is being sent, they stay and
    ///   `removal` is queued behind them instead; it goes to the remote's id once the
    ///   creation is delivered.
    public mutating func forget(plugin: String, entity: String, orRemoveWith removal: NewOperation? = nil) {
        forgotten.append((plugin, entity, removal))
    }
}

/// What a local write returned, and what became of each operation it queued, in order.
public struct Committed<Value: Sendable>: Sendable {
    /// What the write's closure returned.
    public let value: Value
    /// What became of each queued operation, in the order the closure queued them; then of
    /// each removal given to `forget` that was queued.
    public let results: [EnqueueResult]
}

extension FerryRuntime {
    /// The local write: runs `write` in one transaction, where it reads what it needs,
    /// changes the plugin's tables and decides which operations carry the change; the
    /// kernel queues them (coalescing as each kind's policy says) in the same transaction
    /// and emits `.enqueued` for each once committed. It returns as soon as SQLite has.
    ///
    /// ```swift
    /// let change = try await runtime.commit { db, queue in
    ///     let saved = try Saved.contains(id, in: db)
    ///     try Saved.set(id, !saved, in: db)
    ///     queue.enqueue(try NewOperation(plugin: "notes", kind: saved ? "unsave" : "save", entity: id, payload: [String: String]()))
    ///     return !saved
    /// }
    /// ```
    ///
    /// `write` must only change the database: it can run twice (see `FerryStore.write`).
    @discardableResult
    public func commit<Value: Sendable>(
        _ write: @escaping @Sendable (Database, inout OperationsToQueue) throws -> Value
    ) async throws -> Committed<Value> {
        try await writes.commit(write)
    }
}
