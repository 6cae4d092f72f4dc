import Foundation

/// Votes on one movie of a round.
public struct FamilyTally: Codable, Sendable, Equatable {
    public var tmdbID: Int
    public var up: Int
    public var down: Int
    public var score: Int

    enum CodingKeys: String, CodingKey {
        case up, down, score
        case tmdbID = "tmdb_id"
    }
}
