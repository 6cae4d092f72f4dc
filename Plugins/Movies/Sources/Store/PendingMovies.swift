import Foundation
import GRDB
import SyncKernel

/// Reads and writes of `movies_pending`.
enum PendingMovies {
    /// The prefix of local ids.
    static let prefix = "local-"

    static func isLocal(_ id: String) -> Bool { id.hasPrefix(prefix) }

    static func insert(_ movie: PendingMovie, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO movies_pending
                    (id, title, year, recommender, tmdb_id, status, my_rating, date_watched, state, reason, candidates, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
                movie.id, movie.title, movie.year, movie.recommender, movie.tmdbId, movie.status, movie.myRating,
                movie.dateWatched, movie.state.rawValue, movie.reason, try encode(movie.candidates),
                movie.createdAt.timeIntervalSince1970,
            ])
    }

    static func get(_ id: String, in db: Database) throws -> PendingMovie? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM movies_pending WHERE id = ?"),
            arguments: [id]
        ).map(pending)
            .flatMap { try shown($0, in: db) }
    }

    /// Every pending movie of the signed-in account, each as `shown` says.
    static func all(in db: Database) throws -> [PendingMovie] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM movies_pending ORDER BY created_at, id")).map(pending)
            .compactMap { try shown($0, in: db) }
    }

    /// `movie` as the signed-in account sees it: nil when its add was queued by another
    /// account (it stays, hidden, until that account signs in again and sends it); with
    /// why its add has not gone yet (a refused TMDB token, no answer), or, when the add is
    /// a dead letter (other than for a choice), `failed` with the reason.
    private static func shown(_ movie: PendingMovie, in db: Database) throws -> PendingMovie? {
        guard let operation = try Outbox.operations(plugin: MoviesPlugin.name, entity: movie.id, in: db).first else {
            return nil
        }
        guard movie.state == .waiting else { return movie }
        var shown = movie
        if operation.state == .dead { shown.state = .failed }
        shown.reason = operation.lastError
        return shown
    }

    static func delete(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM movies_pending WHERE id = ?").execute(arguments: [id])
    }

    /// Applies a queued change to a pending movie.
    static func apply(_ patch: MoviePatch, to id: String, in db: Database) throws {
        let (sql, values) = patch.assignments()
        guard !sql.isEmpty else { return }
        try db.execute(
            sql: "UPDATE movies_pending SET \(sql) WHERE id = ?",
            arguments: StatementArguments(values + [id])
        )
    }

    /// Records that matching found no single best candidate.
    static func needsChoice(_ id: String, reason: String, candidates: [PendingMovie.Candidate], in db: Database) throws
    {
        try db.cachedStatement(
            sql: "UPDATE movies_pending SET state = 'needs_choice', reason = ?, candidates = ? WHERE id = ?"
        ).execute(arguments: [reason, try encode(candidates), id])
    }

    /// Records a choice made by hand; the movie waits to be added.
    static func choose(_ tmdbID: Int, for id: String, in db: Database) throws {
        try db.cachedStatement(
            sql: "UPDATE movies_pending SET tmdb_id = ?, state = 'waiting', reason = NULL WHERE id = ?"
        ).execute(arguments: [tmdbID, id])
    }

    private static func pending(_ row: Row) -> PendingMovie {
        PendingMovie(
            id: row["id"],
            title: row["title"],
            year: row["year"],
            recommender: row["recommender"],
            tmdbId: row["tmdb_id"],
            status: row["status"],
            myRating: row["my_rating"],
            dateWatched: row["date_watched"],
            state: PendingMovie.State(rawValue: row["state"]) ?? .waiting,
            reason: row["reason"],
            candidates: (try? JSONDecoder().decode(
                [PendingMovie.Candidate].self,
                from: Data((row["candidates"] as String).utf8)
            )) ?? [],
            createdAt: Date(timeIntervalSince1970: row["created_at"])
        )
    }

    private static func encode(_ candidates: [PendingMovie.Candidate]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(candidates), as: UTF8.self)
    }
}
