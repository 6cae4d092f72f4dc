import Foundation

/// One member's vote on one movie of a round, as the remote holds it.
public struct FamilyVote: Codable, Sendable, Equatable {
    /// The remote's id.
    public var id: String
    /// The round it belongs to.
    public var roundID: String
    /// The movie's TMDB id.
    public var tmdbID: Int
    /// The member the vote counts for (the acting member).
    public var memberID: String
    /// `up` or `down`.
    public var value: String
    /// The user who cast it (a parent casting for a managed child).
    public var castByUserID: String?

    enum CodingKeys: String, CodingKey {
        case id, value
        case roundID = "round_id"
        case tmdbID = "tmdb_id"
        case memberID = "member_id"
        case castByUserID = "cast_by_user_id"
    }
}
