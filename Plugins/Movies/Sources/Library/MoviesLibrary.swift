import Foundation
import GRDB
import SyncKernel

/// The movie list as commands (and apps) use it: local reads that answer at once,
/// local writes queued in the same transaction as their operation, and refreshes.
///
/// ```swift
/// let library = try MoviesLibrary(runtime: runtime)
/// try await library.update("m_demo_heat", MovieChanges(status: "watched", rating: 8))
/// let pending = try await library.add(title: "Heat", year: 1995, recommender: "Sam")
/// ```
public struct MoviesLibrary: Sendable {
    /// The runtime the library works in.
    public let runtime: FerryRuntime
    let plugin: MoviesPlugin

    /// The library of the enabled movies plugin; throws when it is not enabled.
    public init(runtime: FerryRuntime) throws {
        self.runtime = runtime
        self.plugin = try runtime.plugin(MoviesPlugin.self)
    }

    var store: FerryStore { runtime.store }
    var name: String { MoviesPlugin.name }

    // MARK: Reads

    /// Every movie in the local list (server movies with local changes, and movies added
    /// offline), optionally of one status.
    public func movies(status: String? = nil) async throws -> [Movie] {
        try await store.read { db in
            let cached = try MovieRows.all(status: status, in: db)
            let pending = try PendingMovies.all(in: db).map(\.asMovie).filter { status == nil || $0.status == status }
            return cached + pending
        }
    }

    /// The list under `policy` (the configured one by default): `deliver` gets the cached
    /// answer at once and the refreshed one after; the last answer is returned.
    @discardableResult
    public func list(
        status: String? = nil,
        policy: CachePolicy? = nil,
        deliver: @Sendable (CachedRead<[Movie]>) async throws -> Void = { _ in }
    ) async throws -> CachedRead<[Movie]>? {
        try await CachedReader(runtime: runtime).read(
            policy ?? plugin.settings.cachePolicy,
            key: Self.listKey(status),
            cache: { try await cachedList(status: status) },
            refresh: { _ = try await refresh() },
            deliver: deliver
        )
    }

    /// The list as `list` gives it, then again each time it changes: after a change here,
    /// a `ferry movies` command in another process, or a pull by a running runner. An
    /// empty cache is an empty list here, watched until something arrives.
    public func watch(status: String? = nil, policy: CachePolicy? = nil) -> AsyncThrowingStream<CachedRead<[Movie]>, any Error> {
        CachedReader(runtime: runtime).watch(
            policy ?? plugin.settings.cachePolicy,
            key: Self.listKey(status) + ".watched",
            cache: {
                let movies = try await movies(status: status)
                return CacheSnapshot(value: movies, hasPendingWrites: movies.contains { $0.hasPendingWrites })
            },
            refresh: { _ = try await refresh() }
        )
    }

    private static func listKey(_ status: String?) -> String {
        "movies.list.\(status ?? "")"
    }

    /// The list as the cache holds it; nil when the cache was never filled.
    private func cachedList(status: String?) async throws -> CacheSnapshot<[Movie]>? {
        guard try await hasCache() else { return nil }
        let movies = try await movies(status: status)
        return CacheSnapshot(value: movies, hasPendingWrites: movies.contains { $0.hasPendingWrites })
    }

    /// One movie by its server id or local id (a local id that has since been matched is
    /// followed to its server id).
    public func movie(_ id: String) async throws -> Movie? {
        try await store.read { db in
            let resolved = try Self.current(id, in: db)
            return try MovieRows.movie(resolved, in: db) ?? PendingMovies.get(resolved, in: db)?.asMovie
        }
    }

    /// The server's JSON of a cached movie, as last received.
    public func serverJSON(_ id: String) async throws -> Data? {
        try await store.read { db in try MovieRows.serverJSON(try Self.current(id, in: db), in: db) }
    }

    /// Movies added offline that wait for their TMDB match.
    public func pending() async throws -> [PendingMovie] {
        try await store.read { db in try PendingMovies.all(in: db) }
    }

    /// Who recommended what, from the local list.
    public func people() async throws -> [Person] {
        Person.people(from: try await movies())
    }

