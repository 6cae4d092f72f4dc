import Foundation

/// A movie suggested for a round.
public struct FamilySuggestion: Codable, Sendable, Equatable {
    /// The remote's id.
    public var id: String
    /// The round it belongs to.
    public var roundID: String
    /// The movie's TMDB id.
    public var tmdbID: Int
    /// The movie's title.
    public var title: String
    /// The release year.
    public var year: Int?
    /// The TMDB poster path.
    public var posterPath: String?
    /// The member who suggested it.
    public var suggestedByMemberID: String?

    /// A suggestion from its main fields.
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
