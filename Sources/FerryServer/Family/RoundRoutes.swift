import Foundation

/// Rounds of a group: one active (`voting`) round at a time; close; details with tallies.
enum RoundRoutes {
    static var routes: [Route] {
        [
            Route(.get, "/v1/groups/{id}/rounds", handler: list),
            Route(.post, "/v1/groups/{id}/rounds", handler: create),
            Route(.get, "/v1/rounds/{id}", handler: show),
            Route(.post, "/v1/rounds/{id}/close", handler: close),
        ]
    }

    static func activeRound(_ db: any SQLSession, scope: String) throws -> JSON? {
        try Entities.list(
            db,
            "rounds",
            scope: scope,
            filter: db.dialect.jsonEquals("data", key: "status"),
            arguments: ["voting"]
        ).first
    }

    static func list(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let groupID = try Identifier.validated(request.parameter("id"))
        let rounds = try await env.database.read { db in
            let access = try FamilyAccess.resolve(db, groupID: groupID, request: request)
            return try Entities.list(db, "rounds", scope: access.scope).map {
                try RoundAttendees.including($0, db: db, scope: access.scope)
            }
        }
        return .json(["rounds": .array(rounds)])
    }

    static func create(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let groupID = try Identifier.validated(request.parameter("id"))
        let body = request.body.isEmpty ? [:] : try request.jsonObject(allowing: ["name", RoundAttendees.field])
        let name = try body.optionalString("name")
        let requested = try RoundAttendees.parse(body)
        let now = env.now
        return try await env.database.commit(now: now) { db in
            let access = try FamilyAccess.resolve(db, groupID: groupID, request: request)
            let attendees = try RoundAttendees.resolve(
                requested,
                members: try Entities.list(db, "members", scope: access.scope)
            )
            if let stored = try activeRound(db, scope: access.scope) {
                let active = try RoundAttendees.including(stored, db: db, scope: access.scope)
                throw APIError.conflict(
                    "round_already_active",
                    "This group already has an active round; close it first.",
                    current: active,
                    details: ["active_round_id": active["id"] ?? .null]
                )
            }
            let roundID = TokenGenerator.id(prefix: "r_")
            let round = try Entities.put(
                db,
                "rounds",
                scope: access.scope,
                id: roundID,
                data: [
                    "group_id": .string(groupID), "name": .optional(name), "status": "voting",
                    "created_by_member_id": .string(access.actingID), "created_at": .string(Timestamp.string(now)),
                    "closed_at": .null, RoundAttendees.field: .array(attendees.map(JSON.string)),
                ],
                now: now
            )
            return try detail(db, round: round, scope: access.scope)
        } answer: { round in
            .entity(round, status: .created, headers: ["Location": "/v1/rounds/\(round["id"]?.stringValue ?? "")"])
        }
    }

    static func show(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let roundID = try Identifier.validated(request.parameter("id"))
        let round = try await env.database.read { db in
            let (access, round) = try FamilyAccess.resolve(db, roundID: roundID, request: request)
            return try detail(db, round: round, scope: access.scope)
        }
        return .entity(round)
    }

    static func close(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let roundID = try Identifier.validated(request.parameter("id"))
        if !request.body.isEmpty { _ = try request.jsonObject(allowing: []) }
        let now = env.now
        return try await env.database.commit(now: now) { db in
            // If-Match on a round that does not exist fails as on any missing entity (412), before its 404.
            if try FamilyAccess.round(db, id: roundID) == nil { try Conditional.check(request, current: nil) }
            let (access, current) = try FamilyAccess.resolve(db, roundID: roundID, request: request)
            try Conditional.check(request, current: current)
            var round = current
            if round["status"]?.stringValue == "voting" {
                round["status"] = "closed"
                round["closed_at"] = .string(Timestamp.string(now))
                round = try Entities.put(db, "rounds", scope: access.scope, id: roundID, data: round, now: now)
            }
            return try detail(db, round: round, scope: access.scope)
        } answer: { round in
            .entity(round)
        }
    }

    /// A round with `attendees`, `suggestions`, `votes`, `tallies` (per tmdb_id: up, down, score) and `pick`.
    static func detail(_ db: any SQLSession, round: JSON, scope: String) throws -> JSON {
        guard let roundID = round["id"]?.stringValue else { return round }
        let filter = db.dialect.jsonEquals("data", key: "round_id")
        let suggestions = try Entities.list(db, "suggestions", scope: scope, filter: filter, arguments: [roundID])
        let votes = try Entities.list(db, "votes", scope: scope, filter: filter, arguments: [roundID])
        var tallies: [Int: (up: Int, down: Int)] = [:]
        for suggestion in suggestions { if let id = suggestion["tmdb_id"]?.intValue { tallies[id] = (0, 0) } }
        for vote in votes {
            guard let id = vote["tmdb_id"]?.intValue else { continue }
            if vote["value"]?.stringValue == "up" {
                tallies[id, default: (0, 0)].up += 1
            } else {
                tallies[id, default: (0, 0)].down += 1
            }
        }
        var detail = try RoundAttendees.including(round, db: db, scope: scope)
        detail["suggestions"] = .array(suggestions)
        detail["votes"] = .array(votes)
        detail["tallies"] = .array(
            tallies.sorted { $0.key < $1.key }.map { id, tally in
                [
                    "tmdb_id": .int(id), "up": .int(tally.up), "down": .int(tally.down),
                    "score": .int(tally.up - tally.down),
                ]
            }
        )
        detail["pick"] = try Entities.fetch(db, "picks", scope: scope, id: roundID) ?? .null
        return detail
    }
}
