import Foundation
import GRDB
import SyncKernel

/// Brings the cache up to date from `GET /v1/movies/changes`, through the kernel's feed
/// follower.
///
/// Normally incremental from the stored cursor. When the cache's layout changed
/// (`cacheLayout`), the kernel rebuilds instead: every page from the beginning, then one
/// transaction replaces the cache, forgets rows the server no longer has (except those
/// with pending writes), stores the cursor and the new layout. A rebuild that fails half
/// way changes nothing and is tried again next time; one that succeeds is never repeated.
/// A remote that no longer knows the cursor gets the same rebuild.
struct MoviesPull: Sendable {
    let context: PluginContext

    /// The layout of the cache this build writes. Bump it with a migration that changes
    /// what the cache holds: the next pull rebuilds the cache from the server.
    static let cacheLayout = "2"

    func run() async throws -> PullSummary {
        let clock = context.clock
        return try await context.follow("/v1/movies/changes", layout: Self.cacheLayout) { change, db in
            try Self.apply(change, now: clock.now(), in: db)
        } sweep: { live, db in
            let working = try Outbox.entitiesWithWork(plugin: MoviesPlugin.name, in: db)
            let gone = try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM movies_movies")).filter {
                !live.contains($0) && !working.contains($0)
            }
            for id in gone { try MovieRows.delete(id, in: db) }
            return gone.count
        }
    }

    /// Stores one change; the kernel puts a row's pending writes on top again.
    static func apply(_ change: FeedChange, now: Date, in db: Database) throws -> FeedOutcome {
        guard let entity = change.entity else {
            try MovieRows.delete(change.id, in: db)
            return .deleted
        }
        try MovieRows.store(try ServerMovie.decode(entity), json: entity, now: now, in: db)
        return .upserted
    }
}
