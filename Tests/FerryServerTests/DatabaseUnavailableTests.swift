import Foundation
import GRDB
import Testing

@Suite("A SQLite database held by another process answers 503, and loses nothing")
struct DatabaseUnavailableTests {
    @Test func aWriteWhileTheDatabaseIsLockedIs503WithRetryAfterAndNothingChanged() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TestServer.start(storage: .sqlite) {
            $0.dataDirectory = folder.path
            $0.databaseBusyTimeout = 0.2
        }
        let token = try await server.login()
        // Another process takes the database for itself.
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: folder.appendingPathComponent("server.sqlite").path, configuration: holding)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        let refused = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_heat",
            json: ["status": "watched"],
            token: token,
            headers: ["Idempotency-Key": "locked-1"]
        )
        #expect(refused.status == 503 && refused.errorCode == "database_unavailable")
        #expect(refused.header("Retry-After") == "1")
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }

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
}
