import Logging
import Testing

@Suite("Request logging")
struct LoggingTests {
    @Test func eachRequestIsLoggedWithoutSecrets() async throws {
        let store = CapturingLogHandler.Store()
        let server = try await TestServer.start { configuration in
            configuration.logger = Logger(label: "ferry.server.tests") { _ in CapturingLogHandler(store: store) }
        }
        let token = try await server.login()
        _ = try await server.request(.GET, "/v1/auth/me", token: token)
        _ = try await server.request(.GET, "/tmdb/3/movie/949?api_key=ferry-demo-tmdb-token")
        _ = try await server.request(.POST, "/v1/auth/login", json: ["username": "demo", "password": "wrong-secret"])
        await server.stop()
        let lines = store.all
        let me = try #require(lines.first { $0.contains("GET /v1/auth/me 200") })
        #expect(me.hasPrefix("info"))
        #expect(me.contains("duration_ms="))
        #expect(me.contains("status=200"))
        #expect(lines.contains { $0.contains("GET /tmdb/3/movie/949 200") })
        #expect(lines.contains { $0.contains("POST /v1/auth/login 401") })
        for line in lines {
            #expect(!line.contains(token))
            #expect(!line.contains("ferry-demo-tmdb-token"))
            #expect(!line.contains("demo-password"))
            #expect(!line.contains("wrong-secret"))
        }
    }
}
