import Foundation

/// A vote cast from this device, with where it stands: `pending` (queued), `sent`, or
/// `refused` (the remote would not take it, e.g. the round had closed).
public struct LocalVote: Codable, Sendable, Equatable {
    /// The round voted in.
    public var roundID: String
    /// The movie's TMDB id.
    public var tmdbID: Int
    /// The acting member's id, or `self` when the user voted as themself.
    public var memberKey: String
    /// Up or down.
    public var value: VoteValue
    /// `pending`, `sent` or `refused`.
    public var state: String
    /// Whom the vote counted for, or why it was refused.
    public var note: String?

    enum CodingKeys: String, CodingKey {
        case value, state, note
        case roundID = "round_id"
        case tmdbID = "tmdb_id"
        case memberKey = "member_key"
    }
}
