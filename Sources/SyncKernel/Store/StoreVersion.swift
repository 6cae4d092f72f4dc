import Foundation
import GRDB

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
        /// The stamp connection of a file store.
        case observer(DatabaseQueue)
        /// The one connection of an in-memory store.
        case connection(DatabaseQueue)
    }

    private let source: Source

    /// A stamp for the store at `path`, through a read-only connection of its own.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "ferry.store-version"
        source = .observer(try DatabaseQueue(path: path, configuration: configuration))
    }

    /// A stamp for an in-memory store: its one connection's count of changed rows.
    init(memory queue: DatabaseQueue) {
        source = .connection(queue)
    }

    /// The store's stamp now: equal stamps mean no commit happened in between.
    func stamp() throws -> Int64 {
        switch source {
        case .observer(let queue):
            try queue.inDatabase { db in
                try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
            }
        case .connection(let queue):
            queue.inDatabase { db in Int64(db.totalChangesCount) }
        }
    }
}
