import FerryServer
import FerryServerTesting
import Foundation
import MoviesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

/// A real FerryServer with demo data, and one device (a runtime with the movies plugin)
/// that demo signs in on first.
private struct MoviesDevice: Sendable {
    let server: RunningFerryServer
    let test: TestRuntime
    let credentials: StaticCredentials
    let folder: URL

    var runtime: FerryRuntime { test.runtime }
    var library: MoviesLibrary { get throws { try MoviesLibrary(runtime: runtime) } }

    /// Demo's four movies in the seed; sam has none.
    static let demosMovies: Set<String> = ["m_demo_heat", "m_demo_dune", "m_demo_spirited", "m_demo_arrival"]

    /// Runs `body` on a fresh server and device, signed in as demo; stops both afterwards.
    static func with(_ body: (MoviesDevice) async throws -> Void) async throws {
        let server = try await DemoFerryServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ferry-accounts-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let credentials = StaticCredentials(
                token: try await server.login("demo"),
                account: "u_demo"
            )
            let test = try await TestRuntime.make(
                server: server.baseURL,
                yaml: "data_dir: \(folder.path)\nretry: {base_delay: 1s, jitter: 0}\nplugins:\n  movies: {}\n",
                plugins: [MoviesPlugin.self],
                credentials: credentials
            )
            try await body(MoviesDevice(server: server, test: test, credentials: credentials, folder: folder))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Signs `username` in on the device, as `u_<username>`.
    func signIn(_ username: String) async throws {
        credentials.signIn(try await server.login(username), as: "u_\(username)")
    }

    /// `username`'s movies as the server has them now, by id.
    func serverMovies(of username: String) async throws -> [String: [String: Any]] {
        let token = try await server.login(username)
        let response = try await HTTPTransport(baseURL: server.baseURL, credentials: StaticCredentials(token: token))
            .send(HTTPRequest("GET", "/v1/movies"))
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let movies = object?["movies"] as? [[String: Any]] ?? []
        return Dictionary(movies.compactMap { movie in (movie["id"] as? String).map { ($0, movie) } }) { a, _ in a }
    }

    /// Why each queued operation is not being sent, as `ferry queue list` explains it.
    func explanations() async throws -> [String] {
        var reasons: [String] = []
        for operation in try await test.operations() {
            reasons.append(try await QueueInspector(runtime: runtime).explain(operation).rendered)
        }
        return reasons
    }

    /// Demo caches their list, then offline rates Heat and adds Blade Runner by title;
    /// then sam signs in and a pass runs online: it sends nothing, and the list is sam's
    /// (empty). Returns the pending movie's local id.
    func demoQueuesWorkThenSamSignsIn() async throws -> String {
        try await test.runOnce()
        #expect(Set(try await library.movies().map(\.id)) == Self.demosMovies)
        test.connectivity.set(.offline)
        try await library.update("m_demo_heat", MovieChanges(status: "watched", rating: 8))
        let pending = try await library.add(title: "Blade Runner", year: 1982, recommender: "Kim")
        #expect(try await test.operations().map(\.account) == ["u_demo", "u_demo"])

        try await signIn("sam")
        test.connectivity.set(.online)
        #expect(try await test.runOnce().sent == 0, "demo's work went out with sam's session")
        let shown = try await library.movies().map(\.id)
        #expect(shown.isEmpty, "sam has no movies, yet the list shows \(shown)")
        return pending.id
    }
}

/// Two people on one device: the movie list is the signed-in account's, and work queued
/// under one account is only ever sent as that account.
@Suite("Movies: switching accounts on one device")
struct MoviesAccountSwitchTests {
    /// Catches a due query that ignores accounts (`sent` in the setup, demo's server state,
    /// sam's server list) and a plugin that forgets nothing on a switch (the list in the
    /// setup, the reads by id, the pending movies).
    @Test func whenSamSignsInDemosQueuedWorkIsHeldAndDemosListLeavesTheDevice() async throws {
        try await MoviesDevice.with { device in
            let pendingID = try await device.demoQueuesWorkThenSamSignsIn()

            let demosServer = try await device.serverMovies(of: "demo")
            #expect(Set(demosServer.keys) == MoviesDevice.demosMovies)
            #expect(demosServer["m_demo_heat"]?["status"] as? String == "want_to_watch")
            #expect(demosServer["m_demo_heat"]?["my_rating"] as? Int == nil)
            #expect(try await device.serverMovies(of: "sam").isEmpty, "demo's work reached sam's list")

            let library = try device.library
            #expect(try await library.movie("m_demo_heat") == nil)
            #expect(try await library.movie(pendingID) == nil)
            #expect(try await library.pending().isEmpty)

            let reasons = try await device.explanations()
            #expect(reasons.count == 2)
            #expect(reasons.allSatisfy { $0.contains("held for account u_demo") }, "\(reasons)")
        }
    }

