import Dispatch
import Synchronization

/// Lets a store's reads run until it closes, and lets it close only once none is running.
///
/// GRDB's `DatabasePool.close()` must not run while other accesses do: a read that starts
/// during the close waits for it and then gets a closed connection, and SQLite built
/// without `SQLITE_ENABLE_API_ARMOR` (Debian's) dereferences the null handle: the process
/// dies with SIGSEGV instead of the read throwing. So every read passes here first; once
/// `close()` has begun, a read throws at once, and `close()` returns only after the reads
/// already running have ended.
final class StoreAccessGate: Sendable {
    private let closed = Mutex(false)
    /// Entered by each running read, left when it ends.
    private let running = DispatchGroup()

    /// Whether `close()` has begun.
    var isClosed: Bool { closed.withLock { $0 } }

    /// Runs `access` unless the store is closed or closing; then throws `StoreClosed`.
    func run<T>(_ access: () throws -> T) throws -> T {
        try closed.withLock { closed in
            guard !closed else { throw StoreClosed() }
            running.enter()
        }
        defer { running.leave() }
        return try access()
    }

    /// Refuses every access from now on; returns once the reads already running have ended.
    func close() {
        closed.withLock { $0 = true }
        running.wait()
    }
}

/// An access to a store after `FerryStore.close()` began.
struct StoreClosed: Error {}
