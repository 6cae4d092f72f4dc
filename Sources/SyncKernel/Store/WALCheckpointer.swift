import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Copies committed pages from the write-ahead log back into the database, from a
/// connection and a thread of its own, a few milliseconds after a commit.
///
/// SQLite's automatic checkpoint runs on the committing connection, inside the commit
/// that crosses its threshold: with a million rows it stalled single commits for tens
/// of milliseconds. Here the writer's connection only reports the WAL's size after each
/// commit (SQLite's WAL hook), and this thread does the copying:
///
/// - It copies each time the WAL has grown by `minimumPages` (SQLite's own threshold)
///   since it last did, as often as SQLite's automatic checkpoint would. Copying more
///   often (it once copied every few milliseconds under a stream of writes) copies the
///   same hot pages again and again: 11x the pages and a database fsync every few
///   writes, which doubled a durable write's p50 (docs/performance.md).
/// - Each time the WAL is fully copied, the next commit starts it over, and that commit
///   pays an fsync of the WAL's header.
/// - The WAL starts over only when a commit finds it fully copied, which may not happen
///   under a stream of writes with readers. The writer then checkpoints itself, as
///   SQLite would, at `writerSafetyNetPages`: this bounds the WAL (about 41 MB with
///   1 KB pages).
///
/// It also copies once just after the store opens. When nothing is written the thread
/// sleeps: there is no timer.
final class WALCheckpointer: Sendable {
    /// How long the checkpointer waits after a commit, so that one pass copies a burst.
    static let delay: TimeInterval = 0.005
    /// The WAL size, in pages, from which the checkpointer copies.
    static let minimumPages: Int32 = 1000
    /// The WAL size, in pages, at which the writer checkpoints itself.
    static let writerSafetyNetPages: Int32 = 40_000

    private let wakeup = Wakeup()
    /// Signalled once the thread has closed its connection and ended.
    private let ended = DispatchSemaphore(value: 0)

    /// Starts checkpointing the database at `path` after the commits of `writer`; stops when released.
    init(path: String, writer: any DatabaseWriter) throws {
        var configuration = Configuration()
        configuration.label = "ferry.wal-copy"
        // Opening reads the schema, which waits while another process opens the store
        // (WAL recovery); a PASSIVE checkpoint never waits whatever this says.
        configuration.busyMode = .timeout(10)
        let (wakeup, ended) = (wakeup, ended)
        let thread = Thread { [configuration] in
            defer { ended.signal() }
            // Named from inside: on Linux a name set before `start()` is not applied.
            Thread.current.name = "ferry.wal-copy"
            // Opened here, off the path of the command opening the store. A connection
            // that cannot open leaves the copying to SQLite's writer at its safety net.
            guard let connection = try? DatabaseQueue(path: path, configuration: configuration) else { return }
            while wakeup.nextCommit(after: Self.delay) {
                // PASSIVE never waits for readers or the writer; what it cannot copy now it copies next time.
                try? connection.writeWithoutTransaction { db in
                    _ = try Row.fetchOne(db.cachedStatement(sql: "PRAGMA wal_checkpoint(PASSIVE)"))
                }
            }
            // Closed before `ended`: whoever waits in `stop()` knows this connection is gone.
            try? connection.close()
        }
        thread.start()
        writer.writeWithoutTransaction { db in
            let hook = WALHook(wakeup: wakeup)
            // Retained for good: SQLite calls the hook as long as the connection lives, which
            // can be longer than the store (`FerryStore.writer` is public), and it gives no
            // notice of the close. One small object per store opened. (Keeping it as a GRDB
            // transaction observer instead put GRDB's observation work on every statement
            // of every write: about 10 µs of a local write's p50.)
            sqlite3_wal_hook(
                db.sqliteConnection,
                { context, connection, name, pages in
                    guard let context else { return SQLITE_OK }
                    return Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue()
                        .walDidGrow(to: pages, connection: connection, name: name)
                },
                Unmanaged.passRetained(hook).toOpaque()
            )
        }
        // A process that exits soon after its commits (a CLI command) leaves them in the
        // WAL: the next one to open the store copies them, whatever their number.
        wakeup.noteCommit()
    }

    /// Stops checkpointing, and returns once the thread has closed its connection: the
    /// store's own connections, closed next, are then the last, and the last to close
    /// copies the whole WAL back and removes it, whatever this thread was doing.
    func stop() {
        wakeup.stop()
        ended.wait()
        // For the next caller: a store closed twice (a simulated crash) waits once.
        ended.signal()
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

    /// Called after a commit; cheap, and never blocks the writer.
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

/// Called by SQLite after each commit of the writer, with the WAL's size in pages.
private final class WALHook: Sendable {
    let wakeup: Wakeup
    /// The WAL's size when the checkpointer was last woken: it copies again once the WAL
    /// has grown by `minimumPages` since, or started over.
    private let wokenAt = Atomic<Int32>(0)

    init(wakeup: Wakeup) { self.wakeup = wakeup }

    func walDidGrow(to pages: Int32, connection: OpaquePointer?, name: UnsafePointer<CChar>?) -> Int32 {
        if pages >= WALCheckpointer.writerSafetyNetPages {
            // What SQLite's automatic checkpoint does, at a higher threshold.
            sqlite3_wal_checkpoint(connection, name)
            return SQLITE_OK
        }
        let woken = wokenAt.load(ordering: .relaxed)
        // A WAL smaller than when last woken has started over.
        let base = pages < woken ? 0 : woken
        if pages - base >= WALCheckpointer.minimumPages {
            wokenAt.store(pages, ordering: .relaxed)
            wakeup.noteCommit()
        } else if base != woken {
            wokenAt.store(0, ordering: .relaxed)
        }
        return SQLITE_OK
    }
}
