import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

/// The files of a store on disk: several processes creating it at once, who may read it,
/// and a store that was lost.
@Suite("Store: files, permissions, a lost store")
struct StoreFilesTests {
    func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ferry-files-\(UUID().uuidString)").path
    }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
    }

    @Test func manyProcessesCreatingOneStoreAtOnceAllSucceed() async throws {
        for _ in 0..<5 {
            let path = temporaryFolder() + "/ferry.sqlite"
            // Each open is a connection pool of its own, as each process has: they race to
            // create the kernel's tables.
            let failures = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            let store = try FerryStore.open(at: path, migrations: TestPlugin.migrations)
                            try await store.write { db in
                                try db.execute(sql: "INSERT INTO items_entries (key, value) VALUES (?, 'v')", arguments: [UUID().uuidString])
                            }
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.compactMap { $0 }.reduce(into: []) { $0.append($1) }
            }
            #expect(failures.isEmpty)
        }
    }

    @Test func theFolderAndTheStoreFilesAreReadableByTheirOwnerOnly() async throws {
        let folder = temporaryFolder()
        // A folder that exists already, open to everyone, is narrowed too.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let store = try FerryStore.open(at: folder + "/ferry.sqlite", migrations: TestPlugin.migrations)
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9", store: store)
        _ = try await TestPlugin.put("a", "secret payload", in: test.runtime)
        #expect(try mode(folder) == 0o700)
        for file in ["ferry.sqlite", "ferry.sqlite-wal", "ferry.sqlite-shm", "ferry.sqlite.created"] {
            #expect(try mode(folder + "/" + file) == 0o600, "\(file)")
        }
    }

    @Test func aStoreThatWasCreatedAndIsNowEmptyIsAnErrorThatNamesTheFile() async throws {
        // What a crash or a careless copy leaves: the marker of a store that held queued
        // operations, beside a zero-length database file.
        let folder = temporaryFolder()
        let path = folder + "/ferry.sqlite"
        _ = try FerryStore.open(at: temporaryFolder() + "/elsewhere.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path + ".created", contents: Data("created".utf8))
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let error = #expect(throws: FerryError.self) { try FerryStore.open(at: path, migrations: TestPlugin.migrations) }
        #expect(error?.code == .storage)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("is empty") == true)
        // Nothing was created in its place.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber == 0)
    }

    @Test func aStoreThatWasCreatedAndIsNowMissingIsAnError() async throws {
        let folder = temporaryFolder()
        let path = folder + "/ferry.sqlite"
        _ = try FerryStore.open(at: path)
        for file in ["ferry.sqlite", "ferry.sqlite-wal", "ferry.sqlite-shm"] {
            try? FileManager.default.removeItem(atPath: folder + "/" + file)
        }
        let error = #expect(throws: FerryError.self) { try FerryStore.open(at: path) }
        #expect(error?.message.contains("is missing") == true)
        // The way out the message gives: remove the marker to start over.
        try FileManager.default.removeItem(atPath: path + ".created")
        _ = try FerryStore.open(at: path)
    }

    @Test func anEmptyStoreBesideAPluginsFilesIsAnErrorEvenWithoutTheMarker() throws {
        // A store created before the marker existed: the plugin folders say it was there.
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/auth", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/ferry.sqlite", contents: Data())
        #expect(throws: FerryError.self) { try FerryStore.open(at: folder + "/ferry.sqlite") }
    }

    @Test func anEmptyFileInAnEmptyFolderIsANewStore() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/ferry.sqlite", contents: Data())
        _ = try FerryStore.open(at: folder + "/ferry.sqlite")
        #expect(FileManager.default.fileExists(atPath: folder + "/ferry.sqlite.created"))
    }

    @Test func anOperationWithAnUnreadableIdIsAnErrorNotANewKey() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        _ = try await TestPlugin.put("a", "v", in: test.runtime)
        try await test.runtime.store.write { db in try db.execute(sql: "UPDATE kernel_operations SET id = 'not-a-uuid'") }
        let error = await #expect(throws: FerryError.self) { _ = try await test.operations() }
        #expect(error?.message.contains("not-a-uuid") == true)
    }

    @Test func aStoreDamagedInsideFailsItsIntegrityCheckWithTheFile() async throws {
        let path = temporaryFolder() + "/ferry.sqlite"
        do {
            let store = try FerryStore.open(at: path, migrations: TestPlugin.migrations)
            let test = try await TestRuntime.make(server: "http://127.0.0.1:9", store: store)
            for i in 0..<300 { _ = try await TestPlugin.put("k\(i)", String(repeating: "v", count: 200), in: test.runtime) }
            try await store.checkIntegrity()
            // Everything copied from the log into the file, so that the damage below hits
            // pages in use rather than stale copies the log supersedes.
            // The store's own checkpointer may be copying at this moment: wait for it.
            try await Wait.until {
                (try? await store.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }) != nil
            }
        }
        // 512 zero bytes in the middle of the file, as a failing disk or a bad copy leaves.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(count: 512))
        try handle.close()
        let damaged = try FerryStore.open(at: path, migrations: TestPlugin.migrations)
        let error = await #expect(throws: FerryError.self) { try await damaged.checkIntegrity() }
        #expect(error?.code == .storage)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("damaged") == true)
    }
}
