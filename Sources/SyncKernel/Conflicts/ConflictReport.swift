import Foundation
import GRDB

/// A write the remote disagreed with, as a policy or a person sees it.
public struct ConflictReport: Sendable, Equatable {
    /// The conflict's id, a lower-case UUID; a unique prefix finds it too.
    public var id: String
    /// The id of the operation the remote refused, as it was sent.
    public var operationID: UUID
    /// The plugin that sent the operation.
    public var plugin: String
    /// The operation's kind.
    public var kind: String
    /// The entity key the operation wrote.
    public var entity: String
    /// The policy that decided, or that left the conflict to a person.
    public var policy: ConflictPolicy
    /// The remote's status: 409 or 412.
    public var status: Int
    /// The operation's payload.
    public var local: Data
    /// The remote's current entity, when the remote sent it.
    public var remote: Data?
    /// Whether the remote deleted the entity: its current entity is JSON `null`.
    public var remoteDeleted: Bool { ConflictReport.isDeletion(remote) }
    /// The fields both sides changed to different values, when the write was merged field
    /// by field (`SyncPlugin.fieldChanges`); empty when it was decided whole.
    public var fields: [FieldConflict]
    /// The remote's reason, as `RemoteFailure.reason` gives it.
    public var reason: String
    /// `open` until resolved; then `local`, `remote` or `merged`.
    public var outcome: String
    /// When the remote refused the write.
    public var createdAt: Date

    /// Creates a report of `operation`'s conflict; the plugin, kind, entity and local payload
    /// come from the operation.
    public init(
        id: String = UUID().lowercasedString,
        operation: QueuedOperation,
        policy: ConflictPolicy,
        status: Int,
        remote: Data?,
        fields: [FieldConflict] = [],
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
        self.fields = fields
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
        fields = (row["fields"] as String?).flatMap { try? JSONDecoder().decode([FieldConflict].self, from: Data($0.utf8)) } ?? []
        reason = row["reason"]
        outcome = row["outcome"]
        createdAt = Date(timeIntervalSince1970: row["created_at"])
    }

    /// Whether `remote` is JSON `null`: the remote no longer has the entity.
    static func isDeletion(_ remote: Data?) -> Bool {
        guard let remote else { return false }
        return (try? JSONSerialization.jsonObject(with: remote, options: .fragmentsAllowed)) is NSNull
    }
}
