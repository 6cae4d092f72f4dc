import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Store: migrations, durability, several processes")
struct StoreTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ferry-store-\(UUID().uuidString)/ferry.sqlite")
            .path
    }

    @Test func kernelMigrationsRunFirstThenThePluginsUnderTheirIds() throws {
        let store = try FerryStore.open(at: temporaryPath(), migrations: TestPlugin.migrations)
        let applied = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(applied.first == "kernel.v1.outbox")
        #expect(applied.last == "items.v1.entries")
        #expect(applied.allSatisfy { $0.hasPrefix("kernel.v") || $0.hasPrefix("items.v1.") })
    }

    @Test(arguments: [(Durability.normal, 1), (Durability.full, 2)])
    func theChosenDurabilityIsTheOneInForce(durability: Durability, synchronous: Int) throws {
        let store = try FerryStore.open(at: temporaryPath(), durability: durability)
        let mode = try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        let journal = try store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == synchronous)
        #expect(journal == "wal")
    }

    @Test func aNewStoreHasPagesOf1KBAndAnOlderStoreKeepsItsOwn() throws {
        let path = temporaryPath()
        let store = try FerryStore.open(at: path)
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 1024)

        // A store created with SQLite's default pages (as before 1 KB pages) opens, keeps
        // them, and migrates.
        let olderPath = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (olderPath as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try DatabaseQueue(path: olderPath).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE older (x)")
        }
        let older = try FerryStore.open(at: olderPath, migrations: TestPlugin.migrations)
        let (pageSize, migrated) = try older.writer.read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA page_size"),
                try Bool.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) > 0 FROM grdb_migrations WHERE identifier = 'kernel.v1.outbox'"
                )
            )
        }
        #expect(pageSize == 4096)
        #expect(migrated == true)
    }

    @Test func aStoreReopenedKeepsItsOperations() async throws {
        let path = temporaryPath()
        do {
            let store = try FerryStore.open(at: path, migrations: TestPlugin.migrations)
            let test = try await TestRuntime.make(server: "http://127.0.0.1:9", store: store)
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
        }
        let reopened = try FerryStore.open(at: path, migrations: TestPlugin.migrations)
        let count = try await reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kernel_operations")
        }
        #expect(count == 1)
    }

    @Test func aRunnerSeesOperationsQueuedThroughAnotherConnection() async throws {
        let path = temporaryPath()
        try await TestPluginServer.with { server, url in
            let runnerStore = try FerryStore.open(at: path, migrations: TestPlugin.migrations)
            let otherStore = try FerryStore.open(at: path, migrations: TestPlugin.migrations)
            let runner = try await TestRuntime.make(server: url, store: runnerStore)
            let other = try await TestRuntime.make(server: url, store: otherStore)
            let engine = SyncEngine(runtime: runner.runtime)
            let loop = Task { try await engine.run() }
            while runner.clock.sleeperCount == 0 { await Task.yield() }
            _ = try await TestPlugin.put("from-elsewhere", "v", in: other.runtime)
            runner.clock.advance(by: 0.5)
            var waited = 0
            while server.item("from-elsewhere") == nil && waited < 500 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            engine.stop()
            runner.clock.advance(by: 1)
            loop.cancel()
            _ = try? await loop.value
            #expect(server.item("from-elsewhere")?.value == "v")
        }
    }
}
