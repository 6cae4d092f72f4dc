import AsyncHTTPClient
import FerryServer
import Foundation
import NIOCore

/// What tests ask of a running reference server over its own HTTP API: a session for a
/// demo user and the request counts of `/admin/stats`.
extension RunningFerryServer {
    /// Signs `username` in (`POST /v1/auth/login`, a new session as a new device would
    /// open) and returns the access token. The demo users' passwords are
    /// `<username>-password`, the default here.
    public func login(_ username: String = "demo", password: String? = nil) async throws -> String {
        let body = try JSONSerialization.data(
            withJSONObject: ["username": username, "password": password ?? "\(username)-password"]
        )
        let (status, answer) = try await send("POST", "/v1/auth/login", body: body)
        struct Session: Decodable { var access_token: String }
        guard status == 200, let session = try? JSONDecoder().decode(Session.self, from: answer) else {
            let text = String(decoding: answer, as: UTF8.self)
            throw DemoServerFailure("login as \(username) answered \(status): \(text)")
        }
        return session.access_token
    }

    /// The requests the server has counted since it started or since
    /// ``resetRequestCounts()`` (`GET /admin/stats`).
    public func requestCounts() async throws -> ServerRequestCounts {
        let (status, answer) = try await send("GET", "/admin/stats")
        guard status == 200 else { throw DemoServerFailure("GET /admin/stats answered \(status)") }
        return try JSONDecoder().decode(ServerRequestCounts.self, from: answer)
    }

    /// Forgets the request counts (`DELETE /admin/stats`).
    public func resetRequestCounts() async throws {
        let (status, _) = try await send("DELETE", "/admin/stats")
        guard (200..<300).contains(status) else { throw DemoServerFailure("DELETE /admin/stats answered \(status)") }
    }

    /// Sends one request to the server and returns its status and body.
    private func send(_ method: String, _ path: String, body: Data? = nil) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), Data(buffer.readableBytesView))
    }
}

/// The request counts of `GET /admin/stats`, per `METHOD /route/{template}`
/// (`"PUT /v1/recipes/{id}"`).
public struct ServerRequestCounts: Sendable, Decodable {
    /// Requests sent on their own.
    public var requests: [String: Int]
    /// Sub-requests of `POST /v1/batch`.
    public var batched: [String: Int]

    /// Requests received per route, sent alone or inside a batch: what a client asked for,
    /// however it grouped it.
    public var all: [String: Int] { requests.merging(batched, uniquingKeysWith: +) }
}

/// The reference server did not answer a test's helper request as it should have.
public struct DemoServerFailure: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
