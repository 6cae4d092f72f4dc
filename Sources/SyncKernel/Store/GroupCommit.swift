import Foundation
import GRDB
import Synchronization

/// Commits the writes of concurrent callers together, in one SQLite transaction.
///
/// Each caller's closure runs in a savepoint of its own inside the shared transaction, so
/// a closure that throws rolls back only its own changes and gets its own error; the
/// others still commit. A caller returns only after the shared transaction committed (at
/// `durability: full`, after the fsync), so every write keeps its guarantee: its local
/// change and its operations commit together or not at all. A lone writer runs alone,
/// without a savepoint, as it would without group commit.
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

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

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

    private func submit(_ job: Job) {
        let lead = queue.withLock { queue -> Bool in
            queue.jobs.append(job)
            guard !queue.leading else { return false }
            queue.leading = true
            return true
        }
        guard lead else { return }
        writer.asyncWriteWithoutTransaction { [self] db in commitWaiting(db) }
    }

    /// On the writer's queue: commits what is waiting, batch after batch, until nothing is.
    private func commitWaiting(_ db: Database) {
        while true {
            let batch = queue.withLock { queue -> [Job] in
                let taken = Array(queue.jobs.prefix(Self.maximumBatch))
                queue.jobs.removeFirst(taken.count)
                if taken.isEmpty { queue.leading = false }
                return taken
            }
            guard !batch.isEmpty else { return }
            var failure: (any Error)?
            do {
                try db.inTransaction(.immediate) {
                    if batch.count == 1 {
                        return batch[0].run(db) ? .commit : .rollback
                    }
                    for job in batch {
                        try db.inSavepoint { job.run(db) ? .commit : .rollback }
                    }
                    return .commit
                }
            } catch {
                failure = error
            }
            for job in batch { job.finish(failure) }
        }
    }
}

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

    /// Runs the write once; true when it succeeded.
    func run(_ db: Database) -> Bool {
        guard let updates = state.withLock({ $0.updates }) else { return false }
        let result = Result { try updates(db) }
        state.withLock {
            $0.updates = nil
            $0.result = result
        }
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
