import FerryServer
import Foundation
import Logging
import SyncKernel
import Testing

/// A real FerryServer with demo data on a free loopback port, and what tests ask of it.
struct RecipeServer {
    let server: RunningFerryServer

    var url: String { server.baseURL }

    static func start() async throws -> RecipeServer {
        var logger = Logger(label: "recipes.tests.server")
        logger.logLevel = .warning
        var configuration = FerryServerConfiguration(port: 0, seedDemo: true, logger: logger)
        configuration.passwordHashCost = 4
        configuration.demoTrackSeconds = 0.1
        return RecipeServer(server: try await FerryServer.start(configuration))
    }

    /// Runs `body` with a started server and stops it afterwards, whatever happens.
    static func with<T>(_ body: (RecipeServer) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.server.stop()
            return result
        } catch {
            await server.server.stop()
            throw error
        }
    }

    private var transport: HTTPTransport { HTTPTransport(baseURL: url) }

    /// Logs in and returns an access token.
    func login(_ username: String = "demo", _ password: String = "demo-password") async throws -> String {
        let response = try await transport.send(
            try .json("POST", "/v1/auth/login", body: ["username": username, "password": password])
        )
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return try #require(object?["access_token"] as? String)
    }

    /// Requests received per `METHOD /template` since the last reset.
    /// Requests received per route, sent alone or inside a batch.
    func stats() async throws -> [String: Int] {
        let response = try await transport.send(HTTPRequest("GET", "/admin/stats", authenticated: false))
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let alone = object?["requests"] as? [String: Int] ?? [:]
        return alone.merging(object?["batched"] as? [String: Int] ?? [:], uniquingKeysWith: +)
    }

    /// Requests received whose key contains `fragment` (e.g. `saved-recipes`).
    func count(_ fragment: String) async throws -> Int {
        try await stats().filter { $0.key.contains(fragment) }.values.reduce(0, +)
    }

    func resetStats() async throws {
        _ = try await transport.send(HTTPRequest("DELETE", "/admin/stats", authenticated: false))
    }

    /// The ids `token`'s user has saved, as the server knows them.
    func savedIDs(token: String) async throws -> Set<String> {
        let response = try await transport.with(credentials: Bearer(token)).send(
            HTTPRequest("GET", "/v1/saved-recipes")
        )
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let list = (object?["saved_recipes"] as? [[String: Any]]) ?? []
        return Set(list.compactMap { $0["id"] as? String })
    }

    /// A recipe as the server holds it, or nil.
    func recipe(_ id: String, token: String) async throws -> [String: Any]? {
        do {
            let response = try await transport.with(credentials: Bearer(token)).send(
                HTTPRequest("GET", "/v1/recipes/\(id)")
            )
            return try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        } catch let failure as RemoteFailure where failure.status == 404 {
            return nil
        }
    }

    /// Saves `id` for `token`'s user directly on the server (another device).
    func saveElsewhere(_ id: String, token: String) async throws {
        _ = try await transport.with(credentials: Bearer(token)).send(HTTPRequest("PUT", "/v1/saved-recipes/\(id)"))
    }
}

/// A fixed bearer token for the helper's own requests.
struct Bearer: CredentialProvider {
    let token: String
    init(_ token: String) { self.token = token }
    func accessToken() async -> String? { token }
    func refreshAccessToken(rejected: String) async -> String? { nil }
}
