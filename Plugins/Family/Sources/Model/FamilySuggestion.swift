import Foundation

/// A movie suggested for a round.
public struct FamilySuggestion: Codable, Sendable, Equatable {
    public var id: String
    public var roundID: String
    public var tmdbID: Int
    public var title: String
    public var year: Int?
    public var posterPath: String?
    public var suggestedByMemberID: String?

    public init(id: String, roundID: String, tmdbID: Int, title: String) {
        self.id = id
        self.roundID = roundID
        self.tmdbID = tmdbID
        self.title = title
    }

    enum CodingKeys: String, CodingKey {
        case id, title, year
        case roundID = "round_id"
        case tmdbID = "tmdb_id"
        case posterPath = "poster_path"
        case suggestedByMemberID = "suggested_by_member_id"
    }
}
