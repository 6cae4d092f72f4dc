import Foundation
import GRDB
import Synchronization

/// Copies committed pages from the write-ahead log back into the database, from a
/// connection and a thread of its own, a few milliseconds after each commit.
///
/// SQLite's automatic checkpoint runs on the committing connection, inside the commit
/// that crosses its threshold: with a million rows it stalled single commits for tens
/// of milliseconds. Small checkpoints that follow the writes keep each one's fsync
/// short, which is what a concurrent commit waits behind. When nothing is written, the
/// thread sleeps: there is no timer.
///
/// The WAL file starts over only when a writer finds it fully copied. Under a stream of
/// writes with no pause that never happens, so the writer keeps SQLite's automatic
/// checkpoint as a safety net, at a threshold that bounds the WAL (about 160 MB)
/// without firing more than once per few thousand writes.
final class WALCheckpointer: Sendable {
    /// How long the checkpointer waits after a commit, so that one pass copies a burst.
    static let delay: TimeInterval = 0.005
    /// The writer's own automatic checkpoint threshold, in pages.
    static let writerSafetyNetPages = 40_000

    private let wakeup = Wakeup()

    /// Starts checkpointing the database at `path` after each commit of `writer`; stops when released.
    init(path: String, writer: any DatabaseWriter) throws {
        var configuration = Configuration()
        configuration.label = "ferry.checkpointer"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        let wakeup = wakeup
        let thread = Thread {
            while wakeup.nextCommit(after: Self.delay) {
                // PASSIVE never waits for readers or the writer; what it cannot copy now it copies next time.
                try? connection.writeWithoutTransaction { db in
                    _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
                }
            }
        }
        thread.name = "ferry.checkpointer"
        thread.start()
        writer.writeWithoutTransaction { db in
            db.add(transactionObserver: CommitObserver(wakeup: wakeup), extent: .databaseLifetime)
        }
    }

    deinit {
        wakeup.stop()
    }
}

/// Wakes the checkpointer's thread when something was committed.
private final class Wakeup: Sendable {
    private struct State {
        var committed = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    /// Called after each commit; cheap, and never blocks the writer.
    func noteCommit() {
        let wake = state.withLock { state in
            defer { state.committed = true }
            return !state.committed
        }
        if wake { signal.signal() }
    }

    /// Blocks until a commit was noted, then waits `delay` more; false once stopped.
    func nextCommit(after delay: TimeInterval) -> Bool {
        signal.wait()
        if state.withLock({ $0.stopped }) { return false }
        Thread.sleep(forTimeInterval: delay)
        return state.withLock { state in
            state.committed = false
            return !state.stopped
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        signal.signal()
    }
}

/// Observes nothing but the end of each committed transaction of the writer.
private final class CommitObserver: TransactionObserver {
    let wakeup: Wakeup

    init(wakeup: Wakeup) { self.wakeup = wakeup }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { wakeup.noteCommit() }
    func databaseDidRollback(_ db: Database) {}
}
