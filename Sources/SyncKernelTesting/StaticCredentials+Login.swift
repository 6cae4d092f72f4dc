import Foundation
import SyncKernel

extension StaticCredentials {
    /// Signs `username` in at a server that speaks docs/protocol.md (`POST /v1/auth/login`)
    /// and returns credentials with its access token and its account (the user's id), as
    /// the auth plugin would lend them to a plugin.
    ///
    /// ```swift
    /// let credentials = try await StaticCredentials.signedIn(at: server.baseURL)
    /// let test = try await TestRuntime.make(server: server.baseURL, yaml: yaml, plugins: [MyPlugin.self], credentials: credentials)
    /// ```
    public static func signedIn(
        at baseURL: String,
        username: String = "demo",
        password: String = "demo-password"
    ) async throws -> StaticCredentials {
        struct Answer: Decodable {
            struct User: Decodable { var id: String }
            var access_token: String
            var user: User
        }
        let answer = try await HTTPTransport(baseURL: baseURL).send(
            try .json("POST", "/v1/auth/login", body: ["username": username, "password": password])
        )
        let session = try JSONDecoder().decode(Answer.self, from: answer.body)
        return StaticCredentials(token: session.access_token, account: session.user.id)
    }
}
