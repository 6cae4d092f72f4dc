import Foundation
import GRDB
import SyncKernel

extension FamilyClient {
    /// Submits one family operation as its policy says (online-only or queued).
    /// `local` runs in the transaction that queues it, or after the remote agreed.
    func submit(
        _ kind: FamilyKind,
        entity: String,
        _ payload: FamilyPayload,
        local: @escaping @Sendable (Database) throws -> Void = { _ in }
    ) async throws -> SubmitResult {
        let operation = NewOperation(
            plugin: FamilyPlugin.name, kind: kind.rawValue, entity: entity, payloadJSON: try payload.encoded())
        return try await runtime.submit(operation, local: local)
    }

    /// The member the user acts as now (`ferry auth act-as`), or nil for themself.
    func actingAs() async -> String? {
        await runtime.credentials.actingAs()
    }

    /// Creates a group; the user becomes its creator and first member.
    public func createGroup(name: String) async throws -> FamilyWrite<FamilyGroup> {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw FerryError(.usage, "a group needs a name, e.g. `ferry family group create \"Movie Night\"`") }
        let localID = Self.newLocalID()
        let queued = isQueued(.groupCreate)
        let placeholder = FamilyGroup(id: localID, name: name)
        let now = runtime.clock.now()
        let result = try await write("creating group \(name)") {
            try await submit(.groupCreate, entity: localID, FamilyPayload(name: name, actingAs: nil)) { db in
                guard queued else { return }
                try db.execute(
                    sql: "INSERT INTO family_groups (id, json, fetched_at) VALUES (?, ?, ?)",
                    arguments: [localID, try FamilyCache.encode(placeholder), now.timeIntervalSince1970])
            }
        }
        guard case .sent(let outcome) = result, let id = outcome.remoteID else { return FamilyWrite(value: placeholder, queued: true) }
        let group = try await runtime.store.read { db in try FamilyCache.groupDetail(id, in: db)?.group }
        return FamilyWrite(value: group ?? FamilyGroup(id: id, name: name), queued: false)
    }

    /// Adds a member: a managed member (no account, managed by the user) or, for the
    /// group's creator, a user by username.
    public func addMember(group: String?, name: String, managed: Bool) async throws -> FamilyWrite<FamilyMember> {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            throw FerryError(.usage, "a member needs a name: `ferry family member add NAME --managed` or a username without --managed")
        }
        let group = try await resolveGroup(group)
        let localID = Self.newLocalID()
        let queued = isQueued(.memberAdd)
        let payload = managed
            ? FamilyPayload(group: group, name: name, managed: true, actingAs: await actingAs())
            : FamilyPayload(group: group, username: name, managed: false, actingAs: await actingAs())
        let placeholder = FamilyMember(
            id: localID, groupID: group, userID: nil, displayName: name, managed: managed, managerUserID: nil,
            role: managed ? "managed" : "member")
        let result = try await write("adding \(name) to group \(group)") {
            try await submit(.memberAdd, entity: localID, payload) { db in
                if queued { try FamilyCache.storeMember(placeholder, in: db) }
            }
        }
        guard case .sent(let outcome) = result, let id = outcome.remoteID else { return FamilyWrite(value: placeholder, queued: true) }
        let member = try await runtime.store.read { db in
            try Data.fetchOne(db, sql: "SELECT json FROM family_members WHERE id = ?", arguments: [id])
                .map { try FamilyCache.decode(FamilyMember.self, $0) }
        }
        return FamilyWrite(value: member ?? placeholder, queued: false)
    }

    /// Starts a voting round in `group`. A group has at most one active round: a second
    /// start is a conflict naming the active round and how to close it.
    public func startRound(group: String?, name: String?, attendees: [String] = []) async throws -> FamilyWrite<FamilyRound> {
        let group = try await resolveGroup(group)
        let attending = try await resolveAttendees(attendees, group: group)
        let localID = Self.newLocalID()
        let queued = isQueued(.roundStart)
        let name = name?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        let placeholder = FamilyRound(id: localID, groupID: group, name: name, status: "pending")
        let now = runtime.clock.now()
        let result: SubmitResult
        do {
            result = try await submit(.roundStart, entity: localID, FamilyPayload(group: group, name: name, actingAs: await actingAs())) { db in
                guard queued else { return }
                try FamilyCache.storeRound(placeholder, now: now, in: db)
                try FamilyCache.storeAttendees(attending, round: localID, in: db)
            }
        } catch {
            throw try await explainRoundStart(error, group: group)
        }
        guard case .sent(let outcome) = result, let id = outcome.remoteID else { return FamilyWrite(value: placeholder, queued: true) }
        let round = try await runtime.store.write { db in
            try FamilyCache.storeAttendees(attending, round: id, in: db)
            return try FamilyCache.round(id, in: db)
        }
        return FamilyWrite(value: round ?? FamilyRound(id: id, groupID: group, name: name, status: "voting"), queued: false)
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
            underlying: error)
    }

    /// Closes a round: it takes no more suggestions or votes.
    public func closeRound(_ round: String) async throws -> FamilyWrite<FamilyRound?> {
        try Self.validate(round, "round")
        let result = try await write("closing round \(round)") {
            try await submit(.roundClose, entity: round, FamilyPayload(round: round, actingAs: await actingAs()))
        }
        let cached = try await runtime.store.read { db in try FamilyCache.round(round, in: db) }
        if case .sent = result { return FamilyWrite(value: cached, queued: false) }
        return FamilyWrite(value: cached, queued: true)
    }

    /// Suggests a movie (by TMDB id) for a round; suggesting it again changes nothing.
    public func suggest(round: String, tmdbID: Int) async throws -> FamilyWrite<FamilySuggestion?> {
        try Self.validate(round, "round")
        try Self.validateTMDB(tmdbID)
        let result = try await write("suggesting movie \(tmdbID) for round \(round)") {
            try await submit(
                .suggest, entity: "\(round)/\(tmdbID)", FamilyPayload(round: round, tmdbID: tmdbID, actingAs: await actingAs()))
        }
        let suggestion = try await runtime.store.read { db in
            try Data.fetchOne(
                db, sql: "SELECT json FROM family_suggestions WHERE round_id = ? AND tmdb_id = ?", arguments: [round, tmdbID]
            ).map { try FamilyCache.decode(FamilySuggestion.self, $0) }
        }
        if case .sent = result { return FamilyWrite(value: suggestion, queued: false) }
        return FamilyWrite(value: suggestion, queued: true)
    }

    /// Votes on a movie of a round, as the user or as the member they act as. One vote per
    /// member per movie per round: a new vote replaces the old one, and queued votes on the
    /// same movie by the same member coalesce into the latest.
    public func vote(round: String, tmdbID: Int, value: VoteValue) async throws -> FamilyWrite<LocalVote> {
        try Self.validate(round, "round")
        try Self.validateTMDB(tmdbID)
        let acting = await actingAs()
        let memberKey = acting ?? Self.selfKey
        let queued = isQueued(.vote)
        let pending = LocalVote(roundID: round, tmdbID: tmdbID, memberKey: memberKey, value: value, state: "pending", note: nil)
        let result = try await write("voting on movie \(tmdbID) in round \(round)") {
            try await submit(
                .vote, entity: "\(round)/\(tmdbID)/\(memberKey)",
                FamilyPayload(round: round, tmdbID: tmdbID, value: value, actingAs: acting)
            ) { db in
                if queued { try FamilyCache.storeVote(pending, in: db) }
            }
        }
        let stored = try await runtime.store.read { db in
            try FamilyCache.localVotes(round, in: db).first { $0.tmdbID == tmdbID && $0.memberKey == memberKey }
        }
        if case .sent = result { return FamilyWrite(value: stored ?? pending, queued: false) }
        return FamilyWrite(value: stored ?? pending, queued: true)
    }

    /// Picks the round's movie: exactly once per round, by the group's creator. When
    /// someone picked first, their pick is adopted locally and reported, never retried.
    public func pick(round: String, tmdbID: Int) async throws -> PickResult {
        try Self.validate(round, "round")
        try Self.validateTMDB(tmdbID)
        let acting = await actingAs()
        let queued = isQueued(.pick)
        let title = try await runtime.store.read { db in try FamilyCache.roundDetail(round, in: db)?.title(of: tmdbID) }
        do {
            let result = try await submit(.pick, entity: round, FamilyPayload(round: round, tmdbID: tmdbID, actingAs: acting)) { db in
                if queued { try FamilyCache.storePendingPick(FamilyPick(roundID: round, tmdbID: tmdbID, title: title), in: db) }
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
                        failure.message + " (you are acting as member \(acting); only the group's creator, acting as themself, may pick: run `ferry auth act-as --self` first)",
                        underlying: error)
                }
                throw explained
            }
            let lost = winner.tmdbID == tmdbID ? nil : tmdbID
            try await runtime.store.write { db in try FamilyCache.storePick(winner, lost: lost, in: db) }
            _ = try? await self.round(round)
            return .alreadyPicked(winner: winner, yours: tmdbID)
        }
    }

    /// Runs a write, turning the remote's refusals into messages that say what to do.
    func write(_ what: String, _ body: () async throws -> SubmitResult) async throws -> SubmitResult {
        do {
            return try await body()
        } catch let error as FerryError where error.code == .requiresConnection {
            throw error
        } catch {
            throw FamilyErrors.explain(error, doing: what)
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
