import Foundation
import GRDB
import SyncKernel

/// Named reads and writes of the family plugin's tables; every write keeps the cache
/// consistent with what the remote last said.
public enum FamilyCache {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONEncoder().encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }

    // MARK: Groups

    /// Replaces the cached list of the user's groups (groups created offline stay).
    static func storeGroups(_ groups: [FamilyGroup], now: Date, in db: Database) throws {
        let ids = Set(groups.map(\.id))
        let cached = try String.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM family_groups WHERE id NOT LIKE 'local-%'")
        )
        for id in cached where !ids.contains(id) {
            try db.cachedStatement(sql: "DELETE FROM family_groups WHERE id = ?").execute(arguments: [id])
            try db.cachedStatement(sql: "DELETE FROM family_members WHERE group_id = ?").execute(arguments: [id])
        }
        for group in groups {
            try db.cachedStatement(
                sql: """
                    INSERT INTO family_groups (id, json, fetched_at) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at
                    """
            ).execute(arguments: [group.id, try encode(group), now.timeIntervalSince1970])
        }
    }

    /// Stores a group with its members and active round, as `GET /v1/groups/{id}` gave them.
    static func storeGroupDetail(_ detail: FamilyGroupDetail, now: Date, in db: Database) throws {
        let group = detail.group
        try db.cachedStatement(
            sql: """
                INSERT INTO family_groups (id, json, active_round_id, detailed, fetched_at) VALUES (?, ?, ?, 1, ?)
                ON CONFLICT(id) DO UPDATE SET json = excluded.json, active_round_id = excluded.active_round_id,
                    detailed = 1, fetched_at = excluded.fetched_at
                """
        ).execute(arguments: [group.id, try encode(group), detail.activeRound?.round.id, now.timeIntervalSince1970])
        try db.cachedStatement(sql: "DELETE FROM family_members WHERE group_id = ? AND id NOT LIKE 'local-%'")
            .execute(arguments: [group.id])
        for member in detail.members { try storeMember(member, in: db) }
        if let round = detail.activeRound { try storeRound(round, now: now, in: db) }
    }

    /// The cached groups, by name.
    public static func groups(in db: Database) throws -> [FamilyGroup] {
        try Data.fetchAll(
            db.cachedStatement(sql: "SELECT json FROM family_groups")
        ).map { try decode(FamilyGroup.self, $0) }
            .sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
    }

    /// The cached group `id` with its members and active round; nil when never fetched.
    public static func groupDetail(_ id: String, in db: Database) throws -> FamilyGroupDetail? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT json, active_round_id FROM family_groups WHERE id = ?"),
                arguments: [id]
            )
        else { return nil }
        let group = try decode(FamilyGroup.self, row["json"])
        let members = try Data.fetchAll(
            db.cachedStatement(sql: "SELECT json FROM family_members WHERE group_id = ? ORDER BY rowid"),
            arguments: [id]
        )
        .map { try decode(FamilyMember.self, $0) }
        let activeID: String? = row["active_round_id"]
        let active = try activeID.flatMap { try roundDetail($0, in: db) }
        return FamilyGroupDetail(group: group, members: members, activeRound: active)
    }

    /// When group `id` was last fetched.
    public static func groupFetchedAt(_ id: String, in db: Database) throws -> Date? {
        try Double.fetchOne(
            db.cachedStatement(sql: "SELECT fetched_at FROM family_groups WHERE id = ?"),
            arguments: [id]
        )
            .map(Date.init(timeIntervalSince1970:))
    }

    // MARK: Members

    /// The cached member `id`, in whichever group; nil when unknown here.
    public static func member(_ id: String, in db: Database) throws -> FamilyMember? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT json FROM family_members WHERE id = ?"), arguments: [id])
            .map { try decode(FamilyMember.self, $0) }
    }

    static func storeMember(_ member: FamilyMember, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO family_members (id, group_id, json) VALUES (?, ?, ?)")
            .execute(arguments: [member.id, member.groupID, try encode(member)])
    }

    // MARK: Rounds

    /// Stores a round with its suggestions and pick (never its votes or tallies), and
    /// keeps its group's active round in step.
    static func storeRound(_ detail: FamilyRoundDetail, now: Date, in db: Database) throws {
        try storeRound(detail.round, now: now, in: db)
        let id = detail.round.id
        try db.cachedStatement(sql: "DELETE FROM family_suggestions WHERE round_id = ?").execute(arguments: [id])
        for suggestion in detail.suggestions { try storeSuggestion(suggestion, in: db) }
        if let pick = detail.pick { try storePick(pick, in: db) }
    }

    /// Stores a round's own fields. The remote's attendees replace those recorded here for
    /// a round started offline; a round given without attendees keeps the ones cached.
    static func storeRound(_ round: FamilyRound, now: Date, in db: Database) throws {
        var round = round
        if round.attendees == nil {
            round.attendees = try self.round(round.id, in: db)?.attendees
        } else {
            try db.cachedStatement(sql: "DELETE FROM family_attendees WHERE round_id = ?")
                .execute(arguments: [round.id])
        }
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO family_rounds (id, group_id, status, json, fetched_at) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [round.id, round.groupID, round.status, try encode(round), now.timeIntervalSince1970])
        if round.status == "voting" || round.status == "pending" {
            try db.cachedStatement(sql: "UPDATE family_groups SET active_round_id = ? WHERE id = ?")
                .execute(arguments: [round.id, round.groupID])
        } else {
            try db.cachedStatement(
                sql: "UPDATE family_groups SET active_round_id = NULL WHERE id = ? AND active_round_id = ?"
            ).execute(arguments: [round.groupID, round.id])
        }
    }

    /// Sets the status of a cached round (e.g. `picked` once its pick is known).
    static func setRoundStatus(_ id: String, _ status: String, in db: Database) throws {
        guard var round = try round(id, in: db) else { return }
        round.status = status
        let fetched =
            try Double.fetchOne(
                db.cachedStatement(sql: "SELECT fetched_at FROM family_rounds WHERE id = ?"),
                arguments: [id]
            ) ?? 0
        try storeRound(round, now: Date(timeIntervalSince1970: fetched), in: db)
    }

    /// A round of the same group as `round` that was started here offline and is still
    /// local (its start has not reached the remote); nil when there is none.
    static func localRound(besides round: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT other.id FROM family_rounds AS this
                    JOIN family_rounds AS other ON other.group_id = this.group_id
                    WHERE this.id = ? AND other.id LIKE 'local-%' ORDER BY other.id LIMIT 1
                    """
            ),
            arguments: [round]
        )
    }

    /// The cached round `id` without its detail.
    public static func round(_ id: String, in db: Database) throws -> FamilyRound? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT json FROM family_rounds WHERE id = ?"), arguments: [id])
            .map { try decode(FamilyRound.self, $0) }
    }

    /// The cached round `id` with its suggestions and pick; votes and tallies are nil.
    public static func roundDetail(_ id: String, in db: Database) throws -> FamilyRoundDetail? {
        guard let round = try round(id, in: db) else { return nil }
        let suggestions = try Data.fetchAll(
            db.cachedStatement(sql: "SELECT json FROM family_suggestions WHERE round_id = ? ORDER BY rowid"),
            arguments: [id]
        ).map { try decode(FamilySuggestion.self, $0) }
        return FamilyRoundDetail(
            round: round,
            suggestions: suggestions,
            votes: nil,
            tallies: nil,
            pick: try pick(id, in: db)
        )
    }

    /// When round `id` was last fetched.
    public static func roundFetchedAt(_ id: String, in db: Database) throws -> Date? {
        try Double.fetchOne(
            db.cachedStatement(sql: "SELECT fetched_at FROM family_rounds WHERE id = ?"),
            arguments: [id]
        )
            .map(Date.init(timeIntervalSince1970:))
    }

    // MARK: Suggestions

    static func storeSuggestion(_ suggestion: FamilySuggestion, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO family_suggestions (round_id, tmdb_id, json) VALUES (?, ?, ?)"
        ).execute(arguments: [suggestion.roundID, suggestion.tmdbID, try encode(suggestion)])
    }

    // MARK: Picks

    /// Stores the remote's pick; `lost` is the movie this device tried to pick, if it lost the race.
    static func storePick(_ pick: FamilyPick, lost: Int? = nil, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO family_picks (round_id, tmdb_id, json, state, lost_tmdb_id) VALUES (?, ?, ?, 'picked', ?)
                ON CONFLICT(round_id) DO UPDATE SET tmdb_id = excluded.tmdb_id, json = excluded.json, state = 'picked',
                    lost_tmdb_id = coalesce(excluded.lost_tmdb_id, CASE WHEN family_picks.state = 'picked' THEN family_picks.lost_tmdb_id END)
                """
        ).execute(arguments: [pick.roundID, pick.tmdbID, try encode(pick), lost])
        if try round(pick.roundID, in: db)?.status != "picked" { try setRoundStatus(pick.roundID, "picked", in: db) }
    }

    /// Records a pick queued on this device and not yet accepted (never over a known pick).
    static func storePendingPick(_ pick: FamilyPick, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO family_picks (round_id, tmdb_id, json, state) VALUES (?, ?, ?, 'pending')
                ON CONFLICT(round_id) DO UPDATE SET tmdb_id = excluded.tmdb_id, json = excluded.json
                    WHERE family_picks.state = 'pending'
                """
        ).execute(arguments: [pick.roundID, pick.tmdbID, try encode(pick)])
    }

    /// The pick of round `id`: the remote's, or one still queued here (see `pickState`).
    public static func pick(_ id: String, in db: Database) throws -> FamilyPick? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT json FROM family_picks WHERE round_id = ?"), arguments: [id])
            .map { try decode(FamilyPick.self, $0) }
    }

    /// `picked` or `pending`, and the movie this device picked if it lost the race.
    public static func pickState(_ id: String, in db: Database) throws -> (state: String, lostTMDBID: Int?)? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT state, lost_tmdb_id FROM family_picks WHERE round_id = ?"),
            arguments: [id]
        )
            .map { ($0["state"], $0["lost_tmdb_id"]) }
    }

    // MARK: Attendees

    /// Records the attendees of a round started offline, until the remote's answer replaces them.
    static func storePendingAttendees(_ members: [String], round: String, in db: Database) throws {
        for member in members {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO family_attendees (round_id, member_id) VALUES (?, ?)")
                .execute(arguments: [round, member])
        }
    }

    /// The members attending round `id`: the remote's list once it has answered, else the
    /// ones recorded here when the round was started offline.
    public static func attendees(_ id: String, in db: Database) throws -> [String] {
        if let remote = try round(id, in: db)?.attendees { return remote }
        return try String.fetchAll(
            db.cachedStatement(sql: "SELECT member_id FROM family_attendees WHERE round_id = ? ORDER BY rowid"),
            arguments: [id]
        )
    }

    // MARK: Votes cast here

    static func storeVote(_ vote: LocalVote, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO family_votes (round_id, tmdb_id, member_key, value, state, note) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [vote.roundID, vote.tmdbID, vote.memberKey, vote.value.rawValue, vote.state, vote.note])
    }

    static func setVoteState(
        round: String,
        tmdbID: Int,
        memberKey: String,
        state: String,
        note: String?,
        in db: Database
    ) throws {
        try db.cachedStatement(
            sql: "UPDATE family_votes SET state = ?, note = ? WHERE round_id = ? AND tmdb_id = ? AND member_key = ?"
        ).execute(arguments: [state, note, round, tmdbID, memberKey])
    }

    /// The votes cast from this device in round `id`. A pending vote whose operation became a
    /// dead letter, or was discarded from the queue, says so instead of staying `pending`.
    public static func localVotes(_ id: String, in db: Database) throws -> [LocalVote] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM family_votes WHERE round_id = ? ORDER BY tmdb_id, member_key"),
            arguments: [id]
        ).map { row in
            var vote = LocalVote(
                roundID: row["round_id"],
                tmdbID: row["tmdb_id"],
                memberKey: row["member_key"],
                value: VoteValue(rawValue: row["value"]) ?? .up,
                state: row["state"],
                note: row["note"]
            )
            guard vote.state == "pending" else { return vote }
            let operation = try Outbox.operations(
                plugin: FamilyPlugin.name,
                entity: "\(vote.roundID)/\(vote.tmdbID)/\(vote.memberKey)",
                in: db
            ).last { $0.kind == "vote" }
            if let operation, operation.state == .dead {
                vote.state = "failed"
                vote.note = operation.lastError.map { "\($0); see `ferry queue list --state dead`" }
            } else if operation == nil {
                vote.state = "not sent"
                vote.note = "its queued operation was discarded"
            }
            return vote
        }
    }

    // MARK: Ids

    /// The statements of `remap`, `?1` the remote id and `?2` the local one. A row the
    /// remote's state already stored under the remote id wins over the placeholder.
    private static let remapStatements = [
        "DELETE FROM family_groups WHERE id = ?2 AND EXISTS (SELECT 1 FROM family_groups WHERE id = ?1)",
        "UPDATE family_groups SET id = ?1 WHERE id = ?2",
        "DELETE FROM family_members WHERE id = ?2 AND EXISTS (SELECT 1 FROM family_members WHERE id = ?1)",
        "UPDATE family_members SET id = ?1 WHERE id = ?2",
        "DELETE FROM family_rounds WHERE id = ?2 AND EXISTS (SELECT 1 FROM family_rounds WHERE id = ?1)",
        "UPDATE family_rounds SET id = ?1 WHERE id = ?2",
        "UPDATE family_groups SET active_round_id = ?1 WHERE active_round_id = ?2",
        "UPDATE OR REPLACE family_members SET group_id = ?1 WHERE group_id = ?2",
        "UPDATE OR REPLACE family_rounds SET group_id = ?1 WHERE group_id = ?2",
        "UPDATE OR REPLACE family_suggestions SET round_id = ?1 WHERE round_id = ?2",
        "UPDATE OR REPLACE family_picks SET round_id = ?1 WHERE round_id = ?2",
        "UPDATE OR REPLACE family_attendees SET round_id = ?1 WHERE round_id = ?2",
        "UPDATE OR REPLACE family_votes SET round_id = ?1 WHERE round_id = ?2",
        "UPDATE OR REPLACE family_attendees SET member_id = ?1 WHERE member_id = ?2",
        "UPDATE OR REPLACE family_votes SET member_key = ?1 WHERE member_key = ?2",
    ]

    /// Rewrites every reference to an entity created offline once the remote named it.
    static func remap(localID: String, to remoteID: String, in db: Database) throws {
        for sql in remapStatements { try db.execute(sql: sql, arguments: [remoteID, localID]) }
        if try round(remoteID, in: db)?.attendees != nil {
            try db.cachedStatement(sql: "DELETE FROM family_attendees WHERE round_id = ?")
                .execute(arguments: [remoteID])
        }
    }

    /// Forgets a placeholder created offline that the remote refused.
    static func forgetLocal(_ localID: String, in db: Database) throws {
        // One statement at a time: several in one `execute` take the arguments in turn,
        // and the second would find none left for its `?`.
        for sql in [
            "DELETE FROM family_groups WHERE id = ?",
            "DELETE FROM family_members WHERE id = ?",
            "DELETE FROM family_rounds WHERE id = ?",
            "UPDATE family_groups SET active_round_id = NULL WHERE active_round_id = ?",
            "DELETE FROM family_attendees WHERE round_id = ?",
        ] {
            try db.execute(sql: sql, arguments: [localID])
        }
    }
}
