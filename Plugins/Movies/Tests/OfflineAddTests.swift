import FerryServer
import Foundation
import GRDB
import MoviesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Movies: added offline by title, matched on TMDB when online")
struct OfflineAddTests {
    @Test func aTitleAddedOfflineIsEnrichedWithTheRightTMDBAndIMDbIds() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        harness.connectivity.set(.offline)
        let pending = try await library.add(title: "blade runner", year: nil, recommender: "Kim")
        #expect(pending.id.hasPrefix("local-"))
        #expect(try await library.movies().contains { $0.id == pending.id && $0.sync == .pendingMatch })
        #expect(try await harness.test.runOnce().sent == 0)

        harness.connectivity.set(.online)
        try await harness.test.runOnce()
        let movie = try #require(try await library.movie(pending.id))
        #expect(movie.id.hasPrefix("m_"))
        #expect(movie.tmdbId == 78)
        #expect(movie.imdbId == "tt0083658")
        #expect(movie.title == "Blade Runner" && movie.year == 1982)
        #expect(movie.recommender == "Kim")
        #expect(try await library.pending().isEmpty)
        let remote = try #require(try await harness.serverMovie(movie.id))
        #expect(remote["tmdb_id"] as? Int == 78)
        #expect(remote["imdb_id"] as? String == "tt0083658")
        await harness.stop()
    }

    @Test func anUpdateMadeToAPendingMovieArrivesOnTheServerMovie() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        harness.connectivity.set(.offline)
        let pending = try await library.add(title: "The Thing", year: 1982, recommender: nil)
        try await library.update(pending.id, MovieChanges(status: "watched", rating: 9))
        try await library.update(pending.id, MovieChanges(watchedOn: "2026-10-31"))
        let local = try #require(try await library.movie(pending.id))
        #expect(local.status == "watched" && local.myRating == 9 && local.sync == .pendingMatch)
        #expect(try await harness.test.operations().map(\.kind) == ["add_title", "update"])

        harness.connectivity.set(.online)
        try await harness.test.runOnce()
        let movie = try #require(try await library.movie(pending.id))
        #expect(movie.tmdbId == 1091 && movie.imdbId == "tt0084787")
        #expect(movie.status == "watched" && movie.myRating == 9 && movie.dateWatched == "2026-10-31")
        let remote = try #require(try await harness.serverMovie(movie.id))
        #expect(remote["status"] as? String == "watched")
        #expect(remote["my_rating"] as? Int == 9)
        #expect(remote["date_watched"] as? String == "2026-10-31")
        #expect(try await harness.test.operations().isEmpty)
        await harness.stop()
    }

    @Test func ambiguousAndMissingTitlesStayPendingWithCandidates() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        let dune = try await library.add(title: "Dune", year: nil, recommender: "Alex")
        let road = try await library.add(title: "Zzyzx Road", year: nil, recommender: nil)
        try await harness.test.runOnce()

        let pending = Dictionary(try await library.pending().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let ambiguous = try #require(pending[dune.id])
        #expect(ambiguous.state == .needsChoice)
        #expect(Set(ambiguous.candidates.map(\.tmdbId)) == [841, 438631])
        #expect(ambiguous.reason?.contains("1984") == true && ambiguous.reason?.contains("2021") == true)
        let missing = try #require(pending[road.id])
        #expect(missing.state == .needsChoice)
        #expect(missing.candidates.isEmpty)
        #expect(missing.reason?.contains("no movie") == true)
        #expect(try await library.movie(dune.id)?.sync == .needsChoice)

        _ = try await library.resolve(dune.id, tmdbID: 841)
        try await harness.test.runOnce()
        let resolved = try #require(try await library.movie(dune.id))
        #expect(resolved.tmdbId == 841 && resolved.imdbId == "tt0087182" && resolved.recommender == "Alex")
        #expect(try await library.pending().map(\.id) == [road.id])

        // Discarding the dead add takes the pending movie with it, and the change queued
        // behind it, which has nothing left to change.
        try await library.update(road.id, MovieChanges(rating: 5))
        let dead = try #require(try await harness.test.operations().first { $0.entity == road.id && $0.state == .dead })
        try await harness.runtime.discard(dead)
        #expect(try await library.pending().isEmpty)
        #expect(try await library.movie(road.id) == nil)
        #expect(try await harness.test.operations().isEmpty)
        await harness.stop()
    }

    @Test func theYearTellsRemakesApart() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        let solaris = try await library.add(title: "Solaris", year: 2002, recommender: nil)
        try await harness.test.runOnce()
        #expect(try await library.movie(solaris.id)?.tmdbId == 2103)
        await harness.stop()
    }

    @Test func aTitleAlreadyInTheListIsAdoptedNotDuplicated() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        let heat = try await library.add(title: "Heat", year: 1995, recommender: "Sam")
        try await library.update(heat.id, MovieChanges(rating: 7))
        try await harness.test.runOnce()
        #expect(try await library.movie(heat.id)?.id == "m_demo_heat")
        #expect(try await harness.serverMovie("m_demo_heat")?["my_rating"] as? Int == 7)
        #expect(try await harness.serverMovies().count == 4)
        await harness.stop()
    }

    @Test func tmdbRateLimitsAreHonouredThroughRetryAfter() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        harness.server.setFaults(
            FaultSettings(retryAfterSeconds: 120, failNext: .init(kind: .rateLimited, count: 1), pathPrefix: "/tmdb")
        )
        let alien = try await library.add(title: "Alien", year: nil, recommender: nil)
        #expect(try await harness.test.runOnce().retried == 1)
        let waiting = try #require(try await harness.test.operations().first)
        #expect(waiting.nextAttemptAt >= harness.clock.now().addingTimeInterval(120))
        harness.clock.advance(by: 120)
        try await harness.test.runOnce()
        #expect(try await library.movie(alien.id)?.tmdbId == 348)
        await harness.stop()
    }

    @Test func addingByTMDBIdNeedsAConnectionAndChangesNothingOffline() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        harness.connectivity.set(.offline)
        let error = await #expect(throws: FerryError.self) { try await library.add(tmdbID: 603, recommender: "Sam") }
        #expect(error?.code == .requiresConnection)
        #expect(try await harness.test.operations().isEmpty)
        harness.connectivity.set(.online)
        let matrix = try #require(try await library.add(tmdbID: 603, recommender: "Sam"))
        #expect(matrix.title == "The Matrix" && matrix.imdbId == "tt0133093")
        #expect(try await harness.serverMovie(matrix.id)?["recommender"] as? String == "Sam")
        await harness.stop()
    }
}

