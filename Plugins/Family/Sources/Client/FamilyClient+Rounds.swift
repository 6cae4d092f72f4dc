import Foundation
import GRDB
import SyncKernel

extension FamilyClient {
    /// Starts a voting round in `group` with `attendees` (member names or ids; none means
    /// every member). The attendees go to the remote with the round, which stores them. A
    /// group has at most one active round: a second start is a conflict naming the active
    /// round and how to close it.
    public func startRound(
        group: String?,
        name: String?,
        attendees: [String] = []
    ) async throws -> FamilyWrite<FamilyRound> {
        let group = try await resolveGroup(group)
        let attending = try await resolveAttendees(attendees, group: group)
        let localID = Self.newLocalID()
        let name = name?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        let placeholder = FamilyRound(id: localID, groupID: group, name: name, status: "pending")
        let now = runtime.clock.now()
        let result: SubmitResult
        do {
            result = try await submit(
                .roundStart,
                entity: localID,
                FamilyPayload(
                    group: group,
                    name: name,
                    actingAs: await actingAs(),
                    attendees: attending.isEmpty ? nil : attending
                )
            ) { db in
                try FamilyCache.storeRound(placeholder, now: now, in: db)
                try FamilyCache.storePendingAttendees(attending, round: localID, in: db)
            }
        } catch {
            throw try await explainRoundStart(error, group: group)
        }
        guard case .sent(let outcome) = result, let id = outcome.remoteID else {
            return FamilyWrite(value: placeholder, queued: true)
        }
        let round = try await runtime.store.read { db in try FamilyCache.round(id, in: db) }
        return FamilyWrite(
            value: round ?? FamilyRound(id: id, groupID: group, name: name, status: "voting"),
            queued: false
        )
    }

    private func explainRoundStart(_ error: any Error, group: String) async throws -> any Error {
        guard let body = RemoteErrorBody(error), body.code == "round_already_active" else {
            return FamilyErrors.explain(error, doing: "starting a round in group \(group)")
        }
        let active = body.current.flatMap { try? JSONDecoder().decode(FamilyRound.self, from: $0) }
        let activeID = body.details["active_round_id"] ?? active?.id ?? "?"
        if let active {
            let now = runtime.clock.now()
            try await runtime.store.write { db in try FamilyCache.storeRound(active, now: now, in: db) }
        }
        let label = active?.name.map { " \"\($0)\"" } ?? ""
        return FerryError(
            .conflict,
            "group \(group) already has an active round: \(activeID)\(label); a group has one active round at a time. Close it with `ferry family round close \(activeID)`, then start again. Nothing was changed",
            underlying: error
        )
    }

    /// Closes a round: it takes no more suggestions or votes.
    public func closeRound(_ round: String) async throws -> FamilyWrite<FamilyRound?> {
        let round = try await resolved(round, "round")
        let result = try await write("closing round \(round)") {
            try await submit(.roundClose, entity: round, FamilyPayload(round: round, actingAs: await actingAs()))
        }
        let cached = try await runtime.store.read { db in try FamilyCache.round(round, in: db) }
        return FamilyWrite(value: cached, queued: result.isQueued)
    }

    /// Suggests a movie (by TMDB id) for a round; suggesting it again changes nothing.
    public func suggest(round: String, tmdbID: Int) async throws -> FamilyWrite<FamilySuggestion?> {
        let round = try await resolved(round, "round")
        try Self.validateTMDB(tmdbID)
        let result = try await write("suggesting movie \(tmdbID) for round \(round)") {
            try await submit(
                .suggest,
                entity: "\(round)/\(tmdbID)",
                FamilyPayload(round: round, tmdbID: tmdbID, actingAs: await actingAs())
            )
        }
        let suggestion = try await runtime.store.read { db in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT json FROM family_suggestions WHERE round_id = ? AND tmdb_id = ?"),
                arguments: [round, tmdbID]
            ).map { try FamilyCache.decode(FamilySuggestion.self, $0) }
        }
        return FamilyWrite(value: suggestion, queued: result.isQueued)
    }
}
