import Foundation

/// A family group as the remote sends it (`GET /v1/groups`).
public struct FamilyGroup: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var creatorUserID: String?
    public var createdAt: String?
    public var version: Int?
    public var updatedAt: String?

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
