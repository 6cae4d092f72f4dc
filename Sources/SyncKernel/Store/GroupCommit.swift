import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Commits the writes of concurrent callers together, in one SQLite transaction.
///
/// A closure that throws gets its own error and leaves no change behind; the others still
/// commit (see `commit(_:in:)`: the batch then runs again, so a closure may run twice and
/// must only change the database). A caller returns only after the shared transaction
/// committed (at `durability: full`, after the fsync), so every write keeps its
/// guarantee: its local change and its operations commit together or not at all.
///
/// Durable commits are bounded by fsync: committing 64 waiting writers with one fsync
/// instead of 64 is how durable throughput scales with writers.
final class GroupCommit: Sendable {
    /// One caller's write, type-erased.
    private struct Job: Sendable {
        /// Runs the closure; true when it succeeded.
        let run: @Sendable (Database) -> Bool
        /// Answers the caller once the shared transaction is over (nil: it committed).
        let finish: @Sendable ((any Error)?) -> Void
    }

    private struct Queue {
        var jobs: [Job] = []
        var leading = false
    }

    /// Most writes committed in one transaction, to bound the latency of the first one.
    static let maximumBatch = 512

    private let writer: any DatabaseWriter
    private let queue = Mutex(Queue())
    /// Whether the first writer commits on its own thread (see `submit`); tests that hold
    /// the writer inside a write turn it off, so that the hold is on the writer's queue
    /// and not on one of the few cooperative threads.
    private let leaderCommitsHere: Bool

    init(writer: any DatabaseWriter, leaderCommitsHere: Bool = true) {
        self.writer = writer
        self.leaderCommitsHere = leaderCommitsHere
    }

    /// How many writes wait for the writer's queue.
    var waitingCount: Int { queue.withLock { $0.jobs.count } }

