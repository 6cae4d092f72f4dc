/// Where the server's data lives: SQLite through GRDB (``SQLiteEngine``, the embedded default)
/// or PostgreSQL through postgres-nio (``PostgresEngine``). ``ServerDatabase`` holds one.
///
/// Every access is a synchronous closure over an ``SQLSession``. A batch runs in one
/// ``transaction(_:)`` whose reads and writes all join it, each sub-request in a
/// ``savepoint(_:keep:)``, so an idempotency record commits with its effect or not at all.
protocol StorageEngine: Sendable {
    /// Runs `block` in a read (inside the batch's transaction, within a batch).
    func read<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T

    /// Runs `block` in one write transaction: it throws, and nothing of it stays. Writes are
    /// serialized. Within a batch it joins the sub-request's savepoint: a write that throws
    /// fails its sub-request, and nothing of the sub-request stays.
    func write<T: Sendable>(_ block: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T

    /// Runs `body` in one transaction that every read and write of its task joins; it
    /// commits when `body` returns and rolls back when it throws (or the process dies).
    func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T

    /// Within ``transaction(_:)``: runs `body` in a savepoint that stays when `keep` says so
    /// of its result and is rolled back otherwise (and when `body` throws).
    func savepoint<T: Sendable>(_ body: () async throws -> T, keep: (T) -> Bool) async throws -> T

    /// Closes the engine's connections; nothing may use it afterwards.
    func close() async
}
