import Foundation

/// A vote cast from this device, with where it stands: `pending` (queued), `sent`, or
/// `refused` (the remote would not take it, e.g. the round had closed).
public struct LocalVote: Codable, Sendable, Equatable {
    public var roundID: String
    public var tmdbID: Int
    /// The acting member's id, or `self` when the user voted as themself.
    public var memberKey: String
    public var value: VoteValue
    public var state: String
    public var note: String?

    enum CodingKeys: String, CodingKey {
        case value, state, note
        case roundID = "round_id"
        case tmdbID = "tmdb_id"
        case memberKey = "member_key"
    }
}
