import Foundation
import SyncKernel

extension FamilyConflicts {
    /// The remote round or member that a round or member created offline turned out to
    /// be: the remote refused the create because it already has one in its place.
    ///
    /// A group has one active round, so a round started offline while the group had one
    /// open (409 `round_already_active`) is that movie night: the votes, suggestions, pick
    /// and close made on it go to the active round, and the conflict says so. A member
    /// added offline who already belongs to the group (409 `already_member`) is that
    /// member. Nil for anything else: the local entity is gone.
    static func remoteIdentity(of conflict: ConflictReport) -> String? {
        guard conflict.entity.hasPrefix(FamilyClient.localPrefix), let remote = conflict.remote else { return nil }
        switch FamilyKind(rawValue: conflict.kind) {
        case .roundStart:
            guard let round = try? JSONDecoder().decode(FamilyRound.self, from: remote), round.status == "voting"
            else { return nil }
            return round.id
        case .memberAdd:
            return (try? JSONDecoder().decode(FamilyMember.self, from: remote))?.id
        default:
            return nil
        }
    }

    /// Says where the writes of a round started offline went, for `ferry conflicts list`.
    static func describeRoundStart(_ conflict: ConflictReport) -> String? {
        guard conflict.kind == FamilyKind.roundStart.rawValue, let id = remoteIdentity(of: conflict),
            let remote = conflict.remote, let round = try? JSONDecoder().decode(FamilyRound.self, from: remote)
        else { return nil }
        let payload = try? JSONDecoder().decode(FamilyPayload.self, from: conflict.local)
        let started = payload?.name.map { "the round \($0)" } ?? "the round"
        return "\(started), started offline, never started: the group already had \(round.name ?? id) (\(id)) open,"
            + " so the votes, suggestions, pick and close made on it went to that round"
    }
}
