import Foundation
import GRDB
import SyncKernel

/// Brings the cache up to date from `GET /v1/movies/changes`, through the kernel's feed
/// follower.
///
/// Normally incremental from the stored cursor. When the cache's layout changed
/// (`MovieCacheVersion`), it rebuilds instead: every page from the beginning, then one
/// transaction replaces the cache, forgets rows the server no longer has (except those
/// with pending writes), stores the cursor and the new layout version. A rebuild that
/// fails half way changes nothing and is tried again next time; one that succeeds is never
/// repeated. A remote that no longer knows the cursor gets the same rebuild.
struct MoviesPull: Sendable {
    let context: PluginContext

    func run() async throws -> PullSummary {
        let rebuild = try await context.store.read { db in try MovieCacheVersion.needsRebuild(in: db) }
        let clock = context.clock
        let summary = try await context.follow("/v1/movies/changes", fromStart: rebuild) { change, db in
            try Self.apply(change, now: clock.now(), in: db)
        } sweep: { live, db in
            var removed = 0
            for id in try String.fetchAll(db, sql: "SELECT id FROM movies_movies") where !live.contains(id) {
                if try MovieRows.pendingOperations(entity: id, in: db).isEmpty {
                    try MovieRows.delete(id, in: db)
                    removed += 1
                }
            }
            try MovieCacheVersion.markRebuilt(in: db)
            return removed
        }
        if rebuild { context.logger.debug("movies: rebuilt the cache from the server (\(summary.upserted) movies)") }
        return summary
    }

    /// Applies one change; a row with pending writes keeps them on top of the remote state.
    static func apply(_ change: FeedChange, now: Date, in db: Database) throws -> FeedOutcome {
        guard let entity = change.entity else {
            try MovieRows.delete(change.id, in: db)
            return .deleted
        }
        let movie = try ServerMovie.decode(entity)
        try MovieRows.store(movie, json: entity, now: now, in: db)
        return change.pending.isEmpty ? .upserted : .rebased
    }
}
