import AudioPlugin
import FerryServer
import Foundation
import Logging
import SyncKernel
import SyncKernelTesting

/// A real FerryServer with the demo library on a loopback port, logged in as `demo`, and
/// a runtime with the audio plugin pointed at it (in-memory store unless given, test
/// clock, manual connectivity on an unmetered link, a temporary data folder for tracks).
struct AudioHarness: Sendable {
    let server: RunningFerryServer
    let test: TestRuntime
    let folder: URL

    var runtime: FerryRuntime { test.runtime }
    var clock: TestClock { test.clock }
    var connectivity: ManualConnectivity { test.connectivity }

    /// Starts a server and a runtime; `audio` is extra YAML under `audio:`.
    static func start(audio: String = "{}", store: FerryStore? = nil, folder: URL? = nil) async throws -> AudioHarness {
        var configuration = FerryServerConfiguration(port: 0, seedDemo: true)
        configuration.passwordHashCost = 4
        configuration.demoTrackSeconds = 0.1
        var logger = Logger(label: "test.server")
        logger.logLevel = .critical
        configuration.logger = logger
        let server = try await FerryServer.start(configuration)
        let token = try await login(server.baseURL)
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ferry-audio-\(UUID().uuidString)")
        let yaml = "data_dir: \(folder.path)\nretry: {base_delay: 1s, jitter: 0}\nplugins:\n  audio: \(audio)\n"
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: [AudioPlugin.self],
            connectivity: ManualConnectivity(ConnectivityState(reachable: true, interface: .wifi)),
            credentials: StaticCredentials(token: token),
            store: store
        )
        return AudioHarness(server: server, test: test, folder: folder)
    }

    func library() throws -> AudioLibrary { try AudioLibrary(runtime: runtime) }

    /// Sets the link: unmetered Wi-Fi, metered cellular, or none.
    func link(_ kind: InterfaceKind, metered: Bool = false) {
        connectivity.set(ConnectivityState(reachable: kind != .none, interface: kind, metered: metered))
    }

    /// The track files on disk, by name.
    func filesOnDisk() -> Set<String> {
        let tracks = folder.appendingPathComponent("audio/tracks")
        return Set((try? FileManager.default.contentsOfDirectory(atPath: tracks.path)) ?? [])
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static func login(_ baseURL: String) async throws -> String {
        let login = try await HTTPTransport(baseURL: baseURL).send(
            try .json("POST", "/v1/auth/login", body: ["username": "demo", "password": "demo-password"])
        )
        struct Body: Decodable { var access_token: String }
        return try JSONDecoder().decode(Body.self, from: login.body).access_token
    }

    /// Replaces a collection's albums on the server (the admin endpoint of the demo server).
    func setCollection(_ id: String, albums: [String]) async throws {
        _ = try await HTTPTransport(baseURL: server.baseURL).send(
            try .json("PUT", "/admin/audio/collections/\(id)", body: ["album_ids": albums])
        )
    }
}
