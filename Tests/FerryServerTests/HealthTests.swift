import FerryServer
import Testing

@Suite("Health and lifecycle")
struct HealthTests {
    @Test func healthAnswersWithoutAuth() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let response = try await server.request(.GET, "/v1/health")
        #expect(response.status == 200)
        #expect(response.object["status"] as? String == "ok")
        #expect(server.server.baseURL == "http://127.0.0.1:\(server.server.port)")
        await server.stop()
    }

    @Test func unknownPathIsA404WithTheErrorShape() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let response = try await server.request(.GET, "/v1/nothing-here")
        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
        #expect(response.hasErrorShape)
        await server.stop()
    }

    @Test func wrongMethodIsA405() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let response = try await server.request(.DELETE, "/v1/health")
        #expect(response.status == 405)
        #expect(response.errorCode == "method_not_allowed")
        #expect(response.header("Allow") == "GET, HEAD")
        await server.stop()
    }

    @Test func stopClosesTheListener() async throws {
        let server = try await TestServer.start(seedDemo: false)
        await server.stop()
        await #expect(throws: (any Error).self) {
            _ = try await server.request(.GET, "/v1/health", timeout: .seconds(2))
        }
    }
}
