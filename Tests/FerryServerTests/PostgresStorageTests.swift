import FerryServer
import Foundation
import Logging
import Testing

/// What only PostgreSQL can show: servers sharing one database, and a database that is held
/// by another process or goes away. Skipped, with a message, without a test database.
@Suite(
    "PostgreSQL: shared by stateless servers, 503 when unusable, nothing lost",
    .enabled(if: TestStorage.postgresServer != nil, TestStorage.postgresSkipped)
)
struct PostgresStorageTests {
    /// A location in a schema of the test's own.
    static func freshLocation() throws -> PostgresLocation {
        try #require(TestStorage.postgresServer).inSchema(TestStorage.schema(for: nil))
    }

    static func start(
        _ location: PostgresLocation,
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    )
        async throws -> TestServer
    {
        try await TestServer.start(storage: .postgres(location)) {
            $0.postgres = location
            configure(&$0)
        }
    }

    @Test func aKeySentToTwoServersAtOnceIsAppliedOnceAndReplayedByTheOther() async throws {
        let location = try Self.freshLocation()
        let first = try await Self.start(location)
        let second = try await Self.start(location)
        let token = try await first.login()
        let before = try await second.request(.GET, "/v1/movies/m_demo_heat", token: token).object["version"] as? Int
        for index in 0..<10 {
            let key = "both-\(index)"
            async let one = first.request(
                .PATCH,
                "/v1/movies/m_demo_heat",
                json: ["recommender": key],
                token: token,
                headers: ["Idempotency-Key": key]
            )
            async let other = second.request(
                .PATCH,
                "/v1/movies/m_demo_heat",
                json: ["recommender": key],
                token: token,
                headers: ["Idempotency-Key": key]
            )
            let answers = try await [one, other]
            #expect(answers.map(\.status) == [200, 200])
            #expect(answers.filter { $0.header("Idempotent-Replayed") == "true" }.count == 1)
        }
        let after = try await first.request(.GET, "/v1/movies/m_demo_heat", token: token).object["version"] as? Int
        #expect(after == before.map { $0 + 10 })
        await first.stop()
        await second.stop()
    }

    @Test func sessionsAndLoginLimitsHoldAcrossServers() async throws {
        let location = try Self.freshLocation()
        let limited: (inout FerryServerConfiguration) -> Void = { $0.loginFailuresPerAccount = 2 }
        let first = try await Self.start(location, configure: limited)
        let second = try await Self.start(location, configure: limited)
        let token = try await first.login()
        #expect(try await second.request(.GET, "/v1/auth/me", token: token).status == 200)
        #expect(try await second.request(.POST, "/v1/auth/logout", token: token).status == 204)
        #expect(try await first.request(.GET, "/v1/auth/me", token: token).status == 401)

        let wrong = ["username": "demo", "password": "wrong"]
        #expect(try await first.request(.POST, "/v1/auth/login", json: wrong).status == 401)
        #expect(try await second.request(.POST, "/v1/auth/login", json: wrong).status == 401)
        let refused = try await first.request(
            .POST,
            "/v1/auth/login",
            json: ["username": "demo", "password": "demo-password"]
        )
        #expect(refused.status == 429 && refused.errorCode == "too_many_attempts")
        await first.stop()
        await second.stop()
    }

    @Test func dataSurvivesARestartAndDemoDataIsSeededOnce() async throws {
        let location = try Self.freshLocation()
        let first = try await Self.start(location)
        let token = try await first.login()
        #expect(
            try await first.request(.POST, "/v1/movies", json: ["tmdb_id": 78, "title": "Blade Runner"], token: token)
                .status == 201
        )
        await first.stop()

        let second = try await Self.start(location)
        let movies = try await second.request(.GET, "/v1/movies", token: try await second.login())
        let ids = (movies.object["movies"] as? [[String: Any]] ?? []).compactMap { $0["tmdb_id"] as? Int }
        #expect(ids.count == 5 && ids.contains(78))
        await second.stop()
    }

    @Test func aWriteWhileAnotherProcessHoldsTheTableIs503WithRetryAfterAndNothingChanged() async throws {
        let location = try Self.freshLocation()
        let server = try await Self.start(location) { $0.databaseBusyTimeout = 0.2 }
        let token = try await server.login()
        let other = try await PostgresAdmin.connect(location)
        try await other.run("BEGIN")
        try await other.run("LOCK TABLE \(location.schema).entities IN EXCLUSIVE MODE")
        let refused = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_heat",
            json: ["status": "watched"],
            token: token,
            headers: ["Idempotency-Key": "locked-1"]
        )
        #expect(refused.status == 503 && refused.errorCode == "database_unavailable")
        #expect(refused.header("Retry-After") == "1")
        try await other.run("ROLLBACK")
        await other.close()

        // The retry with the same key runs it once: the refusal was not recorded.
        let retried = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_heat",
            json: ["status": "watched"],
            token: token,
            headers: ["Idempotency-Key": "locked-1"]
        )
        #expect(retried.status == 200 && retried.object["version"] as? Int == 2)
        await server.stop()
    }

    @Test func aDatabaseThatGoesAwayAnswers503LosesNothingAndNeverShowsItsPassword() async throws {
        let shared = try #require(TestStorage.postgresServer)
        let schema = TestStorage.schema(for: nil)
        let role = "r" + schema
        let secret = "pw-\(UUID().uuidString)"
        let location = try PostgresLocation(
            url: "postgres://\(role):\(secret)@\(shared.host):\(shared.port)/\(shared.database)?schema=\(schema)"
        )
        let admin = try await PostgresAdmin.connect(shared)
        try await admin.run("CREATE ROLE \(role) LOGIN SUPERUSER")
        let store = CapturingLogHandler.Store()
        let server = try await Self.start(location) { configuration in
            configuration.logger = Logger(label: "ferry.server.tests") { _ in
                var handler = CapturingLogHandler(store: store)
                handler.logLevel = .trace
                return handler
            }
        }
        let token = try await server.login()
        let patch = { (key: String) in
            try await server.request(
                .PATCH,
                "/v1/movies/m_demo_heat",
                json: ["recommender": key],
                token: token,
                headers: ["Idempotency-Key": key]
            )
        }
        #expect(try await patch("before").object["version"] as? Int == 2)

        // The database turns the server away and ends its connections.
        try await admin.run("ALTER ROLE \(role) NOLOGIN")
        try await admin.run("SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE usename = '\(role)'")
        var answers = [try await patch("during")]
        answers.append(try await server.request(.GET, "/v1/movies", token: token))
        for answer in answers {
            #expect(answer.status == 503 && answer.errorCode == "database_unavailable")
            #expect(answer.header("Retry-After") == "1")
        }

        // Back: the refused write applies once, the one before it stays and is replayed.
        try await admin.run("ALTER ROLE \(role) LOGIN")
        #expect(try await patch("during").object["version"] as? Int == 3)
        let replayed = try await patch("before")
        #expect(replayed.header("Idempotent-Replayed") == "true" && replayed.object["version"] as? Int == 2)
        await server.stop()
        await admin.close()

        let lines = store.all
        #expect(lines.contains { $0.contains("database is unavailable") })
        for line in lines { #expect(!line.contains(secret)) }
        for answer in answers { #expect(!String(decoding: answer.body, as: UTF8.self).contains(secret)) }
    }
}
