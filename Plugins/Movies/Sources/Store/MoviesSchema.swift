import GRDB
import SyncKernel

/// The movies plugin's tables. Ids are never renamed; new steps are appended.
///
/// A step that changes what the cache holds also bumps `MoviesPull.cacheLayout`, so that
/// the next pull rebuilds the cache from the server once.
enum MoviesSchema {
    static let migrations: [StoreMigration] = [movies, pending, details]

    /// The full cache: every field of each movie, plus the server's JSON as received.
    static let movies = StoreMigration("movies.v1.movies") { db in
        try db.execute(
            sql: """
                CREATE TABLE movies_movies (
                    id TEXT PRIMARY KEY,
                    tmdb_id INTEGER,
                    imdb_id TEXT,
                    title TEXT NOT NULL,
                    year INTEGER,
                    genres TEXT NOT NULL DEFAULT '[]',
                    director TEXT,
                    overview TEXT,
                    poster_path TEXT,
                    status TEXT NOT NULL,
                    my_rating INTEGER,
                    date_watched TEXT,
                    recommender TEXT,
                    version INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT,
                    updated_at TEXT,
                    removed INTEGER NOT NULL DEFAULT 0,
                    server_json BLOB NOT NULL,
                    cached_at REAL NOT NULL
                );
                CREATE INDEX movies_movies_status ON movies_movies(status);
                CREATE INDEX movies_movies_tmdb ON movies_movies(tmdb_id);
                """
        )
    }

    /// Movies added offline by title, waiting to be matched on TMDB and added to the server.
    static let pending = StoreMigration("movies.v1.pending") { db in
        try db.execute(
            sql: """
                CREATE TABLE movies_pending (
                    id TEXT PRIMARY KEY,
                    title TEXT NOT NULL,
                    year INTEGER,
                    recommender TEXT,
                    tmdb_id INTEGER,
                    status TEXT NOT NULL DEFAULT 'want_to_watch',
                    my_rating INTEGER,
                    date_watched TEXT,
                    state TEXT NOT NULL,
                    reason TEXT,
                    candidates TEXT NOT NULL DEFAULT '[]',
                    created_at REAL NOT NULL
                );
                """
        )
    }

    /// The original title and the running time, as the client now fetches them from TMDB.
    static let details = StoreMigration("movies.v2.details") { db in
        try db.execute(
            sql: """
                ALTER TABLE movies_movies ADD COLUMN original_title TEXT;
                ALTER TABLE movies_movies ADD COLUMN runtime INTEGER;
                """
        )
    }
}
