import Dispatch
import Foundation
import GRDB

/// Checkpoints the write-ahead log from a connection of its own, on a timer, so that
/// the connection that commits local writes never copies pages back into the database.
///
/// SQLite's automatic checkpoint runs on the committing connection, inside the commit
/// that crosses the threshold: with a million rows it stalled single commits for hundreds
/// of milliseconds. The writer keeps an automatic checkpoint only as a safety net, at a
/// threshold the background checkpoints keep it far from.
final class WALCheckpointer: @unchecked Sendable {
    /// How often the background checkpoint runs.
    static let interval: DispatchTimeInterval = .milliseconds(100)
    /// The writer's own automatic checkpoint threshold, in pages (about 40 MB of WAL).
    static let writerSafetyNetPages = 10_000

    private let timer: any DispatchSourceTimer

    /// Starts checkpointing the database at `path`; stops when released.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.label = "ferry.checkpointer"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ferry.checkpointer", qos: .utility))
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(20))
        timer.setEventHandler {
            // PASSIVE never waits for readers or the writer; what it cannot copy now it copies next time.
            try? connection.writeWithoutTransaction { db in
                _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            }
        }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }
}
