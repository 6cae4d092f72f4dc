extension PostgresEngine {
    /// The schema, as the SQLite engine's migrations (same ids, never renamed) in
    /// PostgreSQL's types: BIGINT for integers and flags, DOUBLE PRECISION for seconds,
    /// BYTEA for bytes. Each runs once, in a transaction, recorded in `ferry_migrations`.
    static let migrations: [(id: String, statements: [String])] = [
        (
            "server.v1.users",
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    username TEXT NOT NULL UNIQUE,
                    display_name TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    created_at TEXT NOT NULL
                )
                """
            ]
        ),
        (
            "server.v1.sessions",
            [
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at TEXT NOT NULL,
                    revoked BIGINT NOT NULL DEFAULT 0
                )
                """,
                """
                CREATE TABLE tokens (
                    token_hash TEXT PRIMARY KEY,
                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    used BIGINT NOT NULL DEFAULT 0
                )
                """,
                "CREATE INDEX tokens_by_session ON tokens(session_id)",
            ]
        ),
        (
            "server.v1.idempotency",
            [
                """
                CREATE TABLE idempotency_keys (
                    user_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    status BIGINT NOT NULL,
                    headers TEXT NOT NULL,
                    body BYTEA NOT NULL,
                    created_at TEXT NOT NULL,
                    PRIMARY KEY (user_id, key)
                )
                """
            ]
        ),
        (
            "server.v1.entities",
            [
                """
                CREATE TABLE entities (
                    collection TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    id TEXT NOT NULL,
                    version BIGINT NOT NULL,
                    seq BIGINT NOT NULL UNIQUE,
                    deleted BIGINT NOT NULL DEFAULT 0,
                    updated_at TEXT NOT NULL,
                    data TEXT NOT NULL,
                    PRIMARY KEY (collection, scope, id)
                )
                """,
                "CREATE INDEX entities_changes ON entities(collection, scope, seq)",
            ]
        ),
        (
            "server.v1.blobs",
            [
                """
                CREATE TABLE blobs (
                    key TEXT PRIMARY KEY,
                    content_type TEXT NOT NULL,
                    byte_size BIGINT NOT NULL,
                    sha256 TEXT NOT NULL,
                    data BYTEA NOT NULL,
                    updated_at TEXT NOT NULL
                )
                """,
                // Uncompressed out of line, so that a range read (`substr`) fetches only its slice.
                "ALTER TABLE blobs ALTER COLUMN data SET STORAGE EXTERNAL",
            ]
        ),
        (
            "server.v2.login_attempts",
            [
                """
                CREATE TABLE login_attempts (
                    key TEXT PRIMARY KEY,
                    failures BIGINT NOT NULL,
                    window_start DOUBLE PRECISION NOT NULL
                )
                """
            ]
        ),
        (
            "server.v3.sequence_gaps",
            [
                "CREATE TABLE sequence_gaps (low BIGINT NOT NULL, high BIGINT NOT NULL)",
                "CREATE INDEX sequence_gaps_by_high ON sequence_gaps(high)",
            ]
        ),
    ]
}
