import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The PostgreSQL storage engine, for several stateless server instances on one database:
/// sessions, idempotency records, entities and login limits all live in it.
///
/// The routes' closures are synchronous, and postgres-nio is not: each closure runs on a
/// thread of the engine's own `NIOThreadPool` (never Swift's cooperative pool, never an
/// event loop) with one connection from a small pool, and each statement blocks that thread
/// until its result is in. Waiting for a connection, `BEGIN`, the write lock and `COMMIT`
/// happen off those threads, so a thread is only taken by a closure that can run.
///
/// Writes take one transaction-scoped advisory lock (per schema) as they begin: writers
/// are serialized across every instance, as SQLite serializes them in one file. That keeps
/// the change sequence (`MAX(seq) + 1`) in commit order, so a changes feed never skips a
/// change that commits late, and lets a write re-check an idempotency record before its
/// effect. A writer that waits longer than the busy timeout for it gets `lock_timeout`
/// (SQLSTATE 55P03), answered `503 database_unavailable`.
final class PostgresEngine: StorageEngine {
    private let location: PostgresLocation
    private let pool: PostgresConnectionPool
    private let threads: NIOThreadPool
    private let statements = PostgresStatements()
    private let logger: Logger

    /// Connects to `location`, creates its schema when missing and migrates it (one
    /// instance at a time, under an advisory lock).
    static func open(
        _ location: PostgresLocation,
        busyTimeout: TimeInterval,
        logger: Logger
    ) async throws -> PostgresEngine {
        let engine = PostgresEngine(
            location,
            tls: try location.connectionTLS(),
            busyTimeout: busyTimeout,
            logger: logger
        )
        do {
            try await engine.classified { try await engine.migrate() }
        } catch {
            await engine.close()
            throw error
        }
        return engine
    }

    private init(
        _ location: PostgresLocation,
        tls: PostgresConnection.Configuration.TLS,
        busyTimeout: TimeInterval,
        logger: Logger
    ) {
        var configuration = PostgresConnection.Configuration(
            host: location.host,
            port: location.port,
            username: location.user,
            password: location.password,
            database: location.database,
            tls: tls
        )
        configuration.options.additionalStartupParameters = [
            ("application_name", "ferry"),
            ("search_path", location.schema),
            ("lock_timeout", "\(max(1, Int(busyTimeout * 1000)))ms"),
        ]
        configuration.options.connectTimeout = .seconds(5)
        self.location = location
        self.logger = logger
        self.pool = PostgresConnectionPool(
            configuration: configuration,
            name: location.description,
            maximum: location.poolSize,
            logger: logger
        )
        self.threads = NIOThreadPool(numberOfThreads: location.poolSize)
        threads.start()
    }

    func read<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await classified {
            if let held = heldConnection { return try await onThread(held, block) }
            return try await pool.withConnection { connection in try await self.onThread(connection, block) }
        }
    }

    func write<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await classified {
            // No savepoint of its own in a batch: a write that throws fails its sub-request,
            // whose savepoint is rolled back (`savepoint(_:keep:)`).
            if let held = heldConnection { return try await onThread(held, block) }
            return try await pool.withConnection { connection in
                try await self.inWriteTransaction(connection) { try await self.onThread(connection, block) }
            }
        }
    }

    func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await classified {
            let connection = try await pool.lease()
            do {
                let result = try await inWriteTransaction(connection) {
                    try await PostgresBatch.$held.withValue(
                        .init(engine: ObjectIdentifier(self), connection: connection)
                    ) {
                        try await body()
                    }
                }
                await pool.giveBack(connection)
                return result
            } catch {
                await pool.giveBack(connection)
                throw error
            }
        }
    }

    func savepoint<T: Sendable>(_ body: () async throws -> T, keep: (T) -> Bool) async throws -> T {
        try await classified {
            guard let held = heldConnection else { preconditionFailure("savepoint(_:keep:) outside transaction(_:)") }
            try await send("SAVEPOINT subrequest", on: held)
            let result: T
            do {
                result = try await body()
            } catch {
                try await send("ROLLBACK TO SAVEPOINT subrequest", on: held)
                try await send("RELEASE SAVEPOINT subrequest", on: held)
                throw error
            }
            if !keep(result) { try await send("ROLLBACK TO SAVEPOINT subrequest", on: held) }
            try await send("RELEASE SAVEPOINT subrequest", on: held)
            return result
        }
    }

    func close() async {
        await pool.close()
        try? await threads.shutdownGracefully()
    }
}

