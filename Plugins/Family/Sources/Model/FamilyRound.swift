import Foundation

/// A voting round; at most one per group is `voting` (the active round).
public struct FamilyRound: Codable, Sendable, Equatable {
    /// The remote's id.
    public var id: String
    /// The group it belongs to.
    public var groupID: String
    /// Its name.
    public var name: String?
    /// `voting`, `closed` or `picked` (`pending` locally for a round queued but not yet created).
    public var status: String
    /// The member who started the round.
    public var createdByMemberID: String?
    /// When it was created (ISO-8601).
    public var createdAt: String?
    /// When voting ended (ISO-8601), if it has.
    public var closedAt: String?
    /// The remote's version (1 on creation, +1 on each change).
    public var version: Int?
    /// When the remote last changed it (ISO-8601).
    public var updatedAt: String?
    /// The member ids attending, as the remote stored them when the round was created
    /// (every member of the group when none were given); nil until the remote has said.
    public var attendees: [String]?

    /// A round from its main fields.
    public init(id: String, groupID: String, name: String?, status: String) {
        self.id = id
        self.groupID = groupID
        self.name = name
        self.status = status
    }

    enum CodingKeys: String, CodingKey {
        case id, name, status, version, attendees
        case groupID = "group_id"
        case createdByMemberID = "created_by_member_id"
        case createdAt = "created_at"
        case closedAt = "closed_at"
        case updatedAt = "updated_at"
    }

    /// The round's name, or its id when it has none.
    public var label: String { name.map { "\($0) (\(id))" } ?? id }
}
