import Foundation

/// The movie picked for a round; exactly one per round.
public struct FamilyPick: Codable, Sendable, Equatable {
    /// The round it belongs to.
    public var roundID: String
    /// The movie's TMDB id.
    public var tmdbID: Int
    /// The movie's title.
    public var title: String?
    /// The member who picked it.
    public var pickedByMemberID: String?
    /// When it was picked (ISO-8601).
    public var pickedAt: String?

    /// A pick, as placeholders and tests build it.
    public init(roundID: String, tmdbID: Int, title: String?, pickedByMemberID: String? = nil, pickedAt: String? = nil)
    {
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
