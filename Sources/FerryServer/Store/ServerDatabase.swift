import Foundation
import GRDB

/// The server's SQLite database: it owns the writer and migrates on open.
///
/// A file at `<dataDirectory>/server.sqlite` (WAL, `synchronous=NORMAL`: survives a
/// process crash, not a power loss), or an in-memory database when no directory is given.
struct ServerDatabase: Sendable {
    let writer: DatabaseQueue

    /// Opens (creating if needed) and migrates the database.
    init(dataDirectory: String?, busyTimeout: TimeInterval = 10) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Several processes may serve one data folder (two `ferry` commands with an embedded server).
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        if let dataDirectory {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
            let path = (dataDirectory as NSString).appendingPathComponent("server.sqlite")
            writer = try DatabaseQueue(path: path, configuration: configuration)
            try writer.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        } else {
            writer = try DatabaseQueue(configuration: configuration)
        }
        try Self.migrator.migrate(writer)
    }

    /// Runs `block` in a read.
    func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.read(block)
    }

    /// Runs `block` in one write transaction.
    func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(block)
    }
}
