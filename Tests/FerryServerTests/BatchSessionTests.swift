import Foundation
import Testing

@testable import FerryServer

@Suite("Sessions inside batches, and password checks")
struct BatchSessionTests {
    @Test func aLogoutEndsTheSessionForTheRestOfItsBatch() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let requests: [[String: Any]] = [
            ["method": "GET", "path": "/v1/auth/me"],
            ["method": "POST", "path": "/v1/auth/logout"],
            ["method": "GET", "path": "/v1/auth/me"],
            ["method": "PATCH", "path": "/v1/movies/m_demo_heat", "body": ["status": "watched"]],
        ]
        let response = try await server.request(.POST, "/v1/batch", json: ["requests": requests], token: token)
        let responses = try #require(response.object["responses"] as? [[String: Any]])
        #expect(responses.map { $0["status"] as? Int } == [200, 204, 401, 401])
        let refusal = (responses[3]["body"] as? [String: Any])?["error"] as? [String: Any]
        #expect((refusal?["details"] as? [String: Any])?["reason"] as? String == "revoked")
        let other = try await server.login()
        let movie = try await server.request(.GET, "/v1/movies/m_demo_heat", token: other)
        #expect(movie.object["status"] as? String == "want_to_watch", "a write after the logout was applied")
        await server.stop()
    }

    @Test func anUnknownKeyInASubRequestIsAnInvalidSubRequest() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let response = try await server.request(
            .POST,
            "/v1/batch",
            json: ["requests": [["method": "GET", "path": "/v1/auth/me", "query": "x"]]],
            token: token
        )
        let responses = try #require(response.object["responses"] as? [[String: Any]])
        let error = (responses.first?["body"] as? [String: Any])?["error"] as? [String: Any]
        #expect(responses.first?["status"] as? Int == 400)
        #expect(error?["code"] as? String == "invalid_subrequest")
        #expect((error?["details"] as? [String: Any])?["field"] as? String == "query")
        await server.stop()
    }

    @Test func anUnknownUsernameCostsABcryptCheckAtTheConfiguredCost() async throws {
        let passwords = Passwords(cost: 6)
        #expect(await passwords.verify("anything", hash: nil) == false)
        #expect(passwords.hashForUnknownUsers().hasPrefix("$2b$06$"))
        let server = try await TestServer.start()
        let unknown = try await server.request(.POST, "/v1/auth/login", json: ["username": "nobody", "password": "x"])
        let wrong = try await server.request(.POST, "/v1/auth/login", json: ["username": "demo", "password": "x"])
        #expect(unknown.status == 401 && wrong.status == 401)
        #expect(unknown.body == wrong.body, "the answers tell unknown usernames apart")
        await server.stop()
    }
}
