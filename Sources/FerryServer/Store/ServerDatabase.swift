import Foundation

/// The server's database: one ``StorageEngine`` (SQLite by default, PostgreSQL when a
/// `postgres://` URL is configured), migrated on open, with its access time counted for
/// `/metrics`.
///
/// A batch runs in one transaction (``transaction(_:)``): every read and write of the
/// batch's task joins it, each sub-request in a savepoint (``savepoint(_:keep:)``).
struct ServerDatabase: Sendable {
    private let engine: any StorageEngine
    private let metrics: ServerMetrics?

    /// Opens (creating if needed) and migrates the SQLite database in `dataDirectory`, or an
    /// in-memory one.
    init(dataDirectory: String?, busyTimeout: TimeInterval = 10, metrics: ServerMetrics? = nil) throws {
        self.init(engine: try SQLiteEngine(dataDirectory: dataDirectory, busyTimeout: busyTimeout), metrics: metrics)
    }

    /// Opens the database `configuration` names: its PostgreSQL location, else SQLite in its
    /// data directory (or in memory). Each opening numbers its changes past a gap
    /// (`Entities.openHistory`), so that a database restored from a backup refuses the
    /// cursors of the changes it forgot.
    static func open(_ configuration: FerryServerConfiguration, metrics: ServerMetrics) async throws -> ServerDatabase {
        let database: ServerDatabase
        if let postgres = configuration.postgres {
            let engine = try await PostgresEngine.open(
                postgres,
                busyTimeout: configuration.databaseBusyTimeout,
                logger: configuration.logger
            )
            database = ServerDatabase(engine: engine, metrics: metrics)
        } else {
            database = try ServerDatabase(
                dataDirectory: configuration.dataDirectory,
                busyTimeout: configuration.databaseBusyTimeout,
                metrics: metrics
            )
        }
        do {
            let now = configuration.now()
            try await database.write { db in try Entities.openHistory(db, now: now) }
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Serves from `engine`, already open and migrated.
    init(engine: any StorageEngine, metrics: ServerMetrics? = nil) {
        self.engine = engine
        self.metrics = metrics
    }

    /// Runs `block` in a read (inside the batch's transaction, within a batch).
    func read<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await timed { try await engine.read(block) }
    }

    /// Runs `block` in one write transaction: it throws, and nothing of it stays. Within a
    /// batch it joins the sub-request's savepoint, and a write that throws fails the whole
    /// sub-request: nothing of the sub-request stays.
    func write<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await timed { try await engine.write(block) }
    }

    /// Runs `body` in one transaction that every read and write of its task joins; it
    /// commits when `body` returns and rolls back when it throws (or the process dies).
    func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await engine.transaction(body)
    }

    /// Within ``transaction(_:)``: runs `body` in a savepoint that stays when `keep` says so
    /// of its result and is rolled back otherwise (and when `body` throws).
    func savepoint<T: Sendable>(_ body: () async throws -> T, keep: (T) -> Bool) async throws -> T {
        try await engine.savepoint(body, keep: keep)
    }

    /// Closes the engine's connections (a PostgreSQL pool); the server calls it as it stops.
    func close() async {
        await engine.close()
    }

    /// Runs `access`, counting its time for `/metrics`.
    private func timed<T>(_ access: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { metrics?.database(ContinuousClock.now - started) }
        return try await access()
    }
}
