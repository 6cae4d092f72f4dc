import FerryServer
import FerryServerTesting
import Foundation
import MoviesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Movies: changes queue offline and coalesce")
struct QueuedChangeTests {
    @Test func offlineUpdatesCoalesceAndReachTheServerAfterReconnecting() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        harness.connectivity.set(.offline)
        #expect(try await library.update("m_demo_heat", MovieChanges(status: "watched")) != .cancelled)
        let second = try await library.update("m_demo_heat", MovieChanges(rating: 8))
        let third = try await library.update("m_demo_heat", MovieChanges(watchedOn: "2026-11-20"))
        guard case .coalesced = second, case .coalesced = third else {
            Issue.record("updates did not coalesce: \(second), \(third)")
            return
        }
        let local = try #require(try await library.movie("m_demo_heat"))
        #expect(local.status == "watched" && local.myRating == 8 && local.dateWatched == "2026-11-20")
        #expect(try await harness.test.operations().count == 1)
        #expect(try await harness.test.runOnce().sent == 0)

        harness.connectivity.set(.online)
        let summary = try await harness.test.runOnce()
        #expect(summary.sent == 1)
        let remote = try #require(try await harness.serverMovie("m_demo_heat"))
        #expect(remote["status"] as? String == "watched")
        #expect(remote["my_rating"] as? Int == 8)
        #expect(remote["date_watched"] as? String == "2026-11-20")
        #expect(try await harness.stats()["PATCH /v1/movies/{id}"] == 1)
        #expect(try await library.movie("m_demo_heat")?.sync == .synced)
        await harness.stop()
    }

    @Test func aMovieAddedOfflineAndRemovedBeforeItWasSentLeavesNothingToSend() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        harness.connectivity.set(.offline)
        let pending = try await library.add(title: "Blade Runner", year: nil, recommender: nil)
        #expect(try await harness.test.operations().count == 1)
        try await library.remove(pending.id)
        #expect(try await harness.test.operations().isEmpty)
        #expect(try await library.movie(pending.id) == nil)
        harness.connectivity.set(.online)
        #expect(try await harness.test.runOnce().sent == 0)
        await harness.stop()
    }

    @Test func aRemovalDropsTheUnsentUpdateAndRemovesTheMovieOnTheServer() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        harness.connectivity.set(.offline)
        try await library.update("m_demo_arrival", MovieChanges(rating: 3))
        try await library.remove("m_demo_arrival")
        #expect(try await library.movie("m_demo_arrival")?.sync == .removing)
        #expect(try await harness.test.operations().map(\.kind) == ["remove"])
        harness.connectivity.set(.online)
        try await harness.test.runOnce()
        #expect(try await harness.serverMovie("m_demo_arrival") == nil)
        #expect(try await library.movie("m_demo_arrival") == nil)
        #expect(try await harness.stats()["PATCH /v1/movies/{id}"] == nil)
        await harness.stop()
    }

    @Test func clearingAFieldSurvivesCoalescing() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        try await library.update("m_demo_dune", MovieChanges(status: "watching"))
        try await library.update("m_demo_dune", MovieChanges(clearRating: true))
        #expect(try await library.movie("m_demo_dune")?.myRating == nil)
        try await harness.test.runOnce()
        let remote = try #require(try await harness.serverMovie("m_demo_dune"))
        #expect(remote["my_rating"] is NSNull)
        #expect(remote["status"] as? String == "watching")
        await harness.stop()
    }

    @Test func badInputIsRefusedWithAnActionableMessage() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        for changes in [
            MovieChanges(status: "seen"), MovieChanges(rating: 11), MovieChanges(watchedOn: "2026-02-30"),
            MovieChanges(),
            MovieChanges(rating: 5, clearRating: true),
        ] {
            let error = await #expect(throws: FerryError.self) { try await library.update("m_demo_heat", changes) }
            #expect(error?.code == .usage)
        }
        let missing = await #expect(throws: FerryError.self) {
            try await library.update("m_nope", MovieChanges(rating: 5))
        }
        #expect(missing?.code == .notFound)
        #expect(try await harness.test.operations().isEmpty)
        await harness.stop()
    }
}

