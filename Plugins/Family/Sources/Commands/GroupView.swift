/// A group as `ferry family group show --json` prints it: `{group, members, active_round}`,
/// its parts side by side as `family round show` prints a round's.
struct GroupView: Encodable {
    let group: FamilyGroup
    let members: [FamilyMember]
    let activeRound: FamilyRoundDetail?

    init(_ detail: FamilyGroupDetail) {
        group = detail.group
        members = detail.members
        activeRound = detail.activeRound
    }
}
