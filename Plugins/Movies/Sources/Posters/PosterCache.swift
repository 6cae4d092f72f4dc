import Foundation
import Logging
import SyncKernel

/// Movie posters on the kernel's file cache: downloaded once from the TMDB image base,
/// served locally after that, kept `max_age` after download, at most `max_size` in all,
/// least recently used evicted first.
///
/// Files live in `<data_dir>/movies/posters/<size>/<file>`; the file name comes from the
/// server's `poster_path` and is resolved under that folder, never trusted as a path.
public struct PosterCache: Sendable {
    /// The file cache underneath (owner `movies.posters`).
    public let files: FileCache
    let settings: MoviesSettings
    let transport: HTTPTransport

    /// A poster cache under `folder`.
    public init(
        settings: MoviesSettings,
        folder: URL,
        store: FerryStore,
        clock: any KernelClock,
        events: EventBus?,
        connectivity: (any ConnectivityMonitor)?,
        transport: HTTPTransport
    ) {
        self.settings = settings
        self.transport = transport
        self.files = FileCache(
            owner: "movies.posters",
            root: folder,
            store: store,
            budget: TransferBudget(maxBytes: settings.posters.maxSize.bytes, maxAge: settings.posters.maxAge.value),
            clock: clock,
            events: events,
            connectivity: connectivity,
            transport: transport
        )
    }

    /// The cache key of a poster path at the configured size (`w342/ferry-poster-949.png`).
    public func key(for posterPath: String) -> String {
        settings.posters.size + "/" + posterPath.drop { $0 == "/" }
    }

    /// Caches the posters of `movies` that are not cached yet, at most `limit` of them, as
    /// the configured network allows: it stops at the first one the network does not allow
    /// (offline, or metered when posters need `unmetered`); a poster that fails is logged
    /// and skipped. Returns how many were downloaded.
    @discardableResult
    public func prefetch(_ movies: [Movie], limit: Int = 100, logger: Logger) async throws -> Int {
        try await files.expire()
        var downloaded = 0
        for movie in movies where downloaded < limit {
            guard let path = movie.posterPath, !path.isEmpty, try await files.cachedFile(key(for: path), use: false) == nil
            else { continue }
            do {
                if try await fetch(movie)?.downloaded == true { downloaded += 1 }
            } catch let error as FerryError where error.code == .requiresConnection {
                break
            } catch {
                if case .offline = FailureClass.classify(error, now: Date()) { break }
                logger.warning("movies: the poster of \(movie.id) could not be cached: \(error)")
            }
        }
        return downloaded
    }

    /// The poster of `movie` from the cache, or nil when it is not there.
    public func cached(_ movie: Movie) async throws -> CachedFile? {
        guard let path = movie.posterPath, !path.isEmpty else { return nil }
        return try await files.cachedFile(key(for: path))
    }

    /// The poster of `movie`: from the cache, else downloaded (needs the configured network).
    public func fetch(_ movie: Movie) async throws -> CachedFile? {
        guard let path = movie.posterPath, !path.isEmpty else { return nil }
        let key = key(for: path)
        return try await files.fetch(
            TransferRequest(
                key: key,
                url: try await url(for: path),
                relativePath: key,
                requirement: settings.posters.requires
            )
        )
    }

    /// The absolute URL of a poster: `<image_base>/t/p/<size><poster_path>`.
    public func url(for posterPath: String) async throws -> String {
        var base = settings.tmdb.imageBase
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasPrefix("/") {
            var server = try await transport.baseURL()
            while server.hasSuffix("/") { server.removeLast() }
            base = server + base
        }
        let file = posterPath.hasPrefix("/") ? posterPath : "/" + posterPath
        let escaped = file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file
        return "\(base)/t/p/\(settings.posters.size)\(escaped)"
    }
}
