import Foundation
import Testing

@Suite("Auth: login, refresh rotation, logout, me, expiry")
struct AuthTests {
    @Test func loginReturnsTokensAndTheUser() async throws {
        let server = try await TestServer.start()
        let response = try await server.request(
            .POST,
            "/v1/auth/login",
            json: ["username": "demo", "password": "demo-password"]
        )
        #expect(response.status == 200)
        #expect(response.object["token_type"] as? String == "Bearer")
        #expect(response.object["expires_in"] as? Int == 3600)
        #expect(response.object["refresh_expires_in"] as? Int == 2_592_000)
        #expect((response.object["access_token"] as? String)?.isEmpty == false)
        #expect((response.object["refresh_token"] as? String)?.isEmpty == false)
        let user = try #require(response.object["user"] as? [String: Any])
        #expect(user["username"] as? String == "demo")
        #expect(user["display_name"] as? String == "Demo User")
        #expect(user["id"] as? String == "u_demo")
        await server.stop()
    }

    @Test func wrongPasswordAndUnknownUserAre401() async throws {
        let server = try await TestServer.start()
        for body in [["username": "demo", "password": "nope"], ["username": "ghost", "password": "x"]] {
            let response = try await server.request(.POST, "/v1/auth/login", json: body)
            #expect(response.status == 401)
            #expect(response.errorCode == "invalid_credentials")
            #expect(response.hasErrorShape)
        }
        await server.stop()
    }

    @Test func meNeedsAValidToken() async throws {
        let server = try await TestServer.start()
        let missing = try await server.request(.GET, "/v1/auth/me")
        #expect(missing.status == 401)
        #expect(missing.errorCode == "unauthorized")
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        let bogus = try await server.request(.GET, "/v1/auth/me", token: "not-a-token")
        #expect(bogus.status == 401)
        let token = try await server.login()
        let me = try await server.request(.GET, "/v1/auth/me", token: token)
        #expect(me.status == 200)
        #expect((me.object["user"] as? [String: Any])?["username"] as? String == "demo")
        await server.stop()
    }

    @Test func accessTokensExpireOnTheInjectedClock() async throws {
        let server = try await TestServer.start { $0.accessTokenLifetime = 60 }
        let token = try await server.login()
        #expect(try await server.request(.GET, "/v1/auth/me", token: token).status == 200)
        server.clock.advance(by: 61)
        let expired = try await server.request(.GET, "/v1/auth/me", token: token)
        #expect(expired.status == 401)
        #expect(expired.errorDetails["reason"] as? String == "expired")
        await server.stop()
    }

    @Test func refreshRotatesAndRevokesTheOldPair() async throws {
        let server = try await TestServer.start()
        let login = try await server.request(
            .POST,
            "/v1/auth/login",
            json: ["username": "demo", "password": "demo-password"]
        )
        let oldAccess = try #require(login.object["access_token"] as? String)
        let oldRefresh = try #require(login.object["refresh_token"] as? String)
        let refreshed = try await server.request(.POST, "/v1/auth/refresh", json: ["refresh_token": oldRefresh])
        #expect(refreshed.status == 200)
        let newAccess = try #require(refreshed.object["access_token"] as? String)
        let newRefresh = try #require(refreshed.object["refresh_token"] as? String)
        #expect(newAccess != oldAccess)
        #expect(newRefresh != oldRefresh)
        #expect((refreshed.object["user"] as? [String: Any])?["username"] as? String == "demo")
        #expect(try await server.request(.GET, "/v1/auth/me", token: oldAccess).status == 401)
        #expect(try await server.request(.GET, "/v1/auth/me", token: newAccess).status == 200)
        // The answer to that refresh may have been lost on its way: the old refresh token,
        // presented again while the pair that replaced it was never refreshed, rotates once more.
        server.clock.advance(by: 1)
        let retried = try await server.request(.POST, "/v1/auth/refresh", json: ["refresh_token": oldRefresh])
        #expect(retried.status == 200)
        let retriedAccess = try #require(retried.object["access_token"] as? String)
        #expect(try await server.request(.GET, "/v1/auth/me", token: newAccess).status == 401)
        #expect(try await server.request(.GET, "/v1/auth/me", token: retriedAccess).status == 200)
        #expect(try await server.request(.POST, "/v1/auth/refresh", json: ["refresh_token": newRefresh]).status == 401)
        // Once the pair it got has been refreshed, the old token is no longer the last one
        // rotated: presenting it is theft, and the whole session is revoked.
        server.clock.advance(by: 1)
        let retriedRefresh = try #require(retried.object["refresh_token"] as? String)
        let next = try await server.request(.POST, "/v1/auth/refresh", json: ["refresh_token": retriedRefresh])
        let nextAccess = try #require(next.object["access_token"] as? String)
        let reused = try await server.request(.POST, "/v1/auth/refresh", json: ["refresh_token": oldRefresh])
        #expect(reused.status == 401)
        #expect(reused.errorDetails["reason"] as? String == "reused")
        #expect(try await server.request(.GET, "/v1/auth/me", token: nextAccess).status == 401)
        await server.stop()
    }

    @Test func refreshTokensExpire() async throws {
        let server = try await TestServer.start { $0.refreshTokenLifetime = 120 }
        let login = try await server.request(
            .POST,
            "/v1/auth/login",
            json: ["username": "demo", "password": "demo-password"]
        )
        let refresh = try #require(login.object["refresh_token"] as? String)
        server.clock.advance(by: 121)
        let response = try await server.request(.POST, "/v1/auth/refresh", json: ["refresh_token": refresh])
        #expect(response.status == 401)
        #expect(response.errorDetails["reason"] as? String == "expired")
        await server.stop()
    }

    @Test func logoutRevokesTheSession() async throws {
        let server = try await TestServer.start()
        let login = try await server.request(
            .POST,
            "/v1/auth/login",
            json: ["username": "demo", "password": "demo-password"]
        )
        let access = try #require(login.object["access_token"] as? String)
        let refresh = try #require(login.object["refresh_token"] as? String)
        #expect(try await server.request(.POST, "/v1/auth/logout", token: access).status == 204)
        let me = try await server.request(.GET, "/v1/auth/me", token: access)
        #expect(me.status == 401)
        #expect(me.errorDetails["reason"] as? String == "revoked")
        #expect(try await server.request(.POST, "/v1/auth/refresh", json: ["refresh_token": refresh]).status == 401)
        await server.stop()
    }

    @Test func adminCreatesUsersFromLoopback() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let token = try await server.createUser("alice", password: "alice-pw")
        let me = try await server.request(.GET, "/v1/auth/me", token: token)
        #expect((me.object["user"] as? [String: Any])?["username"] as? String == "alice")
        let again = try await server.request(.POST, "/admin/users", json: ["username": "alice", "password": "x"])
        #expect(again.status == 409)
        #expect(again.errorCode == "username_taken")
        await server.stop()
    }
}
