import Foundation

/// `/v1/movies`: the caller's movie list. Each entry carries the catalogue fields the client
/// fetched from TMDB (`MovieDetails`) and the user's own (`MoviePatch`).
enum MovieRoutes {
    static let collection = "movies"
    static let statuses: Set<String> = ["want_to_watch", "watching", "watched"]

    static var routes: [Route] {
        [
            Route(.get, "/v1/movies") { request, env in
                let user = try request.requireUser()
                let status = request.query["status"]
                if let status, !statuses.contains(status) {
                    throw APIError.badRequest(
                        "invalid_status",
                        "status must be one of \(statuses.sorted().joined(separator: ", "))."
                    )
                }
                let movies = try await env.database.read { db in
                    try Entities.list(db, collection, scope: user.scope).filter {
                        status == nil || $0["status"]?.stringValue == status
                    }
                }
                return .json(["movies": .array(movies)])
            },
            Route(.get, "/v1/movies/changes", handler: ChangesFeed.handler(collection) { try $0.requireUser().scope }),
            Route(.post, "/v1/movies", handler: add),
            Route(.get, "/v1/movies/{id}") { request, env in
                let user = try request.requireUser()
                let id = try Identifier.validated(request.parameter("id"))
                let movie = try await env.database.read { db in
                    try Entities.require(db, collection, scope: user.scope, id: id, code: "movie_not_found")
                }
                return .entity(movie)
            },
            Route(.patch, "/v1/movies/{id}", handler: MoviePatch.handle),
            Route(.delete, "/v1/movies/{id}", handler: delete),
        ]
    }

    static func add(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let editable = MoviePatch.fields
        let body = try request.jsonObject(allowing: MovieDetails.fields.union(editable).union(["tmdb_id"]))
        let tmdbID = try body.requiredInt("tmdb_id")
        guard tmdbID > 0 else { throw APIError.invalidField("tmdb_id", "tmdb_id must be a positive TMDB id.") }
        var entry = try MovieDetails.validated(body)
        entry.merge(try MoviePatch.validated(body.filter { editable.contains($0.key) })) { $1 }
        entry["tmdb_id"] = .int(tmdbID)
        for key in ["my_rating", "date_watched", "recommender"] where entry[key] == nil { entry[key] = .null }
        if entry["status"] == nil { entry["status"] = "want_to_watch" }
        let title = entry["title"]?.stringValue ?? ""
        let fields = entry
        let now = env.now
        return try await env.database.commit(now: now) { db in
            if let existing = try find(db, scope: user.scope, tmdbID: tmdbID) {
                throw APIError.conflict(
                    "movie_already_in_list",
                    "'\(title)' is already in the list.",
                    current: existing
                )
            }
            var data = JSON.object(fields)
            data["created_at"] = .string(Timestamp.string(now))
            let movie = try Entities.put(
                db,
                collection,
                scope: user.scope,
                id: TokenGenerator.id(prefix: "m_"),
                data: data,
                now: now
            )
            try People.recompute(db, scope: user.scope, now: now)
            return movie
        } answer: { movie in
            let id = movie["id"]?.stringValue ?? ""
            return .entity(movie, status: .created, headers: ["Location": "/v1/movies/\(id)"])
        }
    }

    static func delete(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let id = try Identifier.validated(request.parameter("id"))
        let now = env.now
        return try await env.database.commit(now: now) { db in
            _ = try Conditional.require(request, db, collection, scope: user.scope, id: id, code: "movie_not_found")
            try Entities.delete(db, collection, scope: user.scope, id: id, now: now)
            try People.recompute(db, scope: user.scope, now: now)
        } answer: { _ in
            .noContent
        }
    }

    static func find(_ db: any SQLSession, scope: String, tmdbID: Int) throws -> JSON? {
        try Entities.list(
            db,
            collection,
            scope: scope,
            filter: db.dialect.jsonEquals("data", key: "tmdb_id"),
            arguments: [tmdbID]
        ).first
    }

    /// A demo list entry for a film of the reference catalogue, with the fields a client
    /// would have fetched from TMDB.
    static func entity(for film: TMDBFilm) -> JSON {
        [
            "tmdb_id": .int(film.id), "imdb_id": .string(film.imdbID), "title": .string(film.title),
            "year": .optional(film.year), "genres": .array(film.genreNames.map(JSON.string)),
            "director": .string(film.director), "overview": .string(film.overview),
            "poster_path": .string(film.posterPath), "original_title": .string(film.originalTitle),
            "runtime": .int(film.runtime),
            "status": "want_to_watch", "my_rating": .null, "date_watched": .null, "recommender": .null,
        ]
    }
}
