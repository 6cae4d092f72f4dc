import GRDB

extension SQLiteEngine {
    /// The schema, as migrations with namespaced ids that are never renamed.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("server.v1.users") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY,
                        username TEXT NOT NULL UNIQUE,
                        display_name TEXT NOT NULL,
                        password_hash TEXT NOT NULL,
                        created_at TEXT NOT NULL
                    )
                    """
            )
        }
        migrator.registerMigration("server.v1.sessions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sessions (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at TEXT NOT NULL,
                        revoked INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE tokens (
                        token_hash TEXT PRIMARY KEY,
                        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        expires_at REAL NOT NULL,
                        used INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX tokens_by_session ON tokens(session_id);
                    """
            )
        }
        migrator.registerMigration("server.v1.idempotency") { db in
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_keys (
                        user_id TEXT NOT NULL,
                        key TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        status INTEGER NOT NULL,
                        headers TEXT NOT NULL,
                        body BLOB NOT NULL,
                        created_at TEXT NOT NULL,
                        PRIMARY KEY (user_id, key)
                    )
                    """
            )
        }
        migrator.registerMigration("server.v1.entities") { db in
            try db.execute(
                sql: """
                    CREATE TABLE entities (
                        collection TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        deleted INTEGER NOT NULL DEFAULT 0,
                        updated_at TEXT NOT NULL,
                        data TEXT NOT NULL,
                        PRIMARY KEY (collection, scope, id)
                    );
                    CREATE INDEX entities_changes ON entities(collection, scope, seq);
                    """
            )
        }
        migrator.registerMigration("server.v1.blobs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE blobs (
                        key TEXT PRIMARY KEY,
                        content_type TEXT NOT NULL,
                        byte_size INTEGER NOT NULL,
                        sha256 TEXT NOT NULL,
                        data BLOB NOT NULL,
                        updated_at TEXT NOT NULL
                    )
                    """
            )
        }
        migrator.registerMigration("server.v2.login_attempts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE login_attempts (
                        key TEXT PRIMARY KEY,
                        failures INTEGER NOT NULL,
                        window_start REAL NOT NULL
                    )
                    """
            )
        }
        migrator.registerMigration("server.v3.sequence_gaps") { db in
            try db.execute(sql: "CREATE TABLE sequence_gaps (low INTEGER NOT NULL, high INTEGER NOT NULL)")
            try db.execute(sql: "CREATE INDEX sequence_gaps_by_high ON sequence_gaps(high)")
        }
        return migrator
    }
}
