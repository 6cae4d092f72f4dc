import CFerrySQLite
import Foundation
import GRDB

/// The one SQLite database of a runner: it owns the connection, migrates on open
/// (kernel steps first, then each plugin's), and is shared safely by several
/// processes (WAL, busy timeout).
public final class FerryStore: Sendable {
    /// The database connection (a pool for a file, a queue in memory).
    public let writer: any DatabaseWriter
    /// Where the database lives, or nil in memory.
    public let path: String?
    /// Commits concurrent writes together (see `GroupCommit`).
    private let group: GroupCommit
    /// Checkpoints the WAL off the writer's path; nil in memory.
    private let checkpointer: WALCheckpointer?
    /// Tells whether anything committed since a moment (see `stamp()`).
    private let version: StoreVersion
    /// Wakes the watchers of this process after each write (see `changes(polling:clock:)`).
    let writeSignal = WriteSignal()
    /// Refuses reads once `close()` began, and holds the close until the running ones end.
    private let gate = StoreAccessGate()

    private init(writer: any DatabaseWriter, path: String?, version: StoreVersion, checkpointer: WALCheckpointer? = nil) {
        self.writer = writer
        self.path = path
        self.version = version
        self.group = GroupCommit(writer: writer)
        self.checkpointer = checkpointer
    }

