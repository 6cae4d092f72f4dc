import Foundation
import GRDB

/// One row of `kernel_transfers`: a complete file, or a partial one waiting to resume.
struct TransferRow: Sendable, FetchableRecord {
    var key: String
    var path: String
    var url: String
    var state: String
    var bytes: Int64
    var sha256: String?
    var etag: String?
    var pinned: Bool
    var createdAt: Date
    var accessedAt: Date

    init(row: Row) {
        key = row["key"]
        path = row["path"]
        url = row["url"]
        state = row["state"]
        bytes = row["bytes"]
        sha256 = row["sha256"]
        etag = row["etag"]
        pinned = row["pinned"]
        createdAt = Date(timeIntervalSince1970: row["created_at"])
        accessedAt = Date(timeIntervalSince1970: row["accessed_at"])
    }

    init(
        key: String,
        path: String,
        url: String,
        state: String,
        bytes: Int64,
        sha256: String?,
        etag: String?,
        pinned: Bool,
        createdAt: Date,
        accessedAt: Date
    ) {
        self.key = key
        self.path = path
        self.url = url
        self.state = state
        self.bytes = bytes
        self.sha256 = sha256
        self.etag = etag
        self.pinned = pinned
        self.createdAt = createdAt
        self.accessedAt = accessedAt
    }

    static let complete = "complete"
    static let partial = "partial"
}
