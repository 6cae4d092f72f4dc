import Foundation

/// Votes on one movie of a round.
public struct FamilyTally: Codable, Sendable, Equatable {
    /// The movie's TMDB id.
    public var tmdbID: Int
    /// Up votes.
    public var up: Int
    /// Down votes.
    public var down: Int
    /// Up votes minus down votes.
    public var score: Int

    enum CodingKeys: String, CodingKey {
        case up, down, score
        case tmdbID = "tmdb_id"
    }
}
