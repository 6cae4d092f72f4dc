import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Synchronization
import Testing

@Suite("Cache: the memory tier and watched reads")
struct ReadCacheTests {
    /// A store with one table of values, read through a counting loader.
    final class Fixture: Sendable {
        let store: FerryStore
        let loads = Mutex(0)

        init(path: String? = nil) throws {
            let migration = StoreMigration("test.v1.values") { db in
                try db.execute(sql: "CREATE TABLE test_values (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                try db.execute(sql: "CREATE TABLE test_other (n INTEGER)")
            }
            store = try path.map { try FerryStore.open(at: $0, migrations: [migration]) }
                ?? FerryStore.inMemory(migrations: [migration])
        }

        func set(_ key: String, _ value: String) async throws {
            try await store.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO test_values VALUES (?, ?)", arguments: [key, value])
            }
        }

        /// A write that changes nothing any read here returns.
        func touchOther() async throws {
            try await store.write { db in try db.execute(sql: "INSERT INTO test_other VALUES (1)") }
        }

        func load(_ key: String) async throws -> String? {
            loads.withLock { $0 += 1 }
            return try await store.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM test_values WHERE key = ?", arguments: [key])
            }
        }

        func snapshot(_ key: String) async throws -> CacheSnapshot<String>? {
            try await load(key).map { CacheSnapshot(value: $0, hasPendingWrites: false) }
        }
    }

    @Test func anUnchangedStoreAnswersFromMemory() async throws {
        let fixture = try Fixture()
        try await fixture.set("a", "one")
        let cache = ReadCache(store: fixture.store, capacity: 10)
        #expect(try await cache.value(for: "a") { try await fixture.load("a") } == "one")
        #expect(try await cache.value(for: "a") { try await fixture.load("a") } == "one")
        #expect(fixture.loads.withLock { $0 } == 1)
        let statistics = cache.statistics
        #expect(statistics.hits == 1 && statistics.misses == 1 && statistics.entries == 1)
        #expect(statistics.hitRate == 0.5)
    }

    @Test func anyWriteThroughTheStoreIsSeenByTheNextRead() async throws {
        let fixture = try Fixture()
        try await fixture.set("a", "one")
        let cache = ReadCache(store: fixture.store, capacity: 10)
        _ = try await cache.value(for: "a") { try await fixture.load("a") }
        try await fixture.set("a", "two")
        #expect(try await cache.value(for: "a") { try await fixture.load("a") } == "two")
        #expect(fixture.loads.withLock { $0 } == 2)
    }

    @Test func aWriteByAnotherConnectionIsSeenByTheNextRead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-readcache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ferry.sqlite").path
        let fixture = try Fixture(path: path)
        try await fixture.set("a", "one")
        let cache = ReadCache(store: fixture.store, capacity: 10)
        #expect(try await cache.value(for: "a") { try await fixture.load("a") } == "one")
        // A connection the store knows nothing of, as another process has.
        let other = try DatabaseQueue(path: path)
        try await other.write { db in try db.execute(sql: "UPDATE test_values SET value = 'theirs'") }
        #expect(try await cache.value(for: "a") { try await fixture.load("a") } == "theirs")
    }

    @Test func aValueReadWhileAWriteCommittedIsNotKept() async throws {
        let fixture = try Fixture()
        try await fixture.set("a", "one")
        let cache = ReadCache(store: fixture.store, capacity: 10)
        // The write commits after the tier took its stamp and before the value is kept.
        let first = try await cache.value(for: "a") {
            try await fixture.set("a", "two")
            return try await fixture.load("a")
        }
        #expect(first == "two")
        _ = try await cache.value(for: "a") { try await fixture.load("a") }
        #expect(fixture.loads.withLock { $0 } == 2, "kept under the stamp before the write, it would answer from memory")
    }

    @Test func theCapacityBoundsTheTierAndTheLeastRecentlyUsedGoFirst() async throws {
        let fixture = try Fixture()
        let cache = ReadCache(store: fixture.store, capacity: 8)
        for key in (0..<8).map(String.init) { _ = try await cache.value(for: key) { try await fixture.load(key) } }
        _ = try await cache.value(for: "0") { try await fixture.load("0") }  // used last now
        for key in (8..<20).map(String.init) { _ = try await cache.value(for: key) { try await fixture.load(key) } }
        let statistics = cache.statistics
        #expect(statistics.entries <= 8)
        #expect(statistics.evictions >= 12)
        let loads = fixture.loads.withLock { $0 }
        _ = try await cache.value(for: "19") { try await fixture.load("19") }
        #expect(fixture.loads.withLock { $0 } == loads, "the newest result is held")
    }

    @Test func capacityZeroTurnsTheTierOff() async throws {
        let fixture = try Fixture()
        let cache = ReadCache(store: fixture.store, capacity: 0)
        for _ in 0..<3 { _ = try await cache.value(for: "a") { try await fixture.load("a") } }
        #expect(fixture.loads.withLock { $0 } == 3)
    }

    @Test func aWatchYieldsOnlyWhenWhatItReadsChanges() async throws {
        let fixture = try Fixture()
        try await fixture.set("a", "one")
        let clock = TestClock()
        let reader = CachedReader(
            connectivity: ManualConnectivity(),
            clock: clock,
            memory: ReadCache(store: fixture.store, capacity: 10)
        )
        var answers = reader.watch(.cacheOnly, key: "a", cache: { try await fixture.snapshot("a") }, refresh: {})
            .makeAsyncIterator()
        #expect(try await answers.next()?.value == "one")
        try await fixture.touchOther()
        try await fixture.set("a", "two")
        #expect(try await answers.next()?.value == "two", "the unrelated write yields nothing")
        try await fixture.set("a", "two")
        try await fixture.set("a", "three")
        #expect(try await answers.next()?.value == "three")
    }

    @Test func aWatchSeesAnotherConnectionsWriteByPolling() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-watch-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ferry.sqlite").path
        let fixture = try Fixture(path: path)
        try await fixture.set("a", "one")
        let clock = TestClock()
        let reader = CachedReader(
            connectivity: ManualConnectivity(),
            clock: clock,
            memory: ReadCache(store: fixture.store, capacity: 10),
            watchInterval: 0.02
        )
        var answers = reader.watch(.cacheOnly, key: "a", cache: { try await fixture.snapshot("a") }, refresh: {})
            .makeAsyncIterator()
        #expect(try await answers.next()?.value == "one")
        let other = try DatabaseQueue(path: path)
        try await other.write { db in try db.execute(sql: "UPDATE test_values SET value = 'theirs'") }
        let poll = Task {
            // The watcher polls on the test clock: move it until the answer comes.
            while !Task.isCancelled {
                clock.advance(by: 0.02)
                await Task.yield()
            }
        }
        defer { poll.cancel() }
        #expect(try await answers.next()?.value == "theirs")
    }

    @Test func aWatchWithoutTheRuntimesStoreSaysHowToMakeOne() async throws {
        let reader = CachedReader(connectivity: ManualConnectivity())
        var answers = reader.watch(.cacheOnly, cache: { CacheSnapshot(value: 1, hasPendingWrites: false) }, refresh: {})
            .makeAsyncIterator()
        let error = await #expect(throws: FerryError.self) { _ = try await answers.next() }
        #expect(error?.message.contains("CachedReader(runtime:)") == true)
    }
}
