import Foundation
import GRDB
import SyncKernel

extension FamilyClient {
    /// Votes on a movie of a round, as the user or as the member they act as. One vote per
    /// member per movie per round: a new vote replaces the old one, and queued votes on the
    /// same movie by the same member coalesce into the latest.
    public func vote(round: String, tmdbID: Int, value: VoteValue) async throws -> FamilyWrite<LocalVote> {
        let round = try await resolved(round, "round")
        try Self.validateTMDB(tmdbID)
        let acting = await actingAs()
        let memberKey = acting ?? Self.selfKey
        let pending = LocalVote(
            roundID: round,
            tmdbID: tmdbID,
            memberKey: memberKey,
            value: value,
            state: "pending",
            note: nil
        )
        let result = try await write("voting on movie \(tmdbID) in round \(round)") {
            try await submit(
                .vote,
                entity: "\(round)/\(tmdbID)/\(memberKey)",
                FamilyPayload(round: round, tmdbID: tmdbID, value: value, actingAs: acting)
            ) { db in try FamilyCache.storeVote(pending, in: db) }
        }
        let stored = try await runtime.store.read { db in
            try FamilyCache.localVotes(round, in: db).first { $0.tmdbID == tmdbID && $0.memberKey == memberKey }
        }
        return FamilyWrite(value: stored ?? pending, queued: result.isQueued)
    }

    /// Picks the round's movie: exactly once per round, by the group's creator. When
    /// someone picked first, their pick is adopted locally and reported, never retried.
    public func pick(round: String, tmdbID: Int) async throws -> PickResult {
        let round = try await resolved(round, "round")
        try Self.validateTMDB(tmdbID)
        let acting = await actingAs()
        let title = try await runtime.store.read { db in try FamilyCache.roundDetail(round, in: db)?.title(of: tmdbID) }
        do {
            let result = try await submit(
                .pick,
                entity: round,
                FamilyPayload(round: round, tmdbID: tmdbID, actingAs: acting)
            ) { db in
                try FamilyCache.storePendingPick(FamilyPick(roundID: round, tmdbID: tmdbID, title: title), in: db)
            }
            guard case .sent = result else { return .queued(roundID: round, tmdbID: tmdbID) }
            let pick = try await runtime.store.read { db in try FamilyCache.pick(round, in: db) }
            return .picked(pick ?? FamilyPick(roundID: round, tmdbID: tmdbID, title: title))
        } catch {
            guard let body = RemoteErrorBody(error), body.code == "already_picked",
                let current = body.current, let winner = try? JSONDecoder().decode(FamilyPick.self, from: current)
            else {
                var explained = FamilyErrors.explain(error, doing: "picking movie \(tmdbID) for round \(round)")
                if let acting, let failure = explained as? FerryError, RemoteErrorBody(error)?.status == 403 {
                    explained = FerryError(
                        failure.code,
                        failure.message
                            + " (you are acting as member \(acting); only the group's creator, acting as themself, may pick: run `ferry auth act-as --self` first)",
                        underlying: error
                    )
                }
                throw explained
            }
            let lost = winner.tmdbID == tmdbID ? nil : tmdbID
            try await runtime.store.write { db in try FamilyCache.storePick(winner, lost: lost, in: db) }
            _ = try? await self.round(round)
            return .alreadyPicked(winner: winner, yours: tmdbID)
        }
    }
}
