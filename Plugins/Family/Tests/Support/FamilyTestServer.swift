import FamilyPlugin
import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting

/// A real FerryServer with its demo family (group `g_demo_family`, round `r_demo_round`
/// with suggestions 129 and 603), and runtimes of the family plugin talking to it.
struct FamilyTestServer: Sendable {
    let server: RunningFerryServer

    static let group = "g_demo_family"
    static let round = "r_demo_round"
    static let online = "plugins:\n  family: {}\n"

    /// Runs `body` against a fresh server, and stops the server afterwards.
    static func with(_ body: (FamilyTestServer) async throws -> Void) async throws {
        try await DemoFerryServer.with { server in try await body(FamilyTestServer(server: server)) }
    }

    /// Logs `username` in (a new session, as a new device would) and returns the access token.
    func login(_ username: String = "demo") async throws -> String {
        try await server.login(username)
    }

    /// A runtime of its own (its own in-memory store) signed in as `username`.
    func device(_ username: String = "demo", yaml: String = online) async throws -> Device {
        let credentials = StaticCredentials(token: try await login(username))
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: [FamilyPlugin.self],
            credentials: credentials
        )
        test.connectivity.set(.online)
        return Device(test: test, credentials: credentials)
    }

    /// `GET path` on the server as `username`, decoded.
    func get<T: Decodable>(_ path: String, as username: String = "demo", _ type: T.Type = T.self) async throws -> T {
        let transport = HTTPTransport(
            baseURL: server.baseURL,
            credentials: StaticCredentials(token: try await login(username))
        )
        return try JSONDecoder().decode(T.self, from: try await transport.send(HTTPRequest("GET", path)).body)
    }

    /// The round as the server holds it, read as demo.
    func round(_ id: String = round) async throws -> FamilyRoundDetail {
        try await get("/v1/rounds/\(id)")
    }

    /// Requests received per route, sent alone or inside a batch (`/admin/stats`).
    func requests() async throws -> [String: Int] {
        try await server.requestCounts().all
    }

    /// Request counts of `/v1` routes other than login (what the plugin sent).
    func pluginRequests() async throws -> Int {
        try await requests().filter { $0.key.contains("/v1/") && !$0.key.contains("/v1/auth/") }.values.reduce(0, +)
    }
}

/// One device: a runtime with its own store, and the credentials it signs in with.
struct Device: Sendable {
    let test: TestRuntime
    let credentials: StaticCredentials

    var runtime: FerryRuntime { test.runtime }
    var family: FamilyClient { FamilyClient(runtime: test.runtime) }

    func offline() { test.connectivity.set(.offline) }
    func online() { test.connectivity.set(.online) }

    func conflicts() async throws -> [ConflictReport] {
        try await runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
    }
}