@Suite("Movies: the TMDB client")
struct TMDBClientTests {
    @Test func aShortRetryAfterIsWaitedOutOnTheKernelsClock() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        harness.server.setFaults(
            FaultSettings(retryAfterSeconds: 5, failNext: .init(kind: .rateLimited, count: 1), pathPrefix: "/tmdb")
        )
        let alien = try await library.add(title: "Alien", year: 1979, recommender: nil)
        let pass = Task { try await harness.test.runOnce() }
        while harness.clock.sleeperCount == 0 { await Task.yield() }
        harness.clock.advance(by: 5)
        let summary = try await pass.value
        #expect(summary.retried == 0 && summary.sent == 1)
        #expect(try await library.movie(alien.id)?.imdbId == "tt0078748")
        await harness.stop()
    }

    @Test func aRejectedTokenHoldsTheMatchUntilTheConfigurationChanges() async throws {
        let harness = try await MoviesHarness.start(movies: "{tmdb: {token: wrong, auth: api_key}}")
        let library = try harness.library()
        let pending = try await library.add(title: "Alien", year: nil, recommender: nil)
        let summary = try await harness.test.runOnce()
        #expect(summary.deadLettered == 0 && !summary.failed)
        let operation = try #require(try await harness.test.operations().first)
        #expect(operation.state == .pending && operation.attempts == 0)
        #expect(operation.lastError?.contains("tmdb.token") == true)
        let why = try await QueueInspector(runtime: harness.runtime).explain(operation).text
        #expect(why.contains("plugins.movies"), "\(why)")
        let shown = try #require(try await library.pending().first)
        #expect(shown.state == .waiting && shown.reason?.contains("tmdb.token") == true)
        // Not a login: the queue is not held for one.
        let held = try await harness.runtime.store.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM kernel_plugin_state WHERE plugin = 'movies' AND needs_login = 1"
            ) ?? 0
        }
        #expect(held == 0)
        // Nothing goes while the configuration stays as it is, however long.
        harness.clock.advance(by: 86_400)
        #expect(try await harness.test.runOnce().sent == 0)
        await harness.stop()

        // The token fixed in the configuration: the next runtime sends it by itself.
        let fixed = try await MoviesHarness.start(store: harness.runtime.store)
        #expect(try await fixed.test.runOnce().sent == 1)
        #expect(try await fixed.library().movie(pending.id)?.imdbId == "tt0078748", "matched and added")
        #expect(try await fixed.test.operations().isEmpty)
        await fixed.stop()
    }
}