    /// Catches demo's work sent as sam's and demo's list kept for sam (the setup), work lost
    /// or sent wrongly on the way back (`sent`, demo's and sam's server lists) and a list not
    /// rebuilt for demo after sam's (the local list).
    @Test func whenDemoSignsInAgainDemosWorkGoesAsDemoAndDemosListComesBack() async throws {
        try await MoviesDevice.with { device in
            _ = try await device.demoQueuesWorkThenSamSignsIn()

            try await device.signIn("demo")
            #expect(try await device.test.runOnce().sent == 2)
            #expect(try await device.test.operations().isEmpty)
            let demosServer = try await device.serverMovies(of: "demo")
            #expect(demosServer["m_demo_heat"]?["status"] as? String == "watched")
            #expect(demosServer["m_demo_heat"]?["my_rating"] as? Int == 8)
            #expect(demosServer.count == 5)
            #expect(demosServer.values.contains { $0["tmdb_id"] as? Int == 78 }, "Blade Runner is not on demo's list")
            #expect(try await device.serverMovies(of: "sam").isEmpty, "demo's work reached sam's list")

            let library = try device.library
            let shown = try await library.movies()
            #expect(
                Set(shown.map(\.id)).isSuperset(of: MoviesDevice.demosMovies) && shown.count == 5,
                "\(shown.map(\.id))"
            )
            let heat = try #require(shown.first { $0.id == "m_demo_heat" })
            #expect(heat.status == "watched" && heat.myRating == 8 && heat.sync == .synced)
            #expect(shown.contains { $0.tmdbId == 78 && $0.recommender == "Kim" })
            #expect(try await library.pending().isEmpty)
        }
    }

    /// Catches a due query that sends work made while nobody was signed in as whoever signs
    /// in next (`sent` before the adoption), an adoption that reaches the wrong account (the
    /// server lists), and demo's list kept for sam (the local lists).
    @Test func aMovieAddedWhileSignedOutWaitsUntilSamKeepsItThenJoinsSamsListOnly() async throws {
        try await MoviesDevice.with { device in
            try await device.test.runOnce()
            device.credentials.signOut()
            let library = try device.library
            let pending = try await library.add(title: "Blade Runner", year: 1982, recommender: "Kim")
            #expect(try await device.test.operations().map(\.account) == [nil])

            try await device.signIn("sam")
            #expect(try await device.test.runOnce().sent == 0, "signed-out work went out as sam's unasked")
            #expect(try await device.serverMovies(of: "sam").isEmpty)
            let reasons = try await device.explanations()
            #expect(reasons.count == 1 && reasons[0].contains("nobody was signed in"), "\(reasons)")
            // Demo's list left; the movie added while signed out still shows, held.
            let held = try await library.movies()
            #expect(held.map(\.id) == [pending.id], "\(held.map(\.id))")

            #expect(try await device.runtime.adoptSignedOutWork(for: "u_sam") == 1)
            #expect(try await device.test.runOnce().sent == 1)
            let samsServer = try await device.serverMovies(of: "sam")
            #expect(samsServer.count == 1 && samsServer.values.first?["tmdb_id"] as? Int == 78, "\(samsServer.keys)")
            let demosServer = try await device.serverMovies(of: "demo")
            #expect(Set(demosServer.keys) == MoviesDevice.demosMovies, "sam's adopted movie reached demo's list")

            let shown = try await library.movies()
            #expect(
                shown.count == 1 && shown.first?.tmdbId == 78 && shown.first?.id != pending.id,
                "\(shown.map(\.id))"
            )
            #expect(Set(shown.map(\.id)).isDisjoint(with: MoviesDevice.demosMovies))
        }
    }

    @Test func aTitleThatNeedsAChoiceIsStillThereToResolveAfterAnotherAccountCameAndWent() async throws {
        try await MoviesDevice.with { device in
            let library = try device.library
            let dune = try await library.add(title: "Dune", year: nil, recommender: "Alex")
            try await device.test.runOnce()
            #expect(try await library.pending().first?.state == .needsChoice)

            try await device.signIn("sam")
            try await device.test.runOnce()
            #expect(try await library.pending().isEmpty, "sam sees demo's pending movie")

            try await device.signIn("demo")
            try await device.test.runOnce()
            #expect(try await library.pending().map(\.id) == [dune.id])
            _ = try await library.resolve(dune.id, tmdbID: 841)
            try await device.test.runOnce()
            #expect(try await device.serverMovies(of: "demo").values.contains { $0["tmdb_id"] as? Int == 841 })
        }
    }
}
