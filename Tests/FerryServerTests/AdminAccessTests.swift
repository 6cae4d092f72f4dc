import Foundation
import Testing

@Suite("Admin endpoints: off, loopback or token")
struct AdminAccessTests {
    @Test func offAnswersAsIfThereWereNoAdminEndpoints() async throws {
        let server = try await TestServer.start { $0.admin = .off }
        let stats = try await server.request(.GET, "/admin/stats")
        #expect(stats.status == 404)
        let faults = try await server.request(.PUT, "/admin/faults", json: ["fail_rate": 1.0])
        #expect(faults.status == 404)
        #expect(try await server.request(.GET, "/v1/health").status == 200, "a fault was set")
        await server.stop()
    }

    @Test func aTokenIsNeededFromEveryCallerLoopbackIncluded() async throws {
        let server = try await TestServer.start { $0.admin = .token("s3cret-admin") }
        #expect(try await server.request(.GET, "/admin/stats").status == 403)
        #expect(try await server.request(.GET, "/admin/stats", token: "wrong").status == 403)
        let user = try await server.login()
        #expect(try await server.request(.GET, "/admin/stats", token: user).status == 403, "a user token opened /admin")
        #expect(try await server.request(.GET, "/admin/stats", token: "s3cret-admin").status == 200)
        await server.stop()
    }
}
