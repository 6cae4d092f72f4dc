import Foundation

/// A group with its members and its active round (`GET /v1/groups/{id}`).
public struct FamilyGroupDetail: Codable, Sendable, Equatable {
    /// The group's own fields.
    public var group: FamilyGroup
    /// Every member, managed ones included.
    public var members: [FamilyMember]
    /// The round in `voting`, if any.
    public var activeRound: FamilyRoundDetail?

    /// A group detail from its parts.
    public init(group: FamilyGroup, members: [FamilyMember], activeRound: FamilyRoundDetail?) {
        self.group = group
        self.members = members
        self.activeRound = activeRound
    }

    enum CodingKeys: String, CodingKey {
        case members
        case activeRound = "active_round"
    }

    /// Decodes the remote's flat group object with its added keys.
    public init(from decoder: any Decoder) throws {
        group = try FamilyGroup(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        members = try container.decodeIfPresent([FamilyMember].self, forKey: .members) ?? []
        activeRound = try container.decodeIfPresent(FamilyRoundDetail.self, forKey: .activeRound)
    }

    /// Encodes the same flat shape the remote sends.
    public func encode(to encoder: any Encoder) throws {
        try group.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(members, forKey: .members)
        try container.encode(activeRound, forKey: .activeRound)
    }

    /// The member `reference` names: its id, or its display name (case-insensitive).
    public func member(named reference: String) -> FamilyMember? {
        members.first { $0.id == reference }
            ?? members.first { $0.displayName.caseInsensitiveCompare(reference) == .orderedSame }
    }
}