    /// Opens (creating if needed) the store at `path` and applies every migration not yet applied.
    ///
    /// Any number of processes may open one store at once: opening and migrating happen
    /// under a lock file beside it. The folder is made readable by its owner only (0700),
    /// the database files too (0600). A store that this folder held before and that is now
    /// missing or empty is an error that names the file, never a new empty store.
    public static func open(
        at path: String,
        durability: Durability = .normal,
        migrations: [StoreMigration] = []
    ) throws -> FerryStore {
        // Before the process's first connection: SQLite's allocations then take no lock
        // shared by every connection (a fifth more of the batched drain, ferry-bench).
        _ = ferry_sqlite_prepare_process()
        let files = StoreFiles(path: path)
        try files.prepareFolder()
        let lock = try FileLock(path: files.lockPath)
        defer { lock.release() }
        let missing = !FileManager.default.fileExists(atPath: path)
        if missing, files.markerExists { throw files.lostStore(missing: true) }
        // Checked before SQLite opens it: opening a zero-length file writes a header into it.
        if !missing, files.isZeroLength, files.emptyFileReplacedAStore() { throw files.lostStore(missing: false) }
        files.preparePrivateFiles()
        do {
            let pool = try DatabasePool(path: path, configuration: configuration(durability))
            // GRDB sets `synchronous = NORMAL` when it switches the pool to WAL, after
            // `prepareDatabase` ran: set the chosen level again on the writer, and check it.
            // On the writer: a reader's connection is opened when a read first needs one.
            let empty = try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
                let level = try Int.fetchOne(db, sql: "PRAGMA synchronous")
                guard level == (durability == .full ? 2 : 1) else {
                    throw FerryError(
                        .storage,
                        "SQLite refused synchronous=\(durability.rawValue) on \(path) (it reports \(level ?? -1))"
                    )
                }
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0
            }
            if empty, !missing, files.emptyFileReplacedAStore() { throw files.lostStore(missing: false) }
            let store = FerryStore(
                writer: pool,
                path: path,
                version: StoreVersion(path: path),
                checkpointer: try WALCheckpointer(path: path, writer: pool)
            )
            try store.migrate(migrations)
            files.writeMarker()
            return store
        } catch let error as FerryError {
            throw error
        } catch {
            throw StoreFailure.map(error, doing: "open the store at \(path)")
        }
    }

    /// Closes the store's connections now: every later read or write throws. For a
    /// process that must stop using its store at once (a simulated crash, whose suspended
    /// work must not write once it is let go); otherwise a store closes when released.
    ///
    /// Reads that started before return first (the close waits for them); a read that
    /// starts during the close throws, as does every write that starts after it began.
    public func close() throws {
        gate.close()
        checkpointer?.stop()
        try writer.close()
    }

    /// Whether `close()` has begun: every read or write from then on throws.
    public var isClosed: Bool { gate.isClosed }

    /// Creates a store in memory, for tests and previews.
    public static func inMemory(migrations: [StoreMigration] = []) throws -> FerryStore {
        _ = ferry_sqlite_prepare_process()  // see open(at:)
        let queue = try DatabaseQueue(configuration: configuration(.normal))
        let store = FerryStore(writer: queue, path: nil, version: StoreVersion(memory: queue))
        try store.migrate(migrations)
        return store
    }

    /// The page size of a new store, in bytes.
    ///
    /// A local write changes a few bytes in each of about ten pages (the entity row and its
    /// key, the operation row and its indexes, the counters), and every changed page is
    /// appended whole to the WAL, then copied into the database by a checkpoint. With 1 KB
    /// pages instead of SQLite's 4 KB a write appends about 12 pages, 13 KB, instead of 10
    /// pages, 41 KB, and the checkpoints stall the writer less: at 1M rows, p99.9 went from
    /// 0.83-1.5 ms to 0.54-0.89 ms (docs/performance.md). A row of more than about 990
    /// bytes, or an index entry of more than about 230, continues on overflow pages.
    static let pageSize = 1024

    /// How long a write waits for another connection's write lock before it fails.
    static let busyTimeoutMilliseconds = 10_000

    private static func configuration(_ durability: Durability) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(Double(busyTimeoutMilliseconds) / 1000)
        configuration.prepareDatabase { db in
            let mode = durability == .full ? "FULL" : "NORMAL"
            try db.execute(sql: "PRAGMA synchronous = \(mode)")
            // Applies when the file is created; an existing store keeps the size it has.
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
        }
        return configuration
    }

    private func migrate(_ pluginMigrations: [StoreMigration]) throws {
        var migrator = DatabaseMigrator()
        for step in KernelMigrations.all + pluginMigrations {
            migrator.registerMigration(step.id) { db in try step.migrate(db) }
        }
        do {
            try migrator.migrate(writer)
        } catch {
            throw StoreFailure.map(error, doing: "migrate the store")
        }
    }

    /// Runs `updates` in one write transaction, mapping storage failures to `FerryError`.
    ///
    /// Writes that arrive while another commits are committed together (group commit):
    /// `updates` commits whole or not at all, and this returns once it is committed at the
    /// store's durability. When a write sharing its transaction fails, `updates` runs a
    /// second time, so it must only change the database.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            try refuseIfClosed()
            defer { writeSignal.fire() }
            return try await group.write(updates)
        } catch {
            throw StoreFailure.map(error, doing: "write to the store")
        }
    }

    /// Runs `updates` in one write transaction, blocking the calling thread; for the few
    /// places that must write after their task was cancelled.
    public func writeBlocking<T>(_ updates: (Database) throws -> T) throws -> T {
        do {
            try refuseIfClosed()
            defer { writeSignal.fire() }
            return try writer.write(updates)
        } catch {
            throw StoreFailure.map(error, doing: "write to the store")
        }
    }

    /// The store's change stamp now: two equal stamps mean that nothing committed in
    /// between, in this process or any other. It costs a few microseconds, on the
    /// caller's thread.
    public func stamp() throws -> Int64 {
        do {
            return try version.stamp()
        } catch {
            throw StoreFailure.map(error, doing: "read the store's change stamp")
        }
    }

    /// Runs `value` in a read transaction, mapping storage failures to `FerryError`.
    ///
    /// The read runs on the caller's thread: reads are short (microseconds for a point
    /// read, a few milliseconds for ten thousand rows), and handing each to a reader's
    /// queue and back cost 10x the read itself (docs/performance.md). In WAL mode a read
    /// never waits for a writer.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try readHere(value)
        } catch {
            throw StoreFailure.map(error, doing: "read the store")
        }
    }

    /// Runs `value`, one statement's read, on the writer's connection: for the reads a
    /// runtime makes as it opens, so that a command that only writes never opens a reader's
    /// connection (each new connection parses the whole schema again).
    func readOnWriter<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            try refuseIfClosed()
            return try await writer.writeWithoutTransaction { db in try db.readOnly { try value(db) } }
        } catch {
            throw StoreFailure.map(error, doing: "read the store")
        }
    }

    /// GRDB's synchronous read, which a synchronous context selects; never during `close()`.
    func readHere<T>(_ value: (Database) throws -> T) throws -> T {
        try gate.run { try writer.read(value) }
    }

    /// Throws `StoreClosed` once `close()` has begun. A write that started before goes on:
    /// the writer's queue runs it before the close.
    private func refuseIfClosed() throws {
        if gate.isClosed { throw StoreClosed() }
    }
}
