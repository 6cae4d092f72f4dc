import AudioPlugin
import FerryServer
import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting

/// A real FerryServer with the demo library on a loopback port, logged in as `demo`, and
/// a runtime with the audio plugin pointed at it (in-memory store unless given, test
/// clock, manual connectivity on an unmetered link, a temporary data folder for tracks).
struct AudioHarness: Sendable {
    let server: RunningFerryServer
    let test: TestRuntime
    let folder: URL
    let token: String
    let audio: String
    let kernel: String

    var runtime: FerryRuntime { test.runtime }
    var clock: TestClock { test.clock }
    var connectivity: ManualConnectivity { test.connectivity }

    /// Starts a server and a runtime; `audio` is extra YAML under `audio:`; `executor`,
    /// when given, puts the runtime's requests on the wire (a `WireTap` over the real client).
    /// `kernel` is extra top-level YAML, such as `sync: {concurrency: 1}`.
    static func start(
        audio: String = "{}",
        kernel: String = "",
        store: FerryStore? = nil,
        folder: URL? = nil,
        executor: (any HTTPExecutor)? = nil
    ) async throws -> AudioHarness {
        try await start(kernel: kernel, store: store, folder: folder, executor: executor) { _ in audio }
    }

    /// Starts a server, reads its tracks' sizes (part key → bytes, as `GET /v1/audio/albums`
    /// lists them), then starts a runtime whose `audio:` YAML `audio` builds from them.
    static func start(
        kernel: String = "",
        store: FerryStore? = nil,
        folder: URL? = nil,
        executor: (any HTTPExecutor)? = nil,
        audio: ([String: Int64]) -> String
    ) async throws -> AudioHarness {
        let server = try await DemoFerryServer.start { $0.demoTrackSeconds = 0.1 }
        let token = try await server.login()
        let yaml = audio(try await trackSizes(server.baseURL, token: token))
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ferry-audio-\(UUID().uuidString)")
        let test = try await runtime(
            server: server,
            token: token,
            folder: folder,
            audio: yaml,
            kernel: kernel,
            store: store,
            clock: TestClock(),
            executor: executor
        )
        return AudioHarness(server: server, test: test, folder: folder, token: token, audio: yaml, kernel: kernel)
    }

