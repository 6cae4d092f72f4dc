import Foundation

/// The movie picked for a round; exactly one per round.
public struct FamilyPick: Codable, Sendable, Equatable {
    public var roundID: String
    public var tmdbID: Int
    public var title: String?
    public var pickedByMemberID: String?
    public var pickedAt: String?

    public init(roundID: String, tmdbID: Int, title: String?, pickedByMemberID: String? = nil, pickedAt: String? = nil) {
        self.roundID = roundID
        self.tmdbID = tmdbID
        self.title = title
        self.pickedByMemberID = pickedByMemberID
        self.pickedAt = pickedAt
    }

    enum CodingKeys: String, CodingKey {
        case title
        case roundID = "round_id"
        case tmdbID = "tmdb_id"
        case pickedByMemberID = "picked_by_member_id"
        case pickedAt = "picked_at"
    }

    /// "Spirited Away (129)".
    public var label: String { title.map { "\($0) (\(tmdbID))" } ?? "movie \(tmdbID)" }
}
