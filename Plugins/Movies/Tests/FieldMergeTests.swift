import FerryServer
import FerryServerTesting
import Foundation
import MoviesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

/// Two devices change one movie: each field is merged against the version the change was
/// made on, and only a field both changed is a conflict.
@Suite("Movies: conflicting updates merge field by field")
struct FieldMergeTests {
    /// A server whose clock runs after the device's test clock, so its writes are the later ones.
    static func startWithLaterServer(movies: String = "{}") async throws -> MoviesHarness {
        try await MoviesHarness.start(movies: movies, serverNow: { Date(timeIntervalSince1970: 1_800_000_600) })
    }

    /// Changes `id` on the server as another device would, with its own session.
    static func changeElsewhere(_ harness: MoviesHarness, _ id: String, _ body: [String: Int]) async throws {
        let token = try await harness.server.login()
        _ = try await HTTPTransport(baseURL: harness.server.baseURL, credentials: StaticCredentials(token: token))
            .send(try .json("PATCH", "/v1/movies/\(id)", body: body))
    }

    static func conflicts(_ harness: MoviesHarness) async throws -> [ConflictReport] {
        try await harness.runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
    }

    @Test func aStatusChangedHereAndALaterRatingChangedElsewhereBothSurvive() async throws {
        let harness = try await Self.startWithLaterServer()
        let library = try harness.library()
        try await harness.test.runOnce()
        harness.connectivity.set(.offline)
        try await library.update("m_demo_arrival", MovieChanges(status: "watching"))
        try await Self.changeElsewhere(harness, "m_demo_arrival", ["my_rating": 7])

        harness.connectivity.set(.online)
        let summary = try await harness.test.runOnce()
        #expect(summary.conflicts == 0 && summary.deadLettered == 0)
        let remote = try #require(try await harness.serverMovie("m_demo_arrival"))
        #expect(remote["status"] as? String == "watching", "the offline status was lost")
        #expect(remote["my_rating"] as? Int == 7)
        let local = try #require(try await library.movie("m_demo_arrival"))
        #expect(local.status == "watching" && local.myRating == 7 && local.sync == .synced)
        #expect(try await Self.conflicts(harness).isEmpty, "no field was changed on both sides")
        #expect(try await harness.test.operations().isEmpty)
        await harness.stop()
    }

    @Test func theSameFieldChangedOnBothSidesIsDecidedByThePolicyAloneAndShownWithBothValues() async throws {
        let harness = try await Self.startWithLaterServer()
        let library = try harness.library()
        try await harness.test.runOnce()
        try await library.update("m_demo_arrival", MovieChanges(status: "watching", rating: 10))
        try await Self.changeElsewhere(harness, "m_demo_arrival", ["my_rating": 2])

        try await harness.test.runOnce()
        // last_write_wins: the server's rating is the later write; the status still goes.
        let remote = try #require(try await harness.serverMovie("m_demo_arrival"))
        #expect(remote["my_rating"] as? Int == 2 && remote["status"] as? String == "watching")
        let local = try #require(try await library.movie("m_demo_arrival"))
        #expect(local.myRating == 2 && local.status == "watching")
        let report = try #require(try await Self.conflicts(harness).first)
        #expect(report.fields == [FieldConflict(field: "my_rating", base: "8", local: "10", remote: "2")])
        #expect(report.outcome == "remote", "the policy kept the server's rating")
        await harness.stop()
    }

    @Test func aManualConflictKeepsTheOtherFieldsWhenThePersonKeepsTheServersValue() async throws {
        let harness = try await Self.startWithLaterServer(movies: "{operations: {update: {conflict: manual}}}")
        let library = try harness.library()
        try await harness.test.runOnce()
        try await library.update("m_demo_arrival", MovieChanges(status: "watching", rating: 10))
        try await Self.changeElsewhere(harness, "m_demo_arrival", ["my_rating": 2])

        try await harness.test.runOnce()
        let open = try #require(try await harness.runtime.store.read { db in
            try ConflictStore.list(openOnly: true, in: db)
        }.first)
        #expect(open.fields.map(\.field) == ["my_rating"])
        #expect(try await harness.serverMovie("m_demo_arrival")?["status"] as? String == "watched", "nothing was sent while the conflict is open")

        _ = try await harness.runtime.resolveConflict(id: open.id, keepLocal: false)
        try await harness.test.runOnce()
        let remote = try #require(try await harness.serverMovie("m_demo_arrival"))
        #expect(remote["my_rating"] as? Int == 2 && remote["status"] as? String == "watching")
        #expect(try await harness.test.operations().isEmpty)
        await harness.stop()
    }

    @Test func aFieldBothSidesSetToTheSameValueIsNoConflict() async throws {
        let harness = try await Self.startWithLaterServer()
        let library = try harness.library()
        try await harness.test.runOnce()
        try await library.update("m_demo_arrival", MovieChanges(rating: 6))
        try await Self.changeElsewhere(harness, "m_demo_arrival", ["my_rating": 6])
        #expect(try await harness.test.runOnce().conflicts == 0)
        #expect(try await Self.conflicts(harness).isEmpty)
        #expect(try await harness.serverMovie("m_demo_arrival")?["my_rating"] as? Int == 6)
        await harness.stop()
    }
}
