import Foundation
import GRDB

/// A write the remote disagreed with, as a policy or a person sees it.
public struct ConflictReport: Sendable, Equatable {
    public var id: String
    public var operationID: UUID
    public var plugin: String
    public var kind: String
    public var entity: String
    public var policy: ConflictPolicy
    public var status: Int
    /// The operation's payload.
    public var local: Data
    /// The remote's current entity, when the remote sent it.
    public var remote: Data?
    public var reason: String
    /// `open` until resolved; then `local`, `remote` or `merged`.
    public var outcome: String
    public var createdAt: Date

    public init(
        id: String = UUID().uuidString.lowercased(),
        operation: QueuedOperation,
        policy: ConflictPolicy,
        status: Int,
        remote: Data?,
        reason: String,
        outcome: String,
        createdAt: Date
    ) {
        self.id = id
        self.operationID = operation.id
        self.plugin = operation.plugin
        self.kind = operation.kind
        self.entity = operation.entity
        self.policy = policy
        self.status = status
        self.local = operation.payload
        self.remote = remote
        self.reason = reason
        self.outcome = outcome
        self.createdAt = createdAt
    }
}

extension ConflictReport {
    /// A report as the conflicts table keeps it.
    init(row: Row) {
        id = row["id"]
        operationID = UUID(uuidString: row["operation_id"]) ?? UUID()
        plugin = row["plugin"]
        kind = row["kind"]
        entity = row["entity"]
        policy = ConflictPolicy(rawValue: row["policy"]) ?? .manual
        status = row["status"]
        local = row["local"]
        remote = row["remote"]
        reason = row["reason"]
        outcome = row["outcome"]
        createdAt = Date(timeIntervalSince1970: row["created_at"])
    }
}
