import FerryServer
import Foundation
import GRDB
import MoviesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Movies: local-first reads from the full cache")
struct LocalFirstReadTests {
    @Test func cachedReadsWorkWhileTheServerIsStopped() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        let first = try await library.list()
        #expect(first?.origin == .network)
        #expect(first?.value.count == 4)

        await harness.server.goAway()
        let answers = Answers()
        let offline = try #require(try await library.list { answers.append($0) })
        #expect(
            offline.value.map(\.id).sorted() == ["m_demo_arrival", "m_demo_dune", "m_demo_heat", "m_demo_spirited"]
        )
        #expect(offline.isFromCache)
        #expect(offline.offline != nil)
        #expect(answers.count == 1)
        let heat = try #require(try await library.movie("m_demo_heat"))
        #expect(heat.director == "Michael Mann")
        #expect(
            try await library.list(status: "watched")?.value.map(\.id).sorted() == ["m_demo_arrival", "m_demo_dune"]
        )

        let error = await #expect(throws: FerryError.self) { try await library.list(policy: .networkOnly) }
        #expect(error?.code == .requiresConnection)
        harness.connectivity.set(.offline)
        #expect(try await library.list()?.offline?.contains("offline") == true)
        try await harness.server.comeBack()
        await harness.stop()
    }

    @Test func everyFieldAndTheServersJSONAreCached() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        let heat = try #require(try await library.movie("m_demo_heat"))
        #expect(heat.tmdbId == 949)
        #expect(heat.imdbId == "tt0113277")
        #expect(heat.genres == ["Action", "Crime", "Drama", "Thriller"])
        #expect(heat.overview?.isEmpty == false)
        #expect(heat.posterPath == "/ferry-poster-949.png")
        #expect(heat.status == "want_to_watch")
        #expect(heat.recommender == "Sam")
        let dune = try #require(try await library.movie("m_demo_dune"))
        #expect(dune.myRating == 9 && dune.status == "watched")
        let stored = try #require(try await library.serverJSON("m_demo_heat"))
        let cached = try JSONSerialization.jsonObject(with: stored) as? NSDictionary
        let server = try #require(try await harness.serverMovie("m_demo_heat")) as NSDictionary
        #expect(cached == server)
        await harness.stop()
    }

    @Test func theCacheIsRebuiltOnceAfterASchemaChange() async throws {
        let harness = try await MoviesHarness.start()
        let store = harness.runtime.store
        try await harness.test.runOnce()
        // An older build's cache: an older layout with the feed's cursor, and a row the
        // server no longer has.
        try await harness.test.storeCursors(ofOlderLayout: "0", plugin: "movies")
        try await store.write { db in try Self.insertStale("m_stale_1", in: db) }
        try await harness.test.runOnce()
        #expect(try await harness.library().movie("m_stale_1") == nil)
        #expect(try await harness.library().movies().count == 4)
        #expect(try await harness.test.cursorLayouts(plugin: "movies") == ["default": "2"])

        // Once only: a later pass is incremental and leaves local rows it has no news of.
        try await store.write { db in try Self.insertStale("m_stale_2", in: db) }
        try await harness.test.runOnce()
        #expect(try await harness.library().movie("m_stale_2") != nil)
        await harness.stop()
    }

    @Test func aRefreshNeverUndoesAPendingChange() async throws {
        let harness = try await MoviesHarness.start()
        let library = try harness.library()
        try await harness.test.runOnce()
        harness.connectivity.set(.offline)
        try await library.update("m_demo_heat", MovieChanges(status: "watching"))
        harness.connectivity.set(.online)
        _ = try await library.refresh()
        #expect(try await library.movie("m_demo_heat")?.status == "watching")
        #expect(try await library.movie("m_demo_heat")?.sync == .changed)
        await harness.stop()
    }

    static func insertStale(_ id: String, in db: Database) throws {
        try db.execute(
            sql:
                "INSERT INTO movies_movies (id, title, status, server_json, cached_at) VALUES (?, 'Gone', 'watched', '{}', 0)",
            arguments: [id]
        )
    }
}

/// Answers a read delivered, collected across tasks.
final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [CachedRead<[Movie]>] = []
    func append(_ answer: CachedRead<[Movie]>) { lock.withLock { items.append(answer) } }
    var count: Int { lock.withLock { items.count } }
}