    /// Whether the cache was ever filled from the server.
    public func hasCache() async throws -> Bool {
        try await store.read { db in
            try SyncCursors.hasPulled(plugin: MoviesPlugin.name, name: "default", in: db)
                || (try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM movies_movies")) ?? 0) > 0
                || !(try PendingMovies.all(in: db).isEmpty)
        }
    }

    /// Pulls the server's changes into the cache now.
    public func refresh() async throws -> PullSummary {
        try await runtime.pull(name)
    }

    // MARK: Writes

    /// Adds a movie by TMDB id. Online only by default: it reaches the server now, or fails
    /// with `requires_connection` and changes nothing (add by title works offline).
    public func add(tmdbID: Int, recommender: String?) async throws -> Movie? {
        guard tmdbID > 0 else {
            throw FerryError(
                .usage,
                "--tmdb \(tmdbID) is not a TMDB id; give the positive number from the movie's TMDB page"
            )
        }
        let recommender = try Self.checkedRecommender(recommender)
        if let existing = try await store.read({ db in try MovieRows.id(tmdbID: tmdbID, in: db) }) {
            throw FerryError(
                .conflict,
                "TMDB \(tmdbID) is already in the list as \(existing); change it with `ferry movies update \(existing)`"
            )
        }
        let payload = MoviesPlugin.AddPayload(tmdbId: tmdbID, title: nil, year: nil, recommender: recommender)
        let operation = try NewOperation(plugin: name, kind: "add", entity: "tmdb-\(tmdbID)", payload: payload)
        _ = try await runtime.submit(operation)
        return try await store.read { db in
            try MovieRows.id(tmdbID: tmdbID, in: db).flatMap { try MovieRows.movie($0, in: db) }
        }
    }

    /// Adds a movie by title, at once and offline: a pending movie with a local id, matched
    /// on TMDB and added to the server when the runner is online.
    public func add(title: String, year: Int?, recommender: String?) async throws -> PendingMovie {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 300 else {
            throw FerryError(.usage, "--title must be 1 to 300 characters")
        }
        if let year, !(1870...2100).contains(year) {
            throw FerryError(.usage, "--year \(year) is not a release year; give four digits such as 1995")
        }
        let recommender = try Self.checkedRecommender(recommender)
        let pending = PendingMovie(
            id: PendingMovies.prefix + UUID().lowercasedString.prefix(12),
            title: trimmed,
            year: year,
            recommender: recommender,
            tmdbId: nil,
            status: "want_to_watch",
            myRating: nil,
            dateWatched: nil,
            state: .waiting,
            reason: nil,
            candidates: [],
            createdAt: runtime.clock.now()
        )
        let payload = MoviesPlugin.AddPayload(tmdbId: nil, title: trimmed, year: year, recommender: recommender)
        let operation = try NewOperation(plugin: name, kind: "add_title", entity: pending.id, payload: payload)
        try await runtime.commit { db, queue in
            try PendingMovies.insert(pending, in: db)
            queue.enqueue(operation)
        }
        return pending
    }

    /// Changes a movie now and queues the change; repeated changes coalesce into one patch.
    @discardableResult
    public func update(_ id: String, _ changes: MovieChanges) async throws -> EnqueueResult {
        let patch = try changes.patch()
        if patch.changes["status"] == .clear { throw FerryError(.usage, "status cannot be cleared") }
        let target = try await existing(id)
        let base = try await store.read { db in try MovieRows.serverJSON(target, in: db) }
        let operation = NewOperation(
            plugin: name,
            kind: "update",
            entity: target,
            payloadJSON: try patch.payload(),
            base: base
        )
        return try await runtime.commit { db, queue in
            if PendingMovies.isLocal(target) {
                try PendingMovies.apply(patch, to: target, in: db)
            } else {
                try MovieRows.apply(patch, to: target, in: db)
            }
            queue.enqueue(operation)
        }.results.first ?? .cancelled
    }

    /// Removes a movie now and queues the removal. A movie added offline and not yet on
    /// the server is simply forgotten, with its queued operations, unless its add was sent
    /// already (its answer never recorded): then the removal follows the add.
    public func remove(_ id: String) async throws {
        let target = try await existing(id)
        let base = try await store.read { db in try MovieRows.serverJSON(target, in: db) }
        let operation = NewOperation(
            plugin: name,
            kind: "remove",
            entity: target,
            payloadJSON: Data("{}".utf8),
            base: base
        )
        if PendingMovies.isLocal(target) {
            try await runtime.commit { db, queue in
                try PendingMovies.delete(target, in: db)
                queue.forget(plugin: MoviesPlugin.name, entity: target, orRemoveWith: operation)
            }
            return
        }
        try await runtime.commit { db, queue in
            try MovieRows.markRemoved(target, in: db)
            queue.enqueue(operation)
        }
    }

    /// Settles a pending movie by hand: it will be added as TMDB `tmdbID` on the next sync.
    public func resolve(_ id: String, tmdbID: Int) async throws -> PendingMovie {
        guard tmdbID > 0 else { throw FerryError(.usage, "--tmdb \(tmdbID) is not a TMDB id") }
        guard PendingMovies.isLocal(id), let pending = try await store.read({ db in try PendingMovies.get(id, in: db) })
        else {
            throw FerryError(.notFound, "no pending movie \(id); `ferry movies pending` lists them")
        }
        let operation = try await store.write { db -> QueuedOperation? in
            try PendingMovies.choose(tmdbID, for: id, in: db)
            return try Outbox.operations(plugin: MoviesPlugin.name, entity: id, in: db).first { $0.kind == "add_title" }
        }
        if let operation {
            try await runtime.retry(operation)
        } else {
            let payload = MoviesPlugin.AddPayload(
                tmdbId: tmdbID,
                title: pending.title,
                year: pending.year,
                recommender: pending.recommender
            )
            let operation = try NewOperation(plugin: name, kind: "add_title", entity: id, payload: payload)
            try await runtime.commit { _, queue in queue.enqueue(operation) }
        }
        return try await store.read { db in try PendingMovies.get(id, in: db) } ?? pending
    }

    // MARK: Helpers

    /// The id a change goes to: a matched local id is followed to its server id.
    private func existing(_ id: String) async throws -> String {
        let resolved = try await store.read { db -> String? in
            let current = try Self.current(id, in: db)
            if PendingMovies.isLocal(current) { return try PendingMovies.get(current, in: db) == nil ? nil : current }
            return try MovieRows.exists(current, in: db) ? current : nil
        }
        guard let resolved else {
            throw FerryError(.notFound, "no movie \(id) in the local list; `ferry movies list` shows the ids")
        }
        return resolved
    }

    static func current(_ id: String, in db: Database) throws -> String {
        guard PendingMovies.isLocal(id) else { return id }
        return try IDMappings.remoteID(plugin: MoviesPlugin.name, localID: id, in: db) ?? id
    }

    static func checkedRecommender(_ name: String?) throws -> String? {
        guard let name else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100 else {
            throw FerryError(.usage, "--recommender must be a name of 1 to 100 characters")
        }
        return trimmed
    }
}
