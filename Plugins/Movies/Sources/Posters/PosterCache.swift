import Foundation
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
