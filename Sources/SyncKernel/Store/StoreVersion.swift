import Foundation
import GRDB
import Synchronization

/// Tells whether the store changed, whoever changed it: this process, another process
/// on the same file, a pull or a local write.
///
/// A file store keeps one read-only connection of its own and asks it SQLite's
/// `PRAGMA data_version`, which changes whenever any *other* connection commits, and
/// every write goes through another connection. In memory there is only one
/// connection, and its count of changed rows (`total_changes()`) serves instead.
/// Either way a stamp costs a few microseconds and no thread hop: it runs on the
/// caller's thread.
final class StoreVersion: Sendable {
    private enum Source: Sendable {
        /// A file store: its stamp connection is opened by the first stamp.
        case file(path: String)
        /// The one connection of an in-memory store.
        case memory(DatabaseQueue)
    }

    private let source: Source
    /// The stamp connection of a file store, once opened.
    private let observer = Mutex<DatabaseQueue?>(nil)

    /// A stamp for the store at `path`, through a read-only connection of its own, opened
    /// when first asked: a command that never reads through the memory tier never opens it.
    init(path: String) {
        source = .file(path: path)
    }

    /// A stamp for an in-memory store: its one connection's count of changed rows.
    init(memory queue: DatabaseQueue) {
        source = .memory(queue)
    }

    /// The store's stamp now: equal stamps mean no commit happened in between.
    func stamp() throws -> Int64 {
        switch source {
        case .memory(let queue):
            return queue.inDatabase { db in Int64(db.totalChangesCount) }
        case .file(let path):
            return try observerConnection(path).inDatabase { db in
                try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
            }
        }
    }

    private func observerConnection(_ path: String) throws -> DatabaseQueue {
        try observer.withLock { observer in
            if let observer { return observer }
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            configuration.label = "ferry.store-version"
            let opened = try DatabaseQueue(path: path, configuration: configuration)
            observer = opened
            return opened
        }
    }
}
