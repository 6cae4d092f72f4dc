import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import Testing

@testable import FerryServer

@Suite("The embedded engine")
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

    /// Statements are bound and read through SQLite's own calls (`SQLiteSession.run`):
    /// every kind of value comes back as it went in.
    @Test func valuesComeBackAsTheyWentIn() async throws {
        let engine = try SQLiteEngine(dataDirectory: nil, busyTimeout: 1)
        let values: [SQLValue] = [
            .null, .integer(-1), .integer(Int64.max), .real(0.5), .text(""), .text("a\u{0}b é"),
            .blob(Data()), .blob(Data([0, 1, 255])),
        ]
        let rows = try await engine.write { db in
            try db.execute(sql: "CREATE TABLE scratch (n INTEGER PRIMARY KEY, v)")
            for (index, value) in values.enumerated() {
                try db.execute(
                    sql: "INSERT INTO scratch (n, v) VALUES (?, ?)",
                    arguments: SQLArguments(values: [.integer(Int64(index)), value])
                )
            }
            return try db.fetchAll(sql: "SELECT v FROM scratch ORDER BY n", arguments: [])
        }
        #expect(rows.map(\.first) == values.map(Optional.some))
        #expect(rows.allSatisfy { $0.columns == ["v"] })
    }

    @Test func theWrongNumberOfArgumentsIsAnErrorNotANull() async throws {
        let engine = try SQLiteEngine(dataDirectory: nil, busyTimeout: 1)
        await #expect(throws: DatabaseError.self) {
            try await engine.write { try $0.fetchOne(sql: "SELECT ? + ?", arguments: [1]) }
        }
        let sum = try await engine.write { try $0.fetchValue(Int.self, sql: "SELECT ? + ?", arguments: [1, 2]) }
        #expect(sum == 3)
    }

    /// A statement that failed is not reused in a broken state: the same SQL runs again.
    @Test func aFailedStatementIsAnErrorAndTheSameSQLRunsAgain() async throws {
        let engine = try SQLiteEngine(dataDirectory: nil, busyTimeout: 1)
        let insert = "INSERT INTO scratch (k) VALUES (?)"
        _ = try await engine.write { db in try db.execute(sql: "CREATE TABLE scratch (k TEXT PRIMARY KEY)") }
        _ = try await engine.write { db in try db.execute(sql: insert, arguments: ["a"]) }
        await #expect {
            _ = try await engine.write { db in try db.execute(sql: insert, arguments: ["a"]) }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT
        }
        _ = try await engine.write { db in try db.execute(sql: insert, arguments: ["b"]) }
        let count = try await engine.read { try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM scratch") }
        #expect(count == 2)
    }

    /// In a batch a write has no savepoint of its own: one that throws fails its
    /// sub-request, and the sub-request's savepoint takes back all it did.
    @Test func aWriteThatThrowsInABatchLeavesNothingOfItsSubrequest() async throws {
        struct Refused: Error {}
        let engine = try SQLiteEngine(dataDirectory: nil, busyTimeout: 1)
        _ = try await engine.write { db in try db.execute(sql: "CREATE TABLE scratch (k TEXT PRIMARY KEY)") }
        try await engine.transaction {
            _ = try await engine.savepoint(
                {
                    _ = try await engine.write { db in try db.execute(sql: "INSERT INTO scratch (k) VALUES ('kept')") }
                },
                keep: { true }
            )
            _ = try? await engine.savepoint(
                {
                    _ = try await engine.write { db in try db.execute(sql: "INSERT INTO scratch (k) VALUES ('first')") }
                    _ = try await engine.write { db in
                        try db.execute(sql: "INSERT INTO scratch (k) VALUES ('second')")
                        throw Refused()
                    }
                },
                keep: { true }
            )
        }
        let keys = try await engine.read { db in
            try db.fetchAll(sql: "SELECT k FROM scratch ORDER BY k", arguments: []).map { $0["k"] as String }
        }
        #expect(keys == ["kept"])
    }

    /// A batch's keys are looked up in statements of a power of two of keys (the last one
    /// repeated): any number of keys finds exactly the records there are.
    @Test(arguments: [1, 2, 3, 7, 100, 513, 1100])
    func aBatchsRecordsAreFoundWhateverTheNumberOfKeys(_ count: Int) async throws {
        let engine = try SQLiteEngine(dataDirectory: nil, busyTimeout: 1)
        let keys = (0..<count).map { "key-\($0)" }
        let saved = Set(keys.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) + ["elsewhere"])
        let found = try await engine.write { db in
            for key in saved {
                try IdempotencyStore.save(
                    db,
                    userID: "u1",
                    key: key,
                    fingerprint: "f-\(key)",
                    response: APIResponse(status: .ok, headers: [:], body: Data()),
                    now: Date()
                )
            }
            return try IdempotencyStore.findAll(db, userID: "u1", keys: keys + keys.prefix(2))
        }
        #expect(Set(found.keys) == saved.subtracting(["elsewhere"]))
        #expect(found.allSatisfy { $0.value.fingerprint == "f-\($0.key)" })
    }
}

@Suite("The embedded engine beside another connection that holds the file")
struct SQLiteEngineLockTests {
    /// An access runs on its caller's thread while the file is free, and on the
    /// connection's queue once it meets a lock another connection holds: there it waits
    /// for the lock (up to the busy timeout), and the write's block runs once, after it.
    @Test func aWriteThatMeetsAnotherConnectionsLockWaitsForItAndRunsOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try SQLiteEngine(dataDirectory: folder.path, busyTimeout: 30)
        try await engine.write { try $0.execute(sql: "CREATE TABLE scratch (n INTEGER)") }
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: folder.appendingPathComponent("server.sqlite").path, configuration: holding)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }

        let runs = Mutex(0)
        let write = Task {
            try await engine.write { db in
                runs.withLock { $0 += 1 }
                try db.execute(sql: "INSERT INTO scratch (n) VALUES (1)")
            }
        }
        for _ in 0..<2_000 where !engine.isWaitingForLock { try await Task.sleep(for: .milliseconds(5)) }
        #expect(engine.isWaitingForLock)
        #expect(runs.withLock { $0 } == 0, "the write ran before it had the lock")
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }

        _ = try await write.value
        #expect(runs.withLock { $0 } == 1)
        #expect(!engine.isWaitingForLock)
        #expect(try await engine.read { try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM scratch") } == 1)
    }
}