    private static func runtime(
        server: RunningFerryServer,
        token: String,
        folder: URL,
        audio: String,
        kernel: String,
        store: FerryStore?,
        clock: TestClock,
        executor: (any HTTPExecutor)?
    ) async throws -> TestRuntime {
        let yaml =
            "data_dir: \(folder.path)\nretry: {base_delay: 1s, jitter: 0}\n\(kernel.isEmpty ? "" : kernel + "\n")plugins:\n  audio: \(audio)\n"
        return try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: [AudioPlugin.self],
            clock: clock,
            connectivity: ManualConnectivity(ConnectivityState(reachable: true, interface: .wifi)),
            credentials: StaticCredentials(token: token),
            executor: executor,
            store: store
        )
    }

    /// A new runtime on the same server, data folder and `store`, as a process started
    /// again would open them; its clock starts at `clock` (the old runtime's, moved on).
    func reopen(store: FerryStore, clock: TestClock, executor: (any HTTPExecutor)? = nil) async throws -> AudioHarness {
        let test = try await Self.runtime(
            server: server,
            token: token,
            folder: folder,
            audio: audio,
            kernel: kernel,
            store: store,
            clock: clock,
            executor: executor
        )
        return AudioHarness(server: server, test: test, folder: folder, token: token, audio: audio, kernel: kernel)
    }

    func library() throws -> AudioLibrary { try AudioLibrary(runtime: runtime) }

    /// Sets the link: unmetered Wi-Fi, metered cellular, or none.
    func link(_ kind: InterfaceKind, metered: Bool = false) {
        connectivity.set(ConnectivityState(reachable: kind != .none, interface: kind, metered: metered))
    }

    /// The folder the tracks are downloaded into.
    var tracksFolder: URL { folder.appendingPathComponent("audio/tracks") }

    /// The track files on disk, by name (partial downloads, `.NAME.part`, included).
    func filesOnDisk() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: tracksFolder.path)) ?? [])
    }

    /// Runs `body`, then stops the server and removes the data folder, whether `body`
    /// returned or threw.
    func use(_ body: (AudioHarness) async throws -> Void) async throws {
        do {
            try await body(self)
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    func stop() async {
        if let tap = runtime.executor as? WireTap { await tap.shutdown() }
        await runtime.shutdown()
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every track file's size, by part key, as the server's album list gives it.
    static func trackSizes(_ baseURL: String, token: String) async throws -> [String: Int64] {
        let answer = try await HTTPTransport(baseURL: baseURL).send(
            HTTPRequest("GET", "/v1/audio/albums", headers: [("Authorization", "Bearer \(token)")])
        )
        struct Track: Decodable { var part_key: String; var byte_size: Int64 }
        struct Album: Decodable { var tracks: [Track] }
        struct Body: Decodable { var albums: [Album] }
        let albums = try JSONDecoder().decode(Body.self, from: answer.body).albums
        return Dictionary(albums.flatMap(\.tracks).map { ($0.part_key, $0.byte_size) }, uniquingKeysWith: { first, _ in first })
    }

    /// Replaces a collection's albums on the server (the admin endpoint of the demo server).
    func setCollection(_ id: String, albums: [String]) async throws {
        _ = try await HTTPTransport(baseURL: server.baseURL).send(
            try .json("PUT", "/admin/audio/collections/\(id)", body: ["album_ids": albums])
        )
    }

    /// Injects the server's deterministic fault `kind` into the next `count` requests for
    /// track files, or for paths under `pathPrefix` (as `PUT /admin/faults` does,
    /// docs/protocol.md §14).
    func failNext(_ kind: String, count: Int, pathPrefix: String = "/v1/audio/files") async throws {
        guard let kind = FaultKind(rawValue: kind) else { throw FerryError(.usage, "no fault kind \(kind)") }
        server.setFaults(FaultSettings(failNext: .init(kind: kind, count: count), pathPrefix: pathPrefix))
    }

    /// Requests the server received on their own, per method and route template (`GET /admin/stats`).
    func stats() async throws -> [String: Int] {
        try await server.requestCounts().requests
    }

    /// How many track files the server was asked for.
    func fileRequests() async throws -> Int {
        try await stats()["GET /v1/audio/files/{part_key}", default: 0]
    }

    /// The SHA-256 each file (part key) is listed with in the library on this device.
    func listedChecksums() async throws -> [String: String] {
        try await runtime.store.read { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT part_key, sha256 FROM audio_tracks").map {
                    ($0["part_key"] as String, $0["sha256"] as String)
                },
                uniquingKeysWith: { first, _ in first }
            )
        }
    }

    /// The audio plugin's queued download operations, by file.
    func downloadOperations() async throws -> [QueuedOperation] {
        try await test.operations().filter { $0.plugin == AudioPlugin.name && $0.kind == "download" }
    }

    /// The file cache of the audio plugin.
    func files() throws -> FileCache { try runtime.plugin(AudioPlugin.self).files }
}

/// The demo library's names (Sources/FerryServer/Demo/DemoAudio.swift).
enum Demo {
    /// Track `number` of demo album `album` (1...3): `trk_demo-a1-t2`.
    static func track(_ album: Int, _ number: Int) -> String { "trk_demo-a\(album)-t\(number)" }
    /// Its file (part key): `demo-a1-t2.wav`.
    static func file(_ album: Int, _ number: Int) -> String { "demo-a\(album)-t\(number).wav" }
    /// The three files of demo album `album`.
    static func files(album: Int) -> Set<String> { Set((1...3).map { file(album, $0) }) }
    /// Every track of albums 1, 2 and 3, in order.
    static let allTracks = (1...3).flatMap { album in (1...3).map { track(album, $0) } }
    /// Every file of albums 1, 2 and 3, in order.
    static let allFiles = (1...3).flatMap { album in (1...3).map { file(album, $0) } }
}
