import Foundation
import SyncKernel

/// The auth endpoints of docs/protocol.md, section 2.
struct AuthClient: Sendable {
    /// The plugin's transport without credentials, for login and refresh.
    let anonymous: HTTPTransport
    /// The plugin's transport with credentials, for me and logout.
    let authenticated: HTTPTransport

    func login(username: String, password: String) async throws -> TokenAnswer {
        let response = try await anonymous.send(
            try .json("POST", "/v1/auth/login", body: ["username": username, "password": password])
        )
        return try response.decode(TokenAnswer.self)
    }

    func refresh(refreshToken: String) async throws -> TokenAnswer {
        let response = try await anonymous.send(
            try .json("POST", "/v1/auth/refresh", body: ["refresh_token": refreshToken])
        )
        return try response.decode(TokenAnswer.self)
    }

    func me() async throws -> Session.User {
        try await authenticated.send(HTTPRequest("GET", "/v1/auth/me")).decode(MeAnswer.self).user
    }

    func logout(token: String) async throws {
        _ = try await anonymous.send(
            HTTPRequest("POST", "/v1/auth/logout", headers: [("Authorization", "Bearer \(token)")])
        )
    }
}
