import Foundation
import Testing

@Suite("Failed logins are limited per account and per address")
struct LoginLimitTests {
    static func attempt(_ server: TestServer, _ username: String, _ password: String) async throws -> TestResponse {
        try await server.request(.POST, "/v1/auth/login", json: ["username": username, "password": password])
    }

    @Test func anAccountPastItsLimitWaitsOutTheWindowEvenWithTheRightPassword() async throws {
        let server = try await TestServer.start {
            $0.loginFailuresPerAccount = 3
            $0.loginWindow = 600
        }
        for _ in 0..<3 { #expect(try await Self.attempt(server, "demo", "guess").status == 401) }
        let refused = try await Self.attempt(server, "demo", "demo-password")
        #expect(refused.status == 429 && refused.errorCode == "too_many_attempts")
        #expect(refused.header("Retry-After") == "600")
        // Another account from the same address is not locked out by demo's failures.
        #expect(try await Self.attempt(server, "sam", "sam-password").status == 200)

        server.clock.advance(by: 601)
        #expect(try await Self.attempt(server, "demo", "demo-password").status == 200)
        // A success clears the account's count.
        for _ in 0..<2 { _ = try await Self.attempt(server, "demo", "guess") }
        #expect(try await Self.attempt(server, "demo", "demo-password").status == 200)
        await server.stop()
    }

    @Test func oneAddressTryingManyUsernamesIsLimitedToo() async throws {
        let server = try await TestServer.start {
            $0.loginFailuresPerAddress = 5
            $0.loginFailuresPerAccount = 100
        }
        for index in 0..<5 { #expect(try await Self.attempt(server, "user\(index)", "x").status == 401) }
        #expect(try await Self.attempt(server, "demo", "demo-password").status == 429)
        await server.stop()
    }
}
