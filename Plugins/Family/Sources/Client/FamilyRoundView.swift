/// What `ferry family round show` displays: the round (fresh, or cached without tallies),
/// the attendees recorded here, and the votes cast from this device.
public struct FamilyRoundView: Sendable, Encodable {
    /// The round, fresh or cached.
    public var detail: FamilyRoundDetail
    /// Members recorded as attending (ids resolved to members when the group is cached).
    public var attendees: [String]
    /// Votes cast from this device, with their state (`pending`, `sent`, `refused`).
    public var localVotes: [LocalVote]
    /// `picked`, `pending` (queued here), or nil when there is no pick.
    public var pickState: String?
    /// The movie this device picked when it lost the race for the pick.
    public var lostPick: Int?

    enum CodingKeys: String, CodingKey {
        case detail = "round"
        case attendees
        case localVotes = "local_votes"
        case pickState = "pick_state"
        case lostPick = "lost_pick"
    }
}
