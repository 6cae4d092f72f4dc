import Foundation

/// A voting round; at most one per group is `voting` (the active round).
public struct FamilyRound: Codable, Sendable, Equatable {
    public var id: String
    public var groupID: String
    public var name: String?
    /// `voting`, `closed` or `picked` (`pending` locally for a round queued but not yet created).
    public var status: String
    public var createdByMemberID: String?
    public var createdAt: String?
    public var closedAt: String?
    public var version: Int?
    public var updatedAt: String?

    public init(id: String, groupID: String, name: String?, status: String) {
        self.id = id
        self.groupID = groupID
        self.name = name
        self.status = status
    }

    enum CodingKeys: String, CodingKey {
        case id, name, status, version
        case groupID = "group_id"
        case createdByMemberID = "created_by_member_id"
        case createdAt = "created_at"
        case closedAt = "closed_at"
        case updatedAt = "updated_at"
    }

    /// The round's name, or its id when it has none.
    public var label: String { name.map { "\($0) (\(id))" } ?? id }
}
