import Foundation

/// Suggestions, votes and the pick of a round.
enum VotingRoutes {
    static var routes: [Route] {
        [
            Route(.post, "/v1/rounds/{id}/suggestions", handler: suggest),
            Route(.put, "/v1/rounds/{id}/votes/{tmdb_id}", handler: vote),
            Route(.post, "/v1/rounds/{id}/pick", handler: pick),
        ]
    }

    static func requireVoting(_ round: JSON) throws {
        guard round["status"]?.stringValue == "voting" else {
            throw APIError(
                .conflict,
                "round_not_active",
                "This round is \(round["status"]?.stringValue ?? "over"); it takes no more changes.",
                details: ["current": round]
            )
        }
    }

    static func film(_ tmdbID: Int) throws -> TMDBFilm {
        guard let film = TMDBCatalogue.film(tmdbID) else {
            throw APIError(
                .notFound,
                "tmdb_movie_not_found",
                "TMDB has no movie with id \(tmdbID).",
                details: ["tmdb_id": .int(tmdbID)]
            )
        }
        return film
    }

    /// Suggests a film; suggesting it again returns the existing suggestion (200).
    static func suggest(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let roundID = try Identifier.validated(request.parameter("id"))
        let film = try film(try request.jsonObject(allowing: ["tmdb_id"]).requiredInt("tmdb_id"))
        let now = env.now
        return try await env.database.commit(now: now) { db in
            let (access, round) = try FamilyAccess.resolve(db, roundID: roundID, request: request)
            try requireVoting(round)
            let id = "\(roundID)-\(film.id)"
            if let existing = try Entities.fetch(db, "suggestions", scope: access.scope, id: id) {
                return (existing, false)
            }
            return (
                try Entities.put(
                    db,
                    "suggestions",
                    scope: access.scope,
                    id: id,
                    data: [
                        "round_id": .string(roundID), "tmdb_id": .int(film.id), "title": .string(film.title),
                        "year": .optional(film.year),
                        "poster_path": .string(film.posterPath), "suggested_by_member_id": .string(access.actingID),
                    ],
                    now: now
                ), true
            )
        } answer: { (suggestion, created) in
            .entity(suggestion, status: created ? .created : .ok)
        }
    }

    /// One vote per member per film per round; a new vote replaces the old (idempotent upsert).
    static func vote(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let roundID = try Identifier.validated(request.parameter("id"))
        guard let tmdbID = Int(request.parameter("tmdb_id")), tmdbID > 0 else {
            throw APIError.badRequest("invalid_tmdb_id", "The TMDB id in the path must be a positive integer.")
        }
        let body = try request.jsonObject(allowing: ["value"])
        let value = try body.requiredString("value")
        guard value == "up" || value == "down" else {
            throw APIError.invalidField("value", "value must be \"up\" or \"down\".")
        }
        let user = try request.requireUser()
        let now = env.now
        return try await env.database.commit(now: now) { db in
            let (access, round) = try FamilyAccess.resolve(db, roundID: roundID, request: request)
            try requireVoting(round)
            let id = "\(roundID)-\(tmdbID)-\(access.actingID)"
            let existing = try Entities.fetch(db, "votes", scope: access.scope, id: id)
            if let existing, existing["value"]?.stringValue == value { return (existing, false) }
            return (
                try Entities.put(
                    db,
                    "votes",
                    scope: access.scope,
                    id: id,
                    data: [
                        "round_id": .string(roundID), "tmdb_id": .int(tmdbID), "member_id": .string(access.actingID),
                        "value": .string(value), "cast_by_user_id": .string(user.id),
                    ],
                    now: now
                ), existing == nil
            )
        } answer: { (vote, created) in
            .entity(vote, status: created ? .created : .ok)
        }
    }

    /// The pick: exactly once per round, by the group's creator only.
    static func pick(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let roundID = try Identifier.validated(request.parameter("id"))
        let film = try film(try request.jsonObject(allowing: ["tmdb_id"]).requiredInt("tmdb_id"))
        let now = env.now
        return try await env.database.commit(now: now) { db in
            let (access, current) = try FamilyAccess.resolve(db, roundID: roundID, request: request)
            guard access.actingIsCreator else {
                throw APIError.forbidden("Only the group's creator may pick the movie.")
            }
            if let existing = try Entities.fetch(db, "picks", scope: access.scope, id: roundID) {
                throw APIError.conflict("already_picked", "This round already has its pick.", current: existing)
            }
            try requireVoting(current)
            var round = current
            round["status"] = "picked"
            round["closed_at"] = .string(Timestamp.string(now))
            try Entities.put(db, "rounds", scope: access.scope, id: roundID, data: round, now: now)
            return try Entities.put(
                db,
                "picks",
                scope: access.scope,
                id: roundID,
                data: [
                    "round_id": .string(roundID), "tmdb_id": .int(film.id), "title": .string(film.title),
                    "picked_by_member_id": .string(access.actingID), "picked_at": .string(Timestamp.string(now)),
                ],
                now: now
            )
        } answer: { pick in
            .entity(pick, status: .created)
        }
    }
}
