import Foundation
import GRDB
import SyncKernel

/// Brings the cache up to date from `GET /v1/movies/changes`.
///
/// Normally incremental from the stored cursor. When the cache's layout changed
/// (`MovieCacheVersion`), it rebuilds instead: every page from the beginning is fetched
/// first, then one transaction replaces the cache, forgets rows the server no longer has
/// (except those with pending writes), stores the cursor and the new layout version. A
/// rebuild that fails half way changes nothing and is tried again next time; one that
/// succeeds is never repeated.
struct MoviesPull: Sendable {
    let context: PullContext

    /// One entry of a changes page; `entity` keeps the server's JSON as sent (keys sorted).
    struct Change: Sendable {
        var type: String
        var id: String
        var entity: Data?
    }

    /// One page of the feed.
    struct Page: Sendable {
        var changes: [Change]
        var cursor: String
        var hasMore: Bool

        /// Reads a page; anything malformed is an unreadable answer (rejected), never a crash.
        init(_ body: Data) throws {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let cursor = object["cursor"] as? String, let changes = object["changes"] as? [[String: Any]]
            else {
                throw FerryError(.rejected, "the server's movies changes feed could not be read")
            }
            self.cursor = cursor
            self.hasMore = object["has_more"] as? Bool ?? false
            self.changes = try changes.map { change in
                guard let type = change["type"] as? String, let id = change["id"] as? String else {
                    throw FerryError(.rejected, "the server's movies changes feed has an entry without type or id")
                }
                let entity = try (change["entity"] as? [String: Any]).map {
                    try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])
                }
                return Change(type: type, id: id, entity: entity)
            }
        }
    }

    func run() async throws -> PullSummary {
        let rebuild = try await context.store.read { db in try MovieCacheVersion.needsRebuild(in: db) }
        return rebuild ? try await rebuildCache() : try await incremental()
    }

    private func incremental() async throws -> PullSummary {
        var summary = PullSummary()
        var cursor = try await context.cursor()
        while true {
            let page = try await fetch(since: cursor)
            let now = context.clock.now()
            let context = self.context
            summary =
                summary
                + (try await context.store.write { db in
                    let applied = try Self.apply(page.changes, now: now, in: db)
                    try context.saveCursor(page.cursor, in: db)
                    return applied
                })
            guard page.hasMore, page.cursor != cursor else { break }
            cursor = page.cursor
        }
        return summary
    }

    private func rebuildCache() async throws -> PullSummary {
        var changes: [Change] = []
        var cursor: String?
        while true {
            let page = try await fetch(since: cursor)
            changes += page.changes
            let done = !page.hasMore || page.cursor == cursor
            cursor = page.cursor
            if done { break }
        }
        let now = context.clock.now()
        let context = self.context
        let last = cursor
        let summary = try await context.store.write { [changes] db -> PullSummary in
            var summary = try Self.apply(changes, now: now, in: db)
            let kept = Set(changes.filter { $0.type == "upsert" }.map(\.id))
            for id in try String.fetchAll(db, sql: "SELECT id FROM movies_movies") where !kept.contains(id) {
                if try MovieRows.pendingOperations(entity: id, in: db).isEmpty {
                    try MovieRows.delete(id, in: db)
                    summary.deleted += 1
                }
            }
            if let last { try context.saveCursor(last, in: db) }
            try MovieCacheVersion.markRebuilt(in: db)
            return summary
        }
        context.logger.debug("movies: rebuilt the cache from the server (\(summary.upserted) movies)")
        return summary
    }

    private func fetch(since cursor: String?) async throws -> Page {
        var query = [("limit", "500")]
        if let cursor { query.append(("since", cursor)) }
        let response = try await context.transport.send(HTTPRequest("GET", "/v1/movies/changes", query: query))
        return try Page(response.body)
    }

    /// Applies a page of changes; rows with pending writes are rebased, never overwritten.
    static func apply(_ changes: [Change], now: Date, in db: Database) throws -> PullSummary {
        var summary = PullSummary()
        for change in changes {
            switch change.type {
            case "upsert":
                guard let entity = change.entity else { continue }
                let movie = try ServerMovie.decode(entity)
                try MovieRows.store(movie, json: entity, now: now, in: db)
                if try !MovieRows.pendingOperations(entity: movie.id, in: db).isEmpty { summary.rebased += 1 }
                summary.upserted += 1
            case "delete":
                if try MovieRows.pendingOperations(entity: change.id, in: db).contains(where: { $0.kind == "update" }) {
                    summary.rebased += 1
                }
                try MovieRows.delete(change.id, in: db)
                summary.deleted += 1
            default:
                continue
            }
        }
        return summary
    }
}
