import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import Testing

/// The reference server with demo data (``DemoFerryServer``), and what recipe tests ask of it.
struct RecipeServer {
    let server: RunningFerryServer

    var url: String { server.baseURL }

    static func start() async throws -> RecipeServer {
        RecipeServer(server: try await DemoFerryServer.start { $0.demoTrackSeconds = 0.1 })
    }

    /// Runs `body` with a started server and stops it afterwards, whatever happens.
    static func with<T>(_ body: (RecipeServer) async throws -> T) async throws -> T {
        try await DemoFerryServer.with(
            configure: { $0.demoTrackSeconds = 0.1 },
            { server in try await body(RecipeServer(server: server)) }
        )
    }

    private var transport: HTTPTransport { HTTPTransport(baseURL: url) }

    /// Logs in and returns an access token.
    func login(_ username: String = "demo", _ password: String = "demo-password") async throws -> String {
        try await server.login(username, password: password)
    }

    /// Requests received per `METHOD /template` since the last reset, sent alone or inside a batch.
    func stats() async throws -> [String: Int] {
        try await server.requestCounts().all
    }

    /// Requests received whose key contains `fragment` (e.g. `saved-recipes`).
    func count(_ fragment: String) async throws -> Int {
        try await stats().filter { $0.key.contains(fragment) }.values.reduce(0, +)
    }

    func resetStats() async throws {
        try await server.resetRequestCounts()
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
