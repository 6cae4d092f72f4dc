import FerryHashing
import Foundation
import GRDB

/// File bytes (recipe photos, audio tracks) kept in SQLite blobs, with size and SHA-256.
enum Blobs {
    /// What is known of a stored file without reading its bytes.
    struct Info: Sendable {
        var key: String
        var contentType: String
        var byteSize: Int
        var sha256: String
        var updatedAt: String
    }

    static func put(_ db: Database, key: String, contentType: String, data: Data, now: Date) throws -> Info {
        let info = Info(
            key: key,
            contentType: contentType,
            byteSize: data.count,
            sha256: SHA256Hasher.hex(data),
            updatedAt: Timestamp.string(now)
        )
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO blobs (key, content_type, byte_size, sha256, data, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [key, contentType, data.count, info.sha256, data, info.updatedAt]
        )
        return info
    }

    /// Stores bytes whose SHA-256 is already known (seeding).
    static func put(_ db: Database, key: String, contentType: String, data: Data, sha256: String, now: Date) throws {
        try db.execute(
            sql:
                "INSERT OR REPLACE INTO blobs (key, content_type, byte_size, sha256, data, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [key, contentType, data.count, sha256, data, Timestamp.string(now)]
        )
    }

    static func info(_ db: Database, key: String) throws -> Info? {
        try Row.fetchOne(
            db,
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
    static func bytes(_ db: Database, key: String, offset: Int, length: Int) throws -> Data? {
        try Data.fetchOne(
            db,
            sql: "SELECT substr(data, ?, ?) FROM blobs WHERE key = ?",
            arguments: [offset + 1, length, key]
        )
    }
}
