import Foundation

/// A member of a group: a user with an account, or a managed member (a child) without one.
public struct FamilyMember: Codable, Sendable, Equatable {
    /// The remote's id.
    public var id: String
    /// The group it belongs to.
    public var groupID: String
    /// Nil for a managed member.
    public var userID: String?
    /// The name people see.
    public var displayName: String
    /// Whether this is a managed member (no account of their own).
    public var managed: Bool
    /// The user who manages a managed member.
    public var managerUserID: String?
    /// `creator`, `member` or `managed`.
    public var role: String

    /// A member from its fields.
    public init(
        id: String,
        groupID: String,
        userID: String?,
        displayName: String,
        managed: Bool,
        managerUserID: String?,
        role: String
    ) {
        self.id = id
        self.groupID = groupID
        self.userID = userID
        self.displayName = displayName
        self.managed = managed
        self.managerUserID = managerUserID
        self.role = role
    }

    enum CodingKeys: String, CodingKey {
        case id, managed, role
        case groupID = "group_id"
        case userID = "user_id"
        case displayName = "display_name"
        case managerUserID = "manager_user_id"
    }
}
