import FerryServer
import Foundation
import MoviesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Movies: the poster cache")
struct PosterCacheTests {
    /// A poster cache with `maxBytes` and the configured age, over the harness's store.
    static func posters(
        _ harness: MoviesHarness,
        maxBytes: Int64,
        maxAge: TimeInterval = 90 * 86_400
    ) throws -> PosterCache {
        var settings = MoviesSettings()
        settings.posters.maxSize = ByteCount(maxBytes)
        settings.posters.maxAge = Seconds(maxAge)
        return PosterCache(
            settings: settings,
            folder: harness.folder.appendingPathComponent("posters"),
            store: harness.runtime.store,
            clock: harness.clock,
            events: harness.runtime.events,
            connectivity: harness.connectivity,
            transport: HTTPTransport(baseURL: harness.server.baseURL, executor: harness.runtime.executor)
        )
    }

    @Test func aPassCachesThePostersOnceAndTheyAreServedLocallyOffline() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        let movies = try await library.movies()
        let withPosters = movies.filter { $0.posterPath?.isEmpty == false }
        #expect(!withPosters.isEmpty)
        #expect(try await harness.stats()["GET /tmdb/t/p/{size}/{file}"] == withPosters.count)
        let posters = library.posters()
        let heat = try #require(try await library.movie("m_demo_heat"))
        let file = try #require(try await posters.cached(heat))
        #expect(try Data(contentsOf: file.url).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(file.url.path.hasPrefix(harness.folder.appendingPathComponent("movies/posters/w342").path))

        // The next pass downloads nothing again; offline, the files are served as they are.
        try await harness.test.runOnce()
        #expect(try await harness.stats()["GET /tmdb/t/p/{size}/{file}"] == withPosters.count)
        harness.connectivity.set(.offline)
        let again = try #require(try await posters.fetch(heat))
        #expect(!again.downloaded && again.url == file.url)
        await harness.stop()
    }

    @Test func aPosterMissedOfflineIsFetchedByTheNextPassOnline() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        let posters = library.posters()
        try await posters.files.purge()
        harness.connectivity.set(.offline)
        let dune = try #require(try await library.movie("m_demo_dune"))
        let error = await #expect(throws: FerryError.self) { try await posters.fetch(dune) }
        #expect(error?.code == .requiresConnection)
        #expect(error?.message.contains("it will be fetched when one is there") == true)
        #expect(try await harness.test.runOnce().sent == 0)
        #expect(try await posters.cached(dune) == nil)

        harness.connectivity.set(.online)
        try await harness.test.runOnce()
        #expect(try await posters.cached(dune) != nil, "what the offline message promised")
        await harness.stop()
    }

    /// A poster the image host does not have (404) is passed over: the posters after it are
    /// still fetched, where the first failure used to stop the pass for good.
    @Test func aPosterTheImageHostDoesNotHaveHoldsBackNoOther() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        let posters = library.posters()
        try await posters.files.purge()
        let asked = try await harness.stats()["GET /tmdb/t/p/{size}/{file}"] ?? 0
        var gone = try #require(try await library.movie("m_demo_dune"))
        gone.posterPath = "/ferry-poster-1.png"
        let heat = try #require(try await library.movie("m_demo_heat"))
        #expect(await posters.prefetch([gone, heat], logger: harness.runtime.logger) == 1)
        #expect(try await posters.cached(heat) != nil)
        #expect(try await posters.cached(gone) == nil)
        #expect(try await harness.stats()["GET /tmdb/t/p/{size}/{file}"] == asked + 2)
        await harness.stop()
    }

    @Test func theLeastRecentlyUsedPosterIsEvictedAtTheCap() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        let movies = try await ["m_demo_heat", "m_demo_dune", "m_demo_spirited", "m_demo_arrival"].asyncMap {
            try #require(try await library.movie($0))
        }
        let measuring = try Self.posters(harness, maxBytes: 1 << 30)
        var sizes: [Int64] = []
        for movie in movies { sizes.append(try #require(try await measuring.fetch(movie)).bytes) }
        try await measuring.files.purge()

        let cap = sizes[0] + sizes[1] + sizes[2]
        let posters = try Self.posters(harness, maxBytes: cap)
        for movie in movies.prefix(3) {
            harness.clock.advance(by: 60)
            _ = try await posters.fetch(movie)
        }
        harness.clock.advance(by: 60)
        #expect(try await posters.cached(movies[0]) != nil)
        harness.clock.advance(by: 60)
        _ = try await posters.fetch(movies[3])
        let kept = Set(try await posters.files.entries().map(\.key))
        #expect(!kept.contains(posters.key(for: movies[1].posterPath!)))
        #expect(kept.contains(posters.key(for: movies[0].posterPath!)))
        #expect(kept.contains(posters.key(for: movies[3].posterPath!)))
        #expect(try await posters.files.usage().bytes <= cap)
        await harness.stop()
    }

    @Test func postersExpireByAge() async throws {
        let harness = try await MoviesHarness.start(movies: "{posters: {max_age: 90d, max_size: 500MB}}")
        let library = try harness.library()
        try await harness.test.runOnce()
        let posters = library.posters()
        #expect(posters.files.budget == TransferBudget(maxBytes: 500_000_000, maxAge: 90 * 86_400))
        let heat = try #require(try await library.movie("m_demo_heat"))
        let file = try #require(try await posters.fetch(heat))
        harness.clock.advance(by: 89 * 86_400)
        #expect(try await posters.files.expire().keys.isEmpty)
        #expect(try await posters.cached(heat) != nil)
        harness.clock.advance(by: 2 * 86_400)
        #expect(try await posters.files.expire().keys.contains(posters.key(for: "/ferry-poster-949.png")))
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
        #expect(try await posters.cached(heat) == nil)
        await harness.stop()
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
