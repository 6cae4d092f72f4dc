import Foundation

/// A family group as the remote sends it (`GET /v1/groups`).
public struct FamilyGroup: Codable, Sendable, Equatable {
    /// The remote's id.
    public var id: String
    /// Its name.
    public var name: String
    /// The user who created the group; only they may pick.
    public var creatorUserID: String?
    /// When it was created (ISO-8601).
    public var createdAt: String?
    /// The remote's version (1 on creation, +1 on each change).
    public var version: Int?
    /// When the remote last changed it (ISO-8601).
    public var updatedAt: String?

    /// A group, as tests and placeholders build it.
    public init(id: String, name: String, creatorUserID: String? = nil) {
        self.id = id
        self.name = name
        self.creatorUserID = creatorUserID
    }

    enum CodingKeys: String, CodingKey {
        case id, name, version
        case creatorUserID = "creator_user_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
