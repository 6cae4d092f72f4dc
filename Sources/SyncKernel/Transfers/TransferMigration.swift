import GRDB

/// The schema of the file cache's index, `kernel_transfers`.
///
/// The statements are idempotent (`IF NOT EXISTS`), so the kernel can register
/// `TransferMigration.kernel` in `KernelMigrations` while a plugin that shipped earlier
/// still registers its own copy under its own id (`movies.v1.transfers`): whichever
/// runs first creates the table, the other finds it there.
public enum TransferMigration {
    /// The kernel's step, `kernel.v1.transfers`.
    public static let kernel = migration(id: "kernel.v1.transfers")

    /// The same schema under another id, for a plugin to register in its own migrations
    /// until the kernel registers `kernel`.
    public static func migration(id: String) -> StoreMigration {
        StoreMigration(id) { db in try create(in: db) }
    }

    /// Creates the table and its index when they do not exist.
    public static func create(in db: Database) throws {
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
