import Foundation
import GRDB
import SyncKernel

/// The movie list: local-first reads from a full cache, queued changes, movies added
/// offline by title and matched on TMDB when online, and a poster cache.
///
/// Operations: `update` (a merge patch; repeated updates coalesce), `remove` (drops an
/// unsent update), `add` (by TMDB id, online only by default) and `add_title` (a movie
/// added by title with a local id; matched on TMDB, then added to the server, and queued
/// changes made to it meanwhile follow it to its server id).
public struct MoviesPlugin: SyncPlugin {
    /// The `movies:` section of `config.yaml`.
    public typealias Settings = MoviesSettings

    /// The plugin's key in `config.yaml` and the prefix of its tables.
    public static let name = "movies"
    /// One line for help and status.
    public static let summary = "Your movie list, matched on TMDB, with a poster cache"
    /// The operation kinds and their default policies (see docs/plugins/movies.md).
    public static let operations: [String: OperationPolicy] = [
        "update": OperationPolicy(coalesce: .init(mode: .merge)),
        "remove": OperationPolicy(coalesce: .init(supersedes: ["update"])),
        "add": OperationPolicy(delivery: .onlineOnly),
        "add_title": OperationPolicy(),
    ]
    /// The plugin's tables.
    public static let migrations = MoviesSchema.migrations

    /// The plugin's settings from `config.yaml`.
    public let settings: MoviesSettings
    let context: PluginContext
    let tmdb: TMDBClient

    /// Builds the plugin and its TMDB client from its settings.
    public init(settings: MoviesSettings, context: PluginContext) throws {
        self.settings = settings
        self.context = context
        self.tmdb = TMDBClient(
            settings: settings.tmdb,
            transport: context.transport
        )
    }

    /// Sends one queued or online-only operation.
    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        switch operation.kind {
        case "update": try await sendUpdate(operation, context: context)
        case "remove": try await sendRemove(operation, context: context)
        case "add": try await sendAdd(operation, context: context)
        case "add_title": try await sendAddTitle(operation, context: context)
        default: throw FerryError(.plugin, "movies has no operation \(operation.kind)")
        }
    }

    /// Brings the cache up to date (rebuilding it once after a layout change).
    public func pull(_ context: PluginContext) async throws -> PullSummary {
        try await MoviesPull(context: context).run()
    }

    /// After the runner's pull, the posters not cached yet: a few at a time, on an
    /// unmetered link only, never making room by evicting others (`PosterCache.prefetch`).
    public func afterPull(_ context: PluginContext) async {
        guard await context.connectivity?.current().satisfies(.unmetered) ?? false,
            let movies = try? await context.store.read({ db in try MovieRows.all(in: db) })
        else { return }
        await posters(context).prefetch(movies.filter { $0.sync != .removing }, logger: context.logger)
    }

    /// The poster cache of this plugin, over `context`.
    func posters(_ context: PluginContext) -> PosterCache {
        PosterCache(
            settings: settings,
            folder: context.directory.appendingPathComponent("posters"),
            store: context.store,
            clock: context.clock,
            events: context.events,
            connectivity: context.connectivity,
            transport: context.transport
        )
    }

    /// Forgets the pending row of a movie the server now has (the kernel then applies its
    /// queued changes again).
    public func remap(localID: String, to remoteID: String, in db: Database) throws {
        try PendingMovies.delete(localID, in: db)
    }

    /// A discarded add of a movie added offline takes the pending movie with it: it never
    /// reached the server, and nothing else would ever remove it.
    public func discarded(_ operation: QueuedOperation, in db: Database) throws -> Bool {
        guard operation.kind == "add_title", PendingMovies.isLocal(operation.entity) else { return false }
        try PendingMovies.delete(operation.entity, in: db)
        return true
    }

    /// Shows a queued update or removal on top of the server's movie again.
    public func reapply(_ operation: QueuedOperation, in db: Database) throws {
        try MovieRows.reapply(operation, in: db)
    }

    /// An update sets the movie's own fields, so its conflicts are merged field by field:
    /// a status changed here and a rating changed elsewhere both stand.
    public func fieldChanges(_ operation: QueuedOperation) throws -> Data? {
        operation.kind == "update" ? try MoviePatch(payload: operation.payload).requestBody() : nil
    }

    /// Another account signed in: its list is fetched again. Movies the previous account
    /// added offline stay, hidden while their adds wait for that account
    /// (`PendingMovies.shown`), so that they are there again when it signs in.
    public func forgetAccountData(in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM movies_movies").execute()
    }

    /// Stores the server's movie after a conflict the server won.
    public func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {
        guard let remote = conflict.remote, let movie = try? ServerMovie.decode(remote) else {
            if conflict.remote == nil || conflict.remoteDeleted {
                try MovieRows.delete(conflict.entity, in: db)
            }
            return
        }
        try MovieRows.store(movie, json: remote, now: context.clock.now(), in: db)
    }
}
