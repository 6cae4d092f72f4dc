import Foundation
import Logging
import Testing

@testable import FerryServer

/// The connection to PostgreSQL as a URL's `sslmode`, `sslrootcert` and `pool_size` ask,
/// against the test database, which offers TLS with a certificate for localhost and
/// 127.0.0.1 signed by a throwaway authority (`.ci/postgres` makes both).
@Suite(
    "PostgreSQL: TLS and the connection pool as the URL asks",
    .enabled(if: TestAuthority.path != nil, TestAuthority.skipped)
)
struct PostgresTLSTests {
    static var authority: String? { TestAuthority.path }

    /// The test database, reached as `host` with the URL's extra `parameters`.
    static func location(host: String = "127.0.0.1", _ parameters: String) throws -> PostgresLocation {
        let server = try #require(TestStorage.postgresServer)
        let url = "postgres://\(server.user)@\(host):\(server.port)/\(server.database)?\(parameters)"
        return try PostgresLocation(url: url).inSchema(TestStorage.schema(for: nil))
    }

    static func open(_ location: PostgresLocation) async throws -> PostgresEngine {
        try await PostgresEngine.open(location, busyTimeout: 5, logger: Logger(label: "ferry.server.tests.tls"))
    }

    /// Runs `body` on an engine opened at `location`, and closes the engine afterwards.
    static func withEngine<Value>(
        _ location: PostgresLocation,
        _ body: (PostgresEngine) async throws -> Value
    ) async throws -> Value {
        let engine = try await open(location)
        do {
            let value = try await body(engine)
            await engine.close()
            return value
        } catch {
            await engine.close()
            throw error
        }
    }

    /// Whether the engine's connection is encrypted, as the database sees it.
    static func encrypted(_ engine: PostgresEngine) async throws -> Bool {
        try await engine.read { db in
            try db.fetchValue(
                Int.self,
                sql: "SELECT CASE WHEN ssl THEN 1 ELSE 0 END FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
            )
        } == 1
    }

    @Test(arguments: [
        ("127.0.0.1", "sslmode=prefer", true), ("127.0.0.1", "sslmode=disable", false),
        ("127.0.0.1", "sslmode=require", true), ("localhost", "sslmode=verify-full&sslrootcert=", true),
        ("127.0.0.1", "sslmode=verify-ca&sslrootcert=", true),
    ])
    func eachModeConnectsAsItSays(host: String, parameters: String, encrypted: Bool) async throws {
        let authority = try #require(Self.authority)
        let location = try Self.location(
            host: host,
            parameters.hasSuffix("sslrootcert=") ? parameters + authority : parameters
        )
        let isEncrypted = try await Self.withEngine(location) { try await Self.encrypted($0) }
        #expect(isEncrypted == encrypted)
    }

    @Test func theDefaultIsEncryptedWhenTheDatabaseOffersIt() async throws {
        #expect(try await Self.withEngine(try Self.location("")) { try await Self.encrypted($0) })
    }

    @Test func aCertificateNoTrustedAuthoritySignedIsRefusedWithTheReason() async throws {
        let location = try Self.location(host: "localhost", "sslmode=verify-full")
        let error = await #expect(throws: (any Error).self) { try await Self.open(location) }
        let text = String(describing: error.map { $0 })
        #expect(text.contains("TLS") || text.contains("certificate") || text.contains("CERTIFICATE"), "\(text)")
    }

    @Test func anUnreadableRootCertificateFileIsNamed() async throws {
        let location = try Self.location("sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")
        let error = await #expect(throws: PostgresLocationError.self) { try await Self.open(location) }
        #expect(error?.message.contains("/nonexistent/ca.pem") == true)
    }

    @Test func aServerOpensNoMoreConnectionsThanThePoolSize() async throws {
        let backends = try await Self.withEngine(try Self.location("pool_size=2")) { engine in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await engine.read { db in
                            try db.fetchValue(Int.self, sql: "SELECT pg_backend_pid() FROM (SELECT pg_sleep(0.05)) AS pause")
                        } ?? 0
                    }
                }
                return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
        }
        #expect(backends.count <= 2 && !backends.contains(0))
    }
}

/// The authority that signed the test database's certificate (`FERRY_TEST_POSTGRES_CA`).
enum TestAuthority {
    static let path = TestStorage.postgresServer == nil
        ? nil : ProcessInfo.processInfo.environment["FERRY_TEST_POSTGRES_CA"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipped: Comment =
        "PostgreSQL TLS not tested: FERRY_TEST_POSTGRES_URL or FERRY_TEST_POSTGRES_CA is not set (bash .ci/postgres sets both)"
}