    /// Runs `updates` in a transaction shared with the other writers waiting now.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Outcome<T>(updates)
            let job = Job(
                run: { db in outcome.run(db) },
                finish: { transactionError in
                    switch outcome.finish() {
                    case .failure(let error)?: continuation.resume(throwing: error)
                    case .success(let value)? where transactionError == nil: continuation.resume(returning: value)
                    default: continuation.resume(throwing: transactionError ?? CancellationError())
                    }
                }
            )
            submit(job)
        }
    }

    /// The first writer to arrive leads: it commits on its own thread what waits (itself,
    /// and whoever arrived meanwhile), once; writes still waiting after that are
    /// committed on the writer's queue, batch after batch, while it returns. An
    /// uncontended write thus never changes threads: handing it to the writer's queue
    /// and back cost more than SQLite's own work (docs/performance.md).
    ///
    /// The leader's own round never waits for another connection's write lock (another
    /// process committing): it would hold one of Swift's few cooperative threads for as
    /// long as the busy timeout. When the lock is taken, the round goes to the writer's
    /// queue, which waits for it.
    private func submit(_ job: Job) {
        let lead = queue.withLock { queue -> Bool in
            queue.jobs.append(job)
            guard !queue.leading else { return false }
            queue.leading = true
            return true
        }
        guard lead else { return }
        guard leaderCommitsHere else {
            writer.asyncWriteWithoutTransaction { [self] db in _ = commitWaiting(db, rounds: .max) }
            return
        }
        let more = writer.writeWithoutTransaction { db in
            // What `PRAGMA busy_timeout` does, without running a statement twice per write.
            // A closed store (`FerryStore.close()`) has no connection: its writes throw.
            guard let connection = db.sqliteConnection else { return commitWaiting(db, rounds: 1) }
            sqlite3_busy_timeout(connection, 0)
            defer { sqlite3_busy_timeout(connection, Int32(FerryStore.busyTimeoutMilliseconds)) }
            return commitWaiting(db, rounds: 1, waitForLock: false)
        }
        guard more else { return }
        writer.asyncWriteWithoutTransaction { [self] db in _ = commitWaiting(db, rounds: .max) }
    }

    /// On the writer's connection: commits what is waiting, batch after batch, for at most
    /// `rounds` batches. True when writes still wait (the caller still leads). Without
    /// `waitForLock`, a batch whose transaction could not begin at once goes back to the
    /// front of the queue, none of it finished.
    private func commitWaiting(_ db: Database, rounds: Int, waitForLock: Bool = true) -> Bool {
        for _ in 0..<rounds {
            let batch = queue.withLock { queue -> [Job] in
                let taken = Array(queue.jobs.prefix(Self.maximumBatch))
                queue.jobs.removeFirst(taken.count)
                if taken.isEmpty { queue.leading = false }
                return taken
            }
            guard !batch.isEmpty else { return false }
            var failure: (any Error)?
            do {
                try commit(batch, in: db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && !waitForLock {
                queue.withLock { $0.jobs.insert(contentsOf: batch, at: 0) }
                return true
            } catch {
                failure = error
            }
            for job in batch { job.finish(failure) }
        }
        return queue.withLock { queue in
            if queue.jobs.isEmpty { queue.leading = false }
            return queue.leading
        }
    }
}

extension GroupCommit {
    /// Commits `batch` in one transaction; each job that fails leaves no change behind.
    ///
    /// Jobs first run back to back, without savepoints: a savepoint per job cost about a
    /// quarter of SQLite's time per write (measured with the C API, 32 writes per
    /// transaction). Writes rarely fail, so when one does the transaction is rolled back
    /// and the batch runs again, each job in a savepoint of its own.
    private func commit(_ batch: [Job], in db: Database) throws {
        let allRan = try Self.transaction(in: db) { batch.allSatisfy { $0.run(db) } }
        guard !allRan, batch.count > 1 else { return }
        _ = try Self.transaction(in: db) {
            for job in batch {
                do {
                    try db.withSavepoint { if !job.run(db) { throw JobFailed() } }
                } catch is JobFailed {}
            }
            return true
        }
    }
}

extension GroupCommit {
    /// Runs `body` in an immediate transaction that commits when it returns true and rolls
    /// back otherwise; returns what `body` returned.
    ///
    /// `BEGIN` and `COMMIT` are statements prepared once: GRDB's `inTransaction` parses
    /// both again on every write, a few microseconds of a write's twenty or so.
    static func transaction(in db: Database, _ body: () throws -> Bool) throws -> Bool {
        try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
        do {
            let succeeded = try body()
            // A write that failed on a full disk may have made SQLite roll back already.
            if succeeded || db.isInsideTransaction {
                try db.cachedStatement(sql: succeeded ? "COMMIT" : "ROLLBACK").execute()
            }
            return succeeded
        } catch {
            // A failed COMMIT (a full disk) may leave the transaction open.
            if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK").execute() }
            throw error
        }
    }
}

/// A job whose closure threw: its savepoint is rolled back; the closure's own error
/// reaches its caller through `Outcome`.
private struct JobFailed: Error {}

/// A caller's write and its result: run on the writer's queue, read once the transaction is over.
private final class Outcome<T: Sendable>: Sendable {
    private struct State {
        var updates: (@Sendable (Database) throws -> T)?
        var result: Result<T, any Error>?
    }

    private let state: Mutex<State>

    init(_ updates: @escaping @Sendable (Database) throws -> T) {
        state = Mutex(State(updates: updates))
    }

    /// Runs the write (again, if its batch was rolled back); true when it succeeded.
    func run(_ db: Database) -> Bool {
        guard let updates = state.withLock({ $0.updates }) else { return false }
        let result = Result { try updates(db) }
        state.withLock { $0.result = result }
        if case .success = result { return true }
        return false
    }

    /// Lets go of the write and returns its result, if it ran.
    func finish() -> Result<T, any Error>? {
        state.withLock {
            $0.updates = nil
            return $0.result
        }
    }
}
