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
    let clock: any KernelClock

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
        self.clock = clock
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

    /// Caches the posters of `movies` that are not cached yet: at most `attempts` tries, and
    /// only while the cache has room for them without evicting any poster. A poster the
    /// image host refuses for good (a 404: TMDB no longer has that file) is passed over, and
    /// asked for again at the next pass; any other failure (the network, the image host
    /// failing, the disk) stops it, and what is left waits for the next pass. Returns how
    /// many were downloaded.
    @discardableResult
    public func prefetch(_ movies: [Movie], attempts: Int = 20, logger: Logger) async -> Int {
        guard (try? await files.expire()) != nil, let usage = try? await files.usage(),
            let cached = try? await files.entries()
        else { return 0 }
        let have = Set(cached.map(\.key))
        let average = usage.files > 0 ? usage.bytes / Int64(usage.files) : 64_000
        var used = usage.bytes
        var downloaded = 0
        let missing = movies.filter { movie in movie.posterPath.map { !$0.isEmpty && !have.contains(key(for: $0)) } ?? false }
        for movie in missing.prefix(attempts) {
            if let max = usage.maxBytes, used + 2 * average > max { break }
            do {
                guard let file = try await fetch(movie) else { continue }
                used += file.bytes
                downloaded += 1
            } catch {
                let failure = FailureClass.classify(error, now: clock.now())
                if case .rejected(let reason) = failure {
                    logger.debug("movies: no poster for \(movie.title) (\(reason))")
                    continue
                }
                logger.debug("movies: posters wait for the next pass (\(failure.reason))")
                break
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