@Suite("Movies: conflicts follow the configured policy")
struct MovieConflictTests {
    /// Changes `id` on the server as another device would, with its own session.
    static func changeOnServer(_ harness: MoviesHarness, _ id: String, rating: Int) async throws {
        let token = try await harness.server.login()
        _ = try await HTTPTransport(baseURL: harness.server.baseURL, credentials: StaticCredentials(token: token))
            .send(try .json("PATCH", "/v1/movies/\(id)", body: ["my_rating": rating]))
    }

    @Test func byDefaultTheLaterWriteWins() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        try await Self.changeOnServer(harness, "m_demo_arrival", rating: 2)
        // The test clock is ahead of the server's, so the local write is the later one.
        try await library.update("m_demo_arrival", MovieChanges(rating: 10))
        try await harness.test.runOnce()
        #expect(try await harness.serverMovie("m_demo_arrival")?["my_rating"] as? Int == 10)
        #expect(try await library.movie("m_demo_arrival")?.myRating == 10)
        await harness.stop()
    }

    @Test func anUpdateToAMovieDeletedElsewhereIsAConflictTheDeletionWins() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        try await library.update("m_demo_arrival", MovieChanges(rating: 9))
        let token = try await harness.server.login()
        _ = try await HTTPTransport(baseURL: harness.server.baseURL, credentials: StaticCredentials(token: token))
            .send(HTTPRequest("DELETE", "/v1/movies/m_demo_arrival"))

        let summary = try await harness.test.runOnce()
        #expect(summary.deadLettered == 0 && !summary.failed, "a conflict, not a dead letter")
        #expect(try await harness.test.operations().isEmpty)
        #expect(try await library.movie("m_demo_arrival") == nil, "the deletion wins")
        let reports = try await harness.runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
        let report = try #require(reports.first { $0.entity == "m_demo_arrival" })
        #expect(report.outcome == "remote" && report.reason.contains("deleted"))
        await harness.stop()
    }

    @Test func aRemoveOfAMovieDeletedElsewhereIsAlreadyDone() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        try await library.remove("m_demo_arrival")
        let token = try await harness.server.login()
        _ = try await HTTPTransport(baseURL: harness.server.baseURL, credentials: StaticCredentials(token: token))
            .send(HTTPRequest("DELETE", "/v1/movies/m_demo_arrival"))

        // The remove carries If-Match: the server answers 412 with `current: null`, i.e. gone.
        let summary = try await harness.test.runOnce()
        #expect(summary.deadLettered == 0 && !summary.failed)
        #expect(try await harness.test.operations().isEmpty)
        #expect(try await library.movie("m_demo_arrival") == nil)
        let reports = try await harness.runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
        #expect(!reports.contains { $0.entity == "m_demo_arrival" }, "already done, not a conflict")
        await harness.stop()
    }

    @Test func anUpdateThatFailedForGoodIsMarkedInTheList() async throws {
        let harness = try await MoviesHarness.start(movies: "{operations: {update: {retry: {max_attempts: 1}}}}")
        let library = try harness.library()
        try await harness.test.runOnce()
        try await library.update("m_demo_arrival", MovieChanges(rating: 9))
        harness.server.setFaults(FaultSettings(failNext: .init(kind: .internalError, count: 1), pathPrefix: "/v1/movies/"))
        #expect(try await harness.test.runOnce().deadLettered == 1)
        let movie = try #require(try await library.movies().first { $0.id == "m_demo_arrival" })
        #expect(movie.sync == .failed, "\(movie.sync)")
        #expect(try await library.movie("m_demo_arrival")?.sync == .failed)
        await harness.stop()
    }

    @Test func serverWinsAdoptsTheServersMovie() async throws {
        let harness = try await MoviesHarness.start(movies: "{operations: {update: {conflict: server_wins}}}")
        let library = try harness.library()
        try await harness.test.runOnce()
        try await Self.changeOnServer(harness, "m_demo_arrival", rating: 2)
        try await library.update("m_demo_arrival", MovieChanges(rating: 10))
        try await harness.test.runOnce()
        #expect(try await harness.serverMovie("m_demo_arrival")?["my_rating"] as? Int == 2)
        #expect(try await library.movie("m_demo_arrival")?.myRating == 2)
        #expect(try await harness.test.operations().isEmpty)
        await harness.stop()
    }
}
