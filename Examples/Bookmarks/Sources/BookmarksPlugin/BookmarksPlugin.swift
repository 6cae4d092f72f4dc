import Foundation
import GRDB
import SyncKernel

/// Bookmarks: added and removed at once, synced with the server's documents API
/// (`/v1/domains/bookmarks/...`), so the server needs no routes of its own for them.
public struct BookmarksPlugin: SyncPlugin {
    public static let name = "bookmarks"
    public static let summary = "Bookmarks kept here and on the server."
    public static let operations: [String: OperationPolicy] = [
        "put": OperationPolicy(coalesce: .init(mode: .replace)),
        "delete": OperationPolicy(coalesce: .init(supersedes: ["put"])),
    ]
    public static let migrations = [
        StoreMigration("bookmarks.v1.bookmarks") { db in
            try db.execute(sql: "CREATE TABLE bookmarks_bookmarks (id TEXT PRIMARY KEY, url TEXT NOT NULL, title TEXT NOT NULL)")
        }
    ]

    public init(settings: EmptySettings, context: PluginContext) {}

    /// The local write: stores the bookmark and queues its upload, in one transaction.
    /// The id comes from the URL, so the same page bookmarked twice is one bookmark.
    @discardableResult
    public static func add(_ bookmark: Bookmark, in runtime: FerryRuntime) async throws -> Bookmark {
        try await runtime.commit { db, queue in
            try bookmark.save(in: db)
            queue.enqueue(try NewOperation(plugin: name, kind: "put", entity: bookmark.id, payload: bookmark))
            return bookmark
        }.value
    }

    /// Removes a bookmark here at once and queues its removal on the server.
    public static func remove(_ id: String, in runtime: FerryRuntime) async throws {
        _ = try await runtime.commit { db, queue in
            try Bookmark.delete(id, in: db)
            guard db.changesCount > 0 else {
                throw FerryError(.notFound, "no bookmark \(id); `ferry bookmarks list` shows them")
            }
            queue.enqueue(try NewOperation(plugin: name, kind: "delete", entity: id, payload: [String: String]()))
        }
    }

    /// The send: one request to the documents API; a removal of a bookmark the server no
    /// longer has is already done.
    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let path = "/v1/domains/bookmarks/documents/\(operation.entity)"
        guard operation.kind == "delete" else {
            _ = try await context.transport.send(
                HTTPRequest("PUT", path, headers: [("Content-Type", "application/json")], body: operation.payload)
            )
            return .delivered
        }
        do {
            _ = try await context.transport.send(HTTPRequest("DELETE", path))
        } catch let failure as RemoteFailure where failure.status == 404 {
            return .deleted(alreadyGone: "\(operation.entity) was already gone from the server")
        }
        return .deleted()
    }

    /// The pull: the kernel follows the domain's changes feed, page by page, with its cursor.
    public func pull(_ context: PluginContext) async throws -> PullSummary {
        try await context.follow("/v1/domains/bookmarks/changes") { change, db in
            if change.isDeletion {
                try Bookmark.delete(change.id, in: db)
                return .deleted
            }
            try change.decode(Bookmark.self).save(in: db)
            return .upserted
        }
    }

    /// The rebase: an unsent write shows again on top of what the server sent.
    public func reapply(_ operation: QueuedOperation, in db: Database) throws {
        if operation.kind == "delete" { return try Bookmark.delete(operation.entity, in: db) }
        try operation.decodePayload(Bookmark.self).save(in: db)
    }
}
