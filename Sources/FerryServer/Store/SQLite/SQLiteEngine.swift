import CFerrySQLite
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The embedded storage engine: a SQLite file at `<dataDirectory>/server.sqlite` (WAL,
/// `synchronous=NORMAL`: survives a process crash, not a power loss), or an in-memory
/// database when no directory is given.
///
/// A batch runs in one transaction (``transaction(_:)``): every read and write of the
/// batch's task joins it, each sub-request in a savepoint of its own, and nothing else uses
/// the connection until it commits or rolls back.
struct SQLiteEngine: StorageEngine {
    private let writer: DatabaseQueue
    private let gate = AccessGate()
    private let lockWaits = LockWaits()
    private let busyMilliseconds: Int32

    /// Opens (creating if needed) and migrates the database.
    init(dataDirectory: String?, busyTimeout: TimeInterval) throws {
        _ = ferry_sqlite_prepare_process()  // see FerryStore.open
        busyMilliseconds = Int32(clamping: Int(busyTimeout * 1000))
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Several processes may serve one data folder (two `ferry` commands with an embedded server).
        configuration.busyMode = .timeout(busyTimeout)
        // A batch's transaction stays open across the accesses of its sub-requests.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        if let dataDirectory {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
            let path = (dataDirectory as NSString).appendingPathComponent("server.sqlite")
            writer = try DatabaseQueue(path: path, configuration: configuration)
            try writer.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        } else {
            writer = try DatabaseQueue(configuration: configuration)
        }
        try Self.migrator.migrate(writer)
    }

    func read<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        if isInBatch { return try onHeldConnection { try block(SQLiteSession(db: $0, readOnly: true)) } }
        await gate.enterShared()
        defer { gate.leaveShared() }
        return try await onConnection { db in
            try ReadTransaction.run(db) { try block(SQLiteSession(db: db, readOnly: true)) }
        }
    }

    func write<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        if isInBatch {
            // No savepoint of its own: a write that throws fails its sub-request, whose
            // savepoint is rolled back (`savepoint(_:keep:)`).
            return try onHeldConnection { db in try block(SQLiteSession(db: db, readOnly: false)) }
        }
        await gate.enterShared()
        defer { gate.leaveShared() }
        return try await onConnection { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try block(SQLiteSession(db: db, readOnly: false))
                return .commit
            }
            return result!
        }
    }

    func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await gate.enterExclusive()
        defer { gate.leaveExclusive() }
        try await onConnection { db in try db.beginTransaction(.immediate) }
        do {
            let result = try await BatchTransaction.$current.withValue(ObjectIdentifier(gate)) { try await body() }
            try onHeldConnection { db in try db.commit() }
            return result
        } catch {
            try? onHeldConnection { db in
                if db.isInsideTransaction { try db.rollback() }
            }
            throw error
        }
    }

    func savepoint<T: Sendable>(_ body: () async throws -> T, keep: (T) -> Bool) async throws -> T {
        try onHeldConnection { db in try Savepoint.subrequest.begin(db) }
        let result: T
        do {
            result = try await body()
        } catch {
            try onHeldConnection { db in try Savepoint.subrequest.end(db, keep: false) }
            throw error
        }
        let kept = keep(result)
        try onHeldConnection { db in try Savepoint.subrequest.end(db, keep: kept) }
        return result
    }

    func close() async {}
}

extension SQLiteEngine {
    /// Runs `block` at once on the connection that a batch holds: nothing else uses it
    /// inside the batch's transaction, so there is no queue to wait in, and the batch's
    /// statements run without a hop to another thread.
    private func onHeldConnection<T>(_ block: (Database) throws -> T) throws -> T {
        try writer.writeWithoutTransaction(block)
    }

    /// Runs `access` on the connection at once, on this thread, unless the lock it needs is
    /// taken (another process writes the file): then on the connection's queue, which waits
    /// for the lock up to the busy timeout without holding one of Swift's few cooperative
    /// threads. Handing every access to the queue and back cost two changes of thread, each
    /// waking one (docs/performance.md). While an access waits there, the others queue
    /// behind it rather than block their threads on it.
    ///
    /// An access that meets the taken lock stops there and runs again on the queue: a read
    /// (it changed nothing), or a write, whose immediate transaction could not begin.
    private func onConnection<T: Sendable>(_ access: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if !lockWaits.any, let done = try attemptAtOnce(access) { return done }
        lockWaits.enter()
        defer { lockWaits.leave() }
        return try await writer.writeWithoutTransaction(access)
    }

    /// Whether an access waits on the connection's queue for a lock another connection holds.
    var isWaitingForLock: Bool { lockWaits.any }

    /// `access` on this thread, or nil when it met a lock that another connection holds.
    private func attemptAtOnce<T>(_ access: (Database) throws -> T) throws -> T? {
        try writer.writeWithoutTransaction { db in
            guard let connection = db.sqliteConnection else { return try access(db) }
            sqlite3_busy_timeout(connection, 0)
            defer { sqlite3_busy_timeout(connection, busyMilliseconds) }
            do {
                return try access(db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return nil
            }
        }
    }

    /// Whether the current task runs inside this database's open batch transaction.
    private var isInBatch: Bool { BatchTransaction.current == ObjectIdentifier(gate) }
}

/// A savepoint of a batch's transaction, its statements prepared once per connection (GRDB's
/// `inSavepoint` parses them on every call, which showed in every sub-request).
private struct Savepoint {
    static let subrequest = Savepoint("subrequest")

    private let start: String
    private let release: String
    private let rollback: String

    private init(_ name: String) {
        start = "SAVEPOINT \(name)"
        release = "RELEASE \(name)"
        rollback = "ROLLBACK TO \(name)"
    }

    func begin(_ db: Database) throws {
        try db.cachedStatement(sql: start).execute()
    }

    /// Releases the savepoint, after rolling back to it unless `keep`.
    func end(_ db: Database, keep: Bool) throws {
        if !keep { try db.cachedStatement(sql: rollback).execute() }
        try db.cachedStatement(sql: release).execute()
    }
}

/// A read's deferred transaction, which keeps its statements on one snapshot while another
/// process writes the file; its statements prepared once per connection.
private enum ReadTransaction {
    static func run<T>(_ db: Database, _ block: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        do {
            let result = try block()
            try db.cachedStatement(sql: "COMMIT").execute()
            return result
        } catch {
            if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK").execute() }
            throw error
        }
    }
}

/// How many accesses wait on the connection's queue for a lock another process holds.
private final class LockWaits: Sendable {
    private let count = Atomic(0)

    var any: Bool { count.load(ordering: .relaxed) > 0 }
    func enter() { count.add(1, ordering: .relaxed) }
    func leave() { count.subtract(1, ordering: .relaxed) }
}

/// Marks the task of a batch whose transaction is open (by the database's identity): its
/// database accesses join that transaction.
private enum BatchTransaction {
    @TaskLocal static var current: ObjectIdentifier?
}
