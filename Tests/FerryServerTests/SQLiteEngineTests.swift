import GRDB
import GRDBSQLite
import Testing

@testable import FerryServer

@Suite("The embedded engine's reads")
struct SQLiteEngineTests {
    @Test func aReadRefusesAStatementThatWritesAndChangesNothing() async throws {
        let engine = try SQLiteEngine(dataDirectory: nil, busyTimeout: 1)
        await #expect(throws: DatabaseError.self) {
            try await engine.read { try $0.execute(sql: "CREATE TABLE scratch (x)") }
        }
        let tables = try await engine.read {
            try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'scratch'")
        }
        #expect(tables == 0)
    }

    /// GRDB's own `read` sets `PRAGMA query_only`, and setting it expires every prepared
    /// statement of the connection: each request's statements were all prepared again.
    @Test func aReadLeavesTheConnectionsPreparedStatementsAsTheyWere() async throws {
        let engine = try SQLiteEngine(dataDirectory: nil, busyTimeout: 1)
        let sql = "SELECT COUNT(*) FROM sqlite_master"
        _ = try await engine.write { try $0.fetchValue(Int.self, sql: sql) }
        _ = try await engine.read { try $0.fetchValue(Int.self, sql: "SELECT 1") }
        let prepared = try await engine.write { session in
            _ = try session.fetchValue(Int.self, sql: sql)
            let statement = try #require(session as? SQLiteSession).db.cachedStatement(sql: sql)
            return sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        }
        #expect(prepared == 0, "the read made the write's statement be prepared again")
    }
}
