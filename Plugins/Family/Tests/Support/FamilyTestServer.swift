import FamilyPlugin
import FerryServer
import Foundation
import Logging
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
        var logger = Logger(label: "ferry.server.test")
        logger.logLevel = .warning
        var configuration = FerryServerConfiguration(port: 0, seedDemo: true, logger: logger)
        configuration.passwordHashCost = 4
        let server = try await FerryServer.start(configuration)
        do {
            try await body(FamilyTestServer(server: server))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Logs `username` in (a new session, as a new device would) and returns the access token.
    func login(_ username: String = "demo") async throws -> String {
        struct Body: Decodable { var access_token: String }
        let response = try await HTTPTransport(baseURL: server.baseURL).send(
            try .json("POST", "/v1/auth/login", body: ["username": username, "password": "\(username)-password"])
        )
        return try JSONDecoder().decode(Body.self, from: response.body).access_token
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

    /// Request counts per route (`/admin/stats`).
    /// Requests received per route, sent alone or inside a batch.
    func requests() async throws -> [String: Int] {
        struct Body: Decodable { var requests: [String: Int], batched: [String: Int] }
        let response = try await HTTPTransport(baseURL: server.baseURL).send(
            HTTPRequest("GET", "/admin/stats", authenticated: false)
        )
        let body = try JSONDecoder().decode(Body.self, from: response.body)
        return body.requests.merging(body.batched, uniquingKeysWith: +)
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
