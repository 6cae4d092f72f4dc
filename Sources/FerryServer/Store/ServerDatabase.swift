import Foundation
import GRDB

/// The server's SQLite database: it owns the writer and migrates on open.
///
/// A file at `<dataDirectory>/server.sqlite` (WAL, `synchronous=NORMAL`: survives a
/// process crash, not a power loss), or an in-memory database when no directory is given.
///
/// A batch runs in one transaction (``transaction(_:)``): every read and write of the
/// batch's task joins it, each write in a savepoint of its own, and nothing else uses the
/// connection until it commits or rolls back.
struct ServerDatabase: Sendable {
    private let writer: DatabaseQueue
    private let gate = AccessGate()
    private let metrics: ServerMetrics?

    /// Opens (creating if needed) and migrates the database.
    init(dataDirectory: String?, busyTimeout: TimeInterval = 10, metrics: ServerMetrics? = nil) throws {
        self.metrics = metrics
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

    /// Runs `block` in a read (inside the batch's transaction, within a batch).
    func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if isInBatch { return try onHeldConnection(block) }
        await gate.enterShared()
        defer { gate.leaveShared() }
        return try await timed { try await writer.read(block) }
    }

    /// Runs `block` in one write transaction (a savepoint of the batch's transaction,
    /// within a batch): it throws, and nothing of it stays.
    func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if isInBatch {
            return try onHeldConnection { db in
                var result: T?
                try db.inSavepoint {
                    result = try block(db)
                    return .commit
                }
                return result!
            }
        }
        await gate.enterShared()
        defer { gate.leaveShared() }
        return try await timed { try await writer.write(block) }
    }

    /// Runs `body` in one transaction that every read and write of its task joins; it
    /// commits when `body` returns and rolls back when it throws (or the process dies).
    func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await gate.enterExclusive()
        defer { gate.leaveExclusive() }
        // Off this thread: another process may hold the file, and this waits for it.
        try await writer.writeWithoutTransaction { db in try db.beginTransaction(.immediate) }
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

    /// Within ``transaction(_:)``: runs `body` in a savepoint that stays when `keep` says so
    /// of its result and is rolled back otherwise (and when `body` throws).
    func savepoint<T: Sendable>(_ body: () async throws -> T, keep: (T) -> Bool) async throws -> T {
        try onHeldConnection { db in try db.execute(sql: "SAVEPOINT subrequest") }
        let result: T
        do {
            result = try await body()
        } catch {
            try onHeldConnection { db in
                try db.execute(sql: "ROLLBACK TO subrequest; RELEASE subrequest")
            }
            throw error
        }
        let kept = keep(result)
        try onHeldConnection { db in
            try db.execute(sql: kept ? "RELEASE subrequest" : "ROLLBACK TO subrequest; RELEASE subrequest")
        }
        return result
    }
}

extension ServerDatabase {
    /// Runs `block` at once on the connection that a batch holds: nothing else uses it
    /// inside the batch's transaction, so there is no queue to wait in, and the batch's
    /// statements run without a hop to another thread.
    private func onHeldConnection<T>(_ block: (Database) throws -> T) throws -> T {
        let started = ContinuousClock.now
        defer { metrics?.database(ContinuousClock.now - started) }
        return try writer.writeWithoutTransaction(block)
    }

    /// Runs `access`, counting its time for `/metrics`.
    private func timed<T>(_ access: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { metrics?.database(ContinuousClock.now - started) }
        return try await access()
    }

    /// Whether the current task runs inside this database's open batch transaction.
    private var isInBatch: Bool { BatchTransaction.current == ObjectIdentifier(gate) }
}

/// Marks the task of a batch whose transaction is open (by the database's identity): its
/// database accesses join that transaction.
private enum BatchTransaction {
    @TaskLocal static var current: ObjectIdentifier?
}