extension PostgresEngine {
    /// Runs `body` in a transaction that holds the write lock; commits when it returns and
    /// rolls back when it throws. A connection that cannot roll back is closed, so the pool
    /// never hands out one in an unknown state.
    private func inWriteTransaction<T>(
        _ connection: PostgresConnection,
        _ body: () async throws -> T
    ) async throws -> T {
        try await send("BEGIN", on: connection)
        do {
            try await send(
                "SELECT pg_advisory_xact_lock(hashtext(?))",
                ["ferry.writes:" + location.schema],
                on: connection
            )
            let result = try await body()
            try await send("COMMIT", on: connection)
            return result
        } catch {
            do {
                try await send("ROLLBACK", on: connection)
            } catch {
                try? await connection.close()
            }
            throw error
        }
    }

    /// Runs `block` on one of the engine's threads, with a session on `connection`.
    private func onThread<T: Sendable>(
        _ connection: PostgresConnection,
        _ block: @escaping @Sendable (any SQLSession) throws -> T
    ) async throws -> T {
        let session = PostgresSession(connection: connection, statements: statements, logger: logger)
        return try await threads.runIfActive { try block(session) }
    }

    /// Runs one statement from an async context, waiting for its result without a thread.
    func send(_ sql: String, _ arguments: SQLArguments = [], on connection: PostgresConnection) async throws {
        let query = PostgresQuery(unsafeSQL: statements.postgres(sql), binds: arguments.postgresBindings)
        let result: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
        _ = try await result.get()
    }

    /// Runs `access`, turning PostgreSQL's errors into ``StorageUnavailable`` (the database
    /// cannot be used now) or ``StorageFailure`` (it refused a statement).
    private func classified<T>(_ access: () async throws -> T) async throws -> T {
        do {
            return try await access()
        } catch {
            throw PostgresFailure.classified(error)
        }
    }

    /// The connection of the batch the current task runs in, when it is this engine's.
    private var heldConnection: PostgresConnection? {
        guard let held = PostgresBatch.held, held.engine == ObjectIdentifier(self) else { return nil }
        return held.connection
    }

    /// Creates the schema when missing and applies the migrations not yet recorded, under a
    /// session advisory lock: instances starting together migrate one after the other.
    private func migrate() async throws {
        try await pool.withConnection { connection in
            try await self.send("SET lock_timeout = 0", on: connection)
            try await self.send(
                "SELECT pg_advisory_lock(hashtext(?))",
                ["ferry.migrations:" + self.location.schema],
                on: connection
            )
            do {
                try await self.applyMigrations(connection)
                try await self.send("SELECT pg_advisory_unlock_all()", on: connection)
                try await self.send("RESET lock_timeout", on: connection)
            } catch {
                try? await connection.close()
                throw error
            }
        }
    }

    private func applyMigrations(_ connection: PostgresConnection) async throws {
        try await send("CREATE SCHEMA IF NOT EXISTS \(location.schema)", on: connection)
        try await send(
            "CREATE TABLE IF NOT EXISTS ferry_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)",
            on: connection
        )
        let query: EventLoopFuture<PostgresQueryResult> = connection.query(
            "SELECT id FROM ferry_migrations",
            logger: logger
        )
        let applied = Set(try await query.get().rows.compactMap { SQLRow($0)["id"] as String? })
        for migration in Self.migrations where !applied.contains(migration.id) {
            try await send("BEGIN", on: connection)
            for statement in migration.statements { try await send(statement, on: connection) }
            try await send(
                "INSERT INTO ferry_migrations (id, applied_at) VALUES (?, ?)",
                [migration.id, Timestamp.string(Date())],
                on: connection
            )
            try await send("COMMIT", on: connection)
            logger.debug("Applied a database migration", metadata: ["migration": "\(migration.id)"])
        }
    }
}

/// The connection that a batch's transaction holds, by the engine's identity: the batch
/// task's reads and writes join that transaction.
private struct HeldConnection: Sendable {
    let engine: ObjectIdentifier
    let connection: PostgresConnection
}

/// Marks the task of a batch whose transaction is open.
private enum PostgresBatch {
    @TaskLocal static var held: HeldConnection?
}
