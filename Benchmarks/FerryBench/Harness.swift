import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting

/// Opens Ferry runtimes and raw connections on files in a scratch folder.
struct Harness {
    let root: URL

    init() throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ferry-bench-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func folder(_ name: String) -> URL {
        let url = root.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func cleanUp() { try? FileManager.default.removeItem(at: root) }

    /// A runtime over `folder/ferry.sqlite`.
    func runtime(
        in folder: URL,
        durability: Durability = .normal,
        server: String = "http://127.0.0.1:9",
        concurrency: Int = 8,
        batchSize: Int = 100,
        network: Bool = false,
        pull: Bool = false,
        token: String? = nil,
        probe: Bool = false
    ) async throws -> FerryRuntime {
        let yaml = """
            data_dir: \(folder.path)
            server: \(server)
            durability: \(durability.rawValue)
            sync:
              concurrency: \(concurrency)
              batch_size: \(batchSize)
            plugins:
              bench:
                network: \(network)
                pull: \(pull)
            """
        let configuration = try FerryConfiguration.parse(yaml, file: "bench.yaml")
        var options = FerryRuntime.Options()
        // The real probe (of `server`, over the machine's interfaces) where the scenario
        // measures connectivity itself; a fixed "online" everywhere else.
        options.connectivity = probe ? nil : ManualConnectivity()
        options.credentials = StaticCredentials(token: token)
        return try await FerryRuntime.open(
            configuration: configuration,
            pluginTypes: [BenchPlugin.self],
            options: options
        )
    }

    /// Creates the kernel's schema (and the bench plugin's) in `folder/ferry.sqlite`,
    /// so the raw baseline writes to exactly the same tables and indexes.
    func createSchema(in folder: URL) async throws {
        _ = try await runtime(in: folder)
    }

    func databasePath(_ folder: URL) -> String { folder.appendingPathComponent("ferry.sqlite").path }
}

/// Bulk-fills a store through the C API (fast, outside any timing).
enum Prefill {
    /// `count` rows in `bench_entities`.
    static func entities(_ count: Int, path: String) throws {
        let raw = try RawSQLite(path: path, synchronous: "OFF")
        var done = 0
        while done < count {
            try raw.transaction {
                for i in done..<min(count, done + 50_000) {
                    try raw.run(
                        "INSERT INTO bench_entities (id, value, updated_at) VALUES (?, ?, ?)",
                        [.text("seed-\(i)"), .text("value \(i)"), .double(Double(i))]
                    )
                }
            }
            done += 50_000
        }
        try raw.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// `count` pending operations of the bench plugin, each on its own entity.
    static func pending(_ count: Int, path: String) throws {
        let raw = try RawSQLite(path: path, synchronous: "OFF")
        let now = Date().timeIntervalSince1970 - 1
        var done = 0
        while done < count {
            try raw.transaction {
                for i in done..<min(count, done + 50_000) {
                    try RawOutbox.insertOperation(raw, entity: "pending-\(i)", value: "v", now: now)
                }
            }
            done += 50_000
        }
        try raw.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// The raw baseline's version of the kernel's writes: the same rows in the same tables,
/// with the same time-ordered operation ids.
enum RawOutbox {
    static func insertOperation(_ raw: RawSQLite, entity: String, value: String, now: Double) throws {
        try raw.run(
            """
            INSERT INTO kernel_operations
                (id, plugin, kind, entity, payload, base, created_at, next_attempt_at, state, requires_unmetered, account)
            VALUES (?, 'bench', 'put', ?, ?, NULL, ?, ?, 'pending', 0, NULL)
            """,
            [
                .text(UUID.timeOrdered(at: Date()).uuidString.lowercased()), .text(entity),
                .blob(Data("{\"title\":\"\(value)\"}".utf8)),
                .double(now), .double(now),
            ]
        )
    }

    /// One local write: the entity upsert and its operation.
    static func localWrite(_ raw: RawSQLite, entity: String, value: String, now: Double) throws {
        try raw.run(
            "INSERT INTO bench_entities (id, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            [.text(entity), .text(value), .double(now)]
        )
        try insertOperation(raw, entity: entity, value: value, now: now)
    }
}
