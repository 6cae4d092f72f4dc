import Foundation
import GRDB
import SyncKernel

/// Reads and writes of `movies_movies`, the full cache.
enum MovieRows {
    /// Stores the server's `movie` (and its JSON as received), then applies the still
    /// pending operations on it again, so that a refresh never undoes a local write.
    static func store(_ movie: ServerMovie, json: Data, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO movies_movies
                    (id, tmdb_id, imdb_id, title, original_title, year, genres, director, overview, poster_path,
                     runtime, status, my_rating, date_watched, recommender, version, created_at, updated_at, removed,
                     server_json, cached_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
                """
        ).execute(arguments: [
                movie.id, movie.tmdbId, movie.imdbId, movie.title, movie.originalTitle, movie.year,
                try encodeGenres(movie.genres ?? []), movie.director, movie.overview, movie.posterPath, movie.runtime,
                movie.status, movie.myRating, movie.dateWatched,
                movie.recommender, movie.version ?? 0, movie.createdAt, movie.updatedAt, json,
                now.timeIntervalSince1970,
            ])
    }

    /// Shows an unsent `update` or `remove` on its row again (the rebase).
    static func reapply(_ operation: QueuedOperation, in db: Database) throws {
        switch operation.kind {
        case "update": try apply(try MoviePatch(payload: operation.payload), to: operation.entity, in: db)
        case "remove": try markRemoved(operation.entity, in: db)
        default: break
        }
    }

    /// Applies `patch` to the row of `id`.
    static func apply(_ patch: MoviePatch, to id: String, in db: Database) throws {
        let (sql, values) = patch.assignments()
        guard !sql.isEmpty else { return }
        try db.execute(
            sql: "UPDATE movies_movies SET \(sql) WHERE id = ?",
            arguments: StatementArguments(values + [id])
        )
    }

    static func delete(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM movies_movies WHERE id = ?").execute(arguments: [id])
    }

    static func markRemoved(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE movies_movies SET removed = 1 WHERE id = ?").execute(arguments: [id])
    }

    /// The server's JSON of `id` as last received: the base of a conditional write.
    static func serverJSON(_ id: String, in db: Database) throws -> Data? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT server_json FROM movies_movies WHERE id = ?"),
            arguments: [id]
        )
    }

    /// Whether the row exists (removed or not).
    static func exists(_ id: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM movies_movies WHERE id = ?"), arguments: [id]) ?? false
    }

    /// The TMDB id of the cached movie `id` (removed or not), if it is cached.
    static func tmdbID(of id: String, in db: Database) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT tmdb_id FROM movies_movies WHERE id = ?"), arguments: [id])
    }

    /// The id of the cached movie with `tmdbID`, if any.
    static func id(tmdbID: Int, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM movies_movies WHERE tmdb_id = ? AND removed = 0"),
            arguments: [tmdbID]
        )
    }

    /// Cached movies (with local changes), removed ones included, optionally of one status.
    static func all(status: String? = nil, in db: Database) throws -> [Movie] {
        let pendingEntities = try Outbox.entitiesWithWork(plugin: MoviesPlugin.name, in: db)
        let failed = try Outbox.entitiesWithDeadLetters(plugin: MoviesPlugin.name, in: db)
        var sql = "SELECT * FROM movies_movies"
        var arguments: StatementArguments = []
        if let status {
            sql += " WHERE status = ?"
            arguments = [status]
        }
        // Two statements, with the status and without: each prepared once.
        return try Row.fetchAll(db.cachedStatement(sql: sql + " ORDER BY title COLLATE NOCASE, year, id"), arguments: arguments).map {
            row in
            try movie(row, pending: pendingEntities.contains(row["id"]), failed: failed.contains(row["id"]))
        }
    }

    /// One cached movie.
    static func movie(_ id: String, in db: Database) throws -> Movie? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM movies_movies WHERE id = ?"),
            arguments: [id]
        ) else {
            return nil
        }
        let operations = try Outbox.operations(plugin: MoviesPlugin.name, entity: id, in: db)
        return try movie(
            row,
            pending: operations.contains { $0.state != .dead },
            failed: operations.contains { $0.state == .dead }
        )
    }

    /// The server's JSON of every cached movie, by id (for a `--json` dump that rebuilds exactly).
    static func serverJSONs(in db: Database) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, server_json FROM movies_movies")) {
            result[row["id"]] = row["server_json"]
        }
        return result
    }

    private static func movie(_ row: Row, pending: Bool, failed: Bool) throws -> Movie {
        let removed: Bool = row["removed"]
        return Movie(
            id: row["id"],
            tmdbId: row["tmdb_id"],
            imdbId: row["imdb_id"],
            title: row["title"],
            originalTitle: row["original_title"],
            year: row["year"],
            genres: decodeGenres(row["genres"]),
            director: row["director"],
            overview: row["overview"],
            posterPath: row["poster_path"],
            runtime: row["runtime"],
            status: row["status"],
            myRating: row["my_rating"],
            dateWatched: row["date_watched"],
            recommender: row["recommender"],
            sync: failed ? .failed : removed ? .removing : (pending ? .changed : .synced)
        )
    }

    static func encodeGenres(_ genres: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(genres), as: UTF8.self)
    }

    static func decodeGenres(_ text: String?) -> [String] {
        guard let text else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}
