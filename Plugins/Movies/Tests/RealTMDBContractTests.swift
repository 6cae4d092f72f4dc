import FerryServer
import FerryServerTesting
import Foundation
import MoviesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

/// The movies plugin against a TMDB that knows films the reference server's subset does
/// not: the client sends what it fetched, the server keeps it, and posters come from
/// that TMDB's image host.
@Suite("Movies: against a TMDB of its own")
struct RealTMDBContractTests {
    static func start(_ tmdb: TMDBStandIn, auth: String = "bearer") async throws -> MoviesHarness {
        try await MoviesHarness.start(
            movies: "{tmdb: {url: \"\(tmdb.apiURL)\", image_base: \"\(tmdb.imageBase)\", token: \(tmdb.token), auth: \(auth)}}"
        )
    }

    @Test func aTitleAddedOfflineIsMatchedThereAndStoredWithThatTMDBsDetails() async throws {
        let tmdb = try await TMDBStandIn.start()
        let harness = try await Self.start(tmdb)
        let library = try harness.library()
        harness.connectivity.set(.offline)
        let pending = try await library.add(title: "Aliens", year: 1986, recommender: "Kim")

        harness.connectivity.set(.online)
        let summary = try await harness.test.runOnce()
        #expect(summary.deadLettered == 0 && summary.sent == 1)
        let remote = try #require(try await harness.serverMovies().first { $0["tmdb_id"] as? Int == 679 })
        #expect(remote["title"] as? String == "Aliens")
        #expect(remote["director"] as? String == "James Cameron")
        #expect(remote["imdb_id"] as? String == "tt0090605")
        #expect(remote["runtime"] as? Int == 137)
        #expect(remote["year"] as? Int == 1986)
        #expect(remote["genres"] as? [String] == ["Action", "Thriller", "Science Fiction"])
        #expect((remote["overview"] as? String)?.hasPrefix("Ripley wakes") == true)
        #expect(remote["poster_path"] as? String == "/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg")
        #expect(remote["recommender"] as? String == "Kim")

        let id = try #require(remote["id"] as? String)
        #expect(try await library.pending().contains { $0.id == pending.id } == false)
        let local = try #require(try await library.movie(id))
        #expect(local.runtime == 137 && local.originalTitle == "Aliens" && local.sync == .synced)
        // The runner's pass cached the poster from that TMDB's image host.
        #expect(tmdb.requests().contains("GET /t/p/w342/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg"))
        #expect(try await library.posters().cached(local) != nil)
        #expect(tmdb.tokenLeaks().isEmpty)
        await harness.stop()
        await tmdb.stop()
    }

    @Test func aFilmTheReferenceSubsetLacksGoesInByTMDBIdWithAnAPIKey() async throws {
        let tmdb = try await TMDBStandIn.start()
        let harness = try await Self.start(tmdb, auth: "api_key")
        let library = try harness.library()
        let movie = try #require(try await library.add(tmdbID: 8077, recommender: nil))
        #expect(movie.title == "Alien³" && movie.director == "David Fincher" && movie.imdbId == "tt0103644")
        #expect(tmdb.authentications().allSatisfy { $0 == .apiKey })
        let remote = try #require(try await harness.serverMovie(movie.id))
        #expect(remote["runtime"] as? Int == 114)

        // A film that TMDB does not have either is refused with TMDB's reason, and nothing is added.
        let error = await #expect(throws: FerryError.self) { try await library.add(tmdbID: 9_999_999, recommender: nil) }
        #expect(error?.message.contains("TMDB") == true)
        #expect(try await harness.serverMovies().count == 5)
        await harness.stop()
        await tmdb.stop()
    }

    @Test func twoFilmsOfOneTitleAreToldApartByTheYear() async throws {
        let tmdb = try await TMDBStandIn.start()
        let harness = try await Self.start(tmdb)
        let library = try harness.library()
        _ = try await library.add(title: "Crash", year: 1996, recommender: nil)
        let undecided = try await library.add(title: "Crash", year: nil, recommender: nil)
        try await harness.test.runOnce()
        let cronenberg = try await harness.serverMovies().first { $0["tmdb_id"] as? Int == 884 }
        #expect(cronenberg?["director"] as? String == "David Cronenberg")
        // Without a year both are candidates: the person chooses (`movies resolve`).
        let pending = try #require(try await library.pending().first { $0.id == undecided.id })
        #expect(Set(pending.candidates.map(\.tmdbId)).isSuperset(of: [884, 1640]))
        await harness.stop()
        await tmdb.stop()
    }
}
