import Foundation
import GRDB

/// The SQL of the file cache's index; every statement is scoped to one owner.
enum TransferIndex {
    static func row(owner: String, key: String, in db: Database) throws -> TransferRow? {
        try TransferRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM kernel_transfers WHERE owner = ? AND key = ?"),
            arguments: [owner, key]
        )
    }

    static func all(owner: String, state: String, in db: Database) throws -> [TransferRow] {
        try TransferRow.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM kernel_transfers WHERE owner = ? AND state = ? ORDER BY accessed_at, key"
            ),
            arguments: [owner, state]
        )
    }

    /// Unpinned complete files, least recently used first; the first `limit` of them.
    static func evictable(owner: String, limit: Int = -1, in db: Database) throws -> [TransferRow] {
        try TransferRow.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT * FROM kernel_transfers WHERE owner = ? AND state = 'complete' AND pinned = 0 ORDER BY accessed_at, key LIMIT ?"
            ),
            arguments: [owner, limit]
        )
    }

    static func save(_ row: TransferRow, owner: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO kernel_transfers
                    (owner, key, path, url, state, bytes, sha256, etag, pinned, created_at, accessed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            owner, row.key, row.path, row.url, row.state, row.bytes, row.sha256, row.etag, row.pinned,
            row.createdAt.timeIntervalSince1970, row.accessedAt.timeIntervalSince1970,
        ])
    }

    static func touch(owner: String, key: String, at date: Date, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE kernel_transfers SET accessed_at = ? WHERE owner = ? AND key = ?")
            .execute(arguments: [date.timeIntervalSince1970, owner, key])
    }

    static func delete(owner: String, key: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM kernel_transfers WHERE owner = ? AND key = ?").execute(arguments: [
            owner, key,
        ])
    }

    /// What `owner` holds, without the file under `excluding` when given.
    static func usage(
        owner: String,
        excluding: String? = nil,
        in db: Database
    ) throws -> (files: Int, bytes: Int64, pinnedFiles: Int, pinnedBytes: Int64, partialBytes: Int64) {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT
                        COALESCE(SUM(state = 'complete'), 0) AS files,
                        COALESCE(SUM(CASE WHEN state = 'complete' THEN bytes END), 0) AS bytes,
                        COALESCE(SUM(state = 'complete' AND pinned = 1), 0) AS pinned_files,
                        COALESCE(SUM(CASE WHEN state = 'complete' AND pinned = 1 THEN bytes END), 0) AS pinned_bytes,
                        COALESCE(SUM(CASE WHEN state = 'partial' THEN bytes END), 0) AS partial_bytes
                    FROM kernel_transfers WHERE owner = ? AND key IS NOT ?
                    """
            ),
            arguments: [owner, excluding]
        )
        return (
            row?["files"] ?? 0, row?["bytes"] ?? 0, row?["pinned_files"] ?? 0, row?["pinned_bytes"] ?? 0,
            row?["partial_bytes"] ?? 0
        )
    }
}
