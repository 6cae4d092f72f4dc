/// What `ferry family round show` displays: the round (fresh, or cached without tallies),
/// its attendees, and the votes cast from this device.
public struct FamilyRoundView: Sendable, Encodable {
    /// The round, fresh or cached.
    public var detail: FamilyRoundDetail
    /// The member ids attending: the remote's list, or for a round started offline that has
    /// not reached the remote yet, the ones given here (empty: every member, once it does).
    public var attendees: [String]
    /// Votes cast from this device, with their state (`pending`, `sent`, `refused`).
    public var localVotes: [LocalVote]
    /// `picked`, `pending` (queued here), or nil when there is no pick.
    public var pickState: String?
    /// The movie this device picked when it lost the race for the pick.
    public var lostPick: Int?

    /// Every member id the view names: attendees, who suggested, who picked, who voted here.
    public var memberIDs: Set<String> {
        var ids = Set(attendees)
        ids.formUnion(detail.suggestions.compactMap(\.suggestedByMemberID))
        if let picker = detail.pick?.pickedByMemberID { ids.insert(picker) }
        ids.formUnion(localVotes.map(\.memberKey).filter { $0 != FamilyClient.selfKey })
        return ids
    }

    enum CodingKeys: String, CodingKey {
        case detail = "round"
        case attendees
        case localVotes = "local_votes"
        case pickState = "pick_state"
        case lostPick = "lost_pick"
    }
}
