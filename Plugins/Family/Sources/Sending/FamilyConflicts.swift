import Foundation
import GRDB
import SyncKernel

/// What a queued family write does locally when the remote answered 409 and the
/// remote's state stands: the pick someone else made, the round that is already
/// active, the round that closed under a vote.
enum FamilyConflicts {
    /// Names the movie that won a pick race; nil for other conflicts.
    static func describe(_ conflict: ConflictReport) -> String? {
        if let started = describeRoundStart(conflict) { return started }
        guard conflict.kind == FamilyKind.pick.rawValue, let remote = conflict.remote,
            let pick = try? JSONDecoder().decode(FamilyPick.self, from: remote)
        else { return nil }
        let movie = pick.title.map { "\($0) (TMDB \(pick.tmdbID))" } ?? "TMDB \(pick.tmdbID)"
        return "round \(pick.roundID) was already picked: \(movie)"
    }

    static func adopt(_ conflict: ConflictReport, in db: Database) throws {
        guard let kind = FamilyKind(rawValue: conflict.kind) else { return }
        let payload = (try? JSONDecoder().decode(FamilyPayload.self, from: conflict.local)) ?? FamilyPayload()
        let now = conflict.createdAt
        let current = conflict.remote.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let isRound = current?["status"] != nil
        switch kind {
        case .pick:
            if let remote = conflict.remote, !isRound,
                let pick = try? JSONDecoder().decode(FamilyPick.self, from: remote)
            {
                let lost = payload.tmdbID.flatMap { $0 == pick.tmdbID ? nil : $0 }
                try FamilyCache.storePick(pick, lost: lost, in: db)
            } else {
                try db.execute(
                    sql: "DELETE FROM family_picks WHERE round_id = ? AND state = 'pending'",
                    arguments: [payload.round]
                )
                try storeRound(conflict.remote, now: now, in: db)
            }
        case .vote:
            try storeRound(conflict.remote, now: now, in: db)
            if let round = payload.round, let tmdbID = payload.tmdbID {
                try FamilyCache.setVoteState(
                    round: round,
                    tmdbID: tmdbID,
                    memberKey: payload.actingAs ?? FamilyClient.selfKey,
                    state: "refused",
                    note: conflict.reason,
                    in: db
                )
            }
        case .roundStart:
            try FamilyCache.forgetLocal(conflict.entity, in: db)
            try storeRound(conflict.remote, now: now, in: db)
        case .memberAdd:
            try FamilyCache.forgetLocal(conflict.entity, in: db)
            if let remote = conflict.remote, let member = try? JSONDecoder().decode(FamilyMember.self, from: remote) {
                try FamilyCache.storeMember(member, in: db)
            }
        case .roundClose, .suggest, .groupCreate:
            try storeRound(conflict.remote, now: now, in: db)
        }
    }

    private static func storeRound(_ remote: Data?, now: Date, in db: Database) throws {
        guard let remote, let round = try? JSONDecoder().decode(FamilyRound.self, from: remote) else { return }
        try FamilyCache.storeRound(round, now: now, in: db)
    }
}
