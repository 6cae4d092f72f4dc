import GRDB

/// The schema of the file cache's index, `kernel_transfers`, one of the kernel's steps.
enum TransferMigration {
    static let kernel = StoreMigration("kernel.v1.transfers") { db in try create(in: db) }

    /// Creates the table and its index.
    static func create(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS kernel_transfers (
                    owner TEXT NOT NULL,
                    key TEXT NOT NULL,
                    path TEXT NOT NULL,
                    url TEXT NOT NULL,
                    state TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    sha256 TEXT,
                    etag TEXT,
                    pinned INTEGER NOT NULL DEFAULT 0,
                    created_at REAL NOT NULL,
                    accessed_at REAL NOT NULL,
                    PRIMARY KEY (owner, key)
                );
                CREATE INDEX IF NOT EXISTS kernel_transfers_lru
                    ON kernel_transfers(owner, state, pinned, accessed_at);
                """
        )
    }
}
