import FerryServer
import FerryServerTesting
import Foundation
import MoviesPlugin
import SyncKernel
import SyncKernelTesting

/// A real FerryServer with demo data on a loopback port, logged in as `demo`, and a
/// runtime with the movies plugin pointed at it (in-memory store, test clock, manual
/// connectivity, a temporary data folder for posters).
struct MoviesHarness: Sendable {
    let server: RunningFerryServer
    let test: TestRuntime
    let folder: URL

    var runtime: FerryRuntime { test.runtime }
    var clock: TestClock { test.clock }
    var connectivity: ManualConnectivity { test.connectivity }

    /// Starts a server and a runtime; `movies` is extra YAML under `movies:`. The server's
    /// clock is the real one unless `serverNow` is given (the runtime's test clock starts
    /// in 2027, ahead of it).
    static func start(
        movies: String = "{}",
        store: FerryStore? = nil,
        folder: URL? = nil,
        serverNow: (@Sendable () -> Date)? = nil
    ) async throws -> MoviesHarness {
        let server = try await DemoFerryServer.start { configuration in
            if let serverNow { configuration.now = serverNow }
            configuration.demoTrackSeconds = 0.1
        }
        let token = try await server.login()
        let folder =
            folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ferry-movies-\(UUID().uuidString)")
        let yaml = "data_dir: \(folder.path)\nretry: {base_delay: 1s, jitter: 0}\nplugins:\n  movies: \(movies)\n"
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: [MoviesPlugin.self],
            credentials: StaticCredentials(token: token),
            store: store
        )
        return MoviesHarness(server: server, test: test, folder: folder)
    }

    func library() throws -> MoviesLibrary { try MoviesLibrary(runtime: runtime) }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The demo user's movies as the server has them now.
    func serverMovies() async throws -> [[String: Any]] {
        let token = try await server.login()
        let response = try await HTTPTransport(baseURL: server.baseURL, credentials: StaticCredentials(token: token))
            .send(HTTPRequest("GET", "/v1/movies"))
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return object?["movies"] as? [[String: Any]] ?? []
    }

    /// One movie on the server, by id.
    func serverMovie(_ id: String) async throws -> [String: Any]? {
        try await serverMovies().first { $0["id"] as? String == id }
    }

    /// Requests received per route template, sent alone or inside a batch (`/admin/stats`).
    func stats() async throws -> [String: Int] {
        try await server.requestCounts().all
    }
}
