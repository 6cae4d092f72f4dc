import FerryHashing
import Foundation

/// File bytes (recipe photos, audio tracks) kept in the database (SQLite BLOB, PostgreSQL
/// BYTEA), with size and SHA-256.
enum Blobs {
    /// What is known of a stored file without reading its bytes.
    struct Info: Sendable {
        var key: String
        var contentType: String
        var byteSize: Int
        var sha256: String
        var updatedAt: String
    }

    static func put(_ db: any SQLSession, key: String, contentType: String, data: Data, now: Date) throws -> Info {
        let info = Info(
            key: key,
            contentType: contentType,
            byteSize: data.count,
            sha256: SHA256Hasher.hex(data),
            updatedAt: Timestamp.string(now)
        )
        try db.execute(
            sql: """
                \(upsert)
                """,
            arguments: [key, contentType, data.count, info.sha256, data, info.updatedAt]
        )
        return info
    }

    /// Stores bytes whose SHA-256 is already known (seeding).
    static func put(
        _ db: any SQLSession,
        key: String,
        contentType: String,
        data: Data,
        sha256: String,
        now: Date
    ) throws {
        try db.execute(
            sql: upsert,
            arguments: [key, contentType, data.count, sha256, data, Timestamp.string(now)]
        )
    }

    /// Stores a file's row, replacing one with the same key.
    private static let upsert = """
        INSERT INTO blobs (key, content_type, byte_size, sha256, data, updated_at) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET
            content_type = excluded.content_type, byte_size = excluded.byte_size, sha256 = excluded.sha256,
            data = excluded.data, updated_at = excluded.updated_at
        """

    static func info(_ db: any SQLSession, key: String) throws -> Info? {
        try db.fetchOne(
            sql: "SELECT key, content_type, byte_size, sha256, updated_at FROM blobs WHERE key = ?",
            arguments: [key]
        ).map { row in
            Info(
                key: row["key"],
                contentType: row["content_type"],
                byteSize: row["byte_size"],
                sha256: row["sha256"],
                updatedAt: row["updated_at"]
            )
        }
    }

    /// `length` bytes from `offset` (0-based), read with SQL `substr` so only that slice is loaded.
    static func bytes(_ db: any SQLSession, key: String, offset: Int, length: Int) throws -> Data? {
        try db.fetchValue(
            Data.self,
            sql: "SELECT substr(data, CAST(? AS INTEGER), CAST(? AS INTEGER)) FROM blobs WHERE key = ?",
            arguments: [offset + 1, length, key]
        )
    }
}
