import FerryServerTesting
import Foundation
@testable import SyncKernel
import SyncKernelTesting
import Synchronization
import Testing

@Suite("Transfers: the file cache over real HTTP")
struct FileCacheTests {
    /// A cache in a fresh folder over an in-memory store.
    struct Fixture {
        let cache: FileCache
        let root: URL
        let clock: TestClock
        let connectivity: ManualConnectivity
        let events: EventBus

        init(budget: TransferBudget = .unlimited) throws {
            let store = try FerryStore.inMemory()
            root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-files-\(UUID().uuidString)")
            clock = TestClock()
            connectivity = ManualConnectivity()
            events = EventBus()
            cache = FileCache(
                owner: "test.files",
                root: root,
                store: store,
                budget: budget,
                clock: clock,
                events: events,
                connectivity: connectivity,
                transport: HTTPTransport(baseURL: "http://127.0.0.1:9")
            )
        }

        func exists(_ relative: String) -> Bool {
            FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path)
        }
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// Online until told that a request got no answer.
    final class Forgetful: ConnectivityMonitor {
        let reachable = Mutex(true)
        func current() async -> ConnectivityState { reachable.withLock { $0 } ? .online : .offline }
        func reportUnreachable() async { reachable.withLock { $0 = false } }
        func reportReachable() async {}
    }

    @Test func aDownloadThatGetsNoAnswerHasConnectivityLookAgainAndTheNextOneFailsAtOnce() async throws {
        let executor = RecordingExecutor()
        executor.enqueue(.noAnswer("connection refused"))
        let connectivity = Forgetful()
        let cache = FileCache(
            owner: "test.files",
            root: FileManager.default.temporaryDirectory.appendingPathComponent("ferry-files-\(UUID().uuidString)"),
            store: try FerryStore.inMemory(),
            connectivity: connectivity,
            transport: HTTPTransport(baseURL: "https://media.test", executor: executor)
        )
        await #expect(throws: TransportFailure.self) {
            try await cache.fetch(TransferRequest(key: "a", url: "https://media.test/a.bin", relativePath: "a.bin"))
        }
        let next = await #expect(throws: FerryError.self) {
            try await cache.fetch(TransferRequest(key: "b", url: "https://media.test/b.bin", relativePath: "b.bin"))
        }
        #expect(next?.code == .requiresConnection)
        #expect(executor.requests.count == 1, "the second download never went out")
    }

    @Test func downloadsGoThroughTheExecutorTheyAreGivenAndAreVerifiedAsEver() async throws {
        let executor = RecordingExecutor()
        let data = Self.bytes(1000)
        executor.enqueue(
            .respond(HTTPResponse(status: 200, headers: ["content-length": "1000"], body: data)),
            .respond(HTTPResponse(status: 200, headers: [:], body: Data("short".utf8)))
        )
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-files-\(UUID().uuidString)")
        let cache = FileCache(
            owner: "test.files",
            root: root,
            store: try FerryStore.inMemory(),
            transport: HTTPTransport(baseURL: "https://media.test", executor: executor)
        )
        let file = try await cache.fetch(
            TransferRequest(key: "a", url: "https://media.test/a.bin", sha256: SHA256Hasher.hex(data))
        )
        #expect(try Data(contentsOf: file.url) == data)
        await #expect(throws: (any Error).self) {
            _ = try await cache.fetch(TransferRequest(key: "b", url: "https://media.test/b.bin", expectedBytes: 1000))
        }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("b").path))
        #expect(executor.requests.map(\.url) == ["https://media.test/a.bin", "https://media.test/b.bin"])
    }

    @Test func aDownloadIsVerifiedMovedIntoPlaceAndServedLocallyAfterwards() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture()
            let data = Self.bytes(300_000)
            server.put("a.bin", data)
            let progress = fixture.events.subscribe()
            let finished = Mutex(TransferTally())
            let first = try await fixture.events.observing({ event in finished.withLock { _ = $0.record(event) } }) {
                try await fixture.cache.fetch(
                    TransferRequest(
                        key: "a",
                        url: "\(url)/files/a.bin",
                        relativePath: "dir/a.bin",
                        sha256: SHA256Hasher.hex(data)
                    )
                )
            }
            #expect(finished.withLock { $0 } == TransferTally(files: 1, bytes: 300_000), "one file finished, counted at once")
            #expect(first.downloaded)
            #expect(try Data(contentsOf: first.url) == data)
            #expect(first.url.path.hasPrefix(fixture.root.path))
            #expect(!fixture.exists("dir/.a.bin.part"))
            let second = try await fixture.cache.fetch(
                TransferRequest(key: "a", url: "\(url)/files/a.bin", relativePath: "dir/a.bin")
            )
            #expect(!second.downloaded)
            #expect(server.requestCount == 1)
            var last: (Int64, Int64?)?
            for await event in progress {
                if case .transferProgress(let name, let received, let total) = event, name == "a" {
                    last = (received, total)
                    if received == Int64(data.count) { break }
                }
            }
            #expect(last?.0 == 300_000 && last?.1 == 300_000)
        }
    }

    @Test func aChecksumMismatchLeavesNothingAtTheFinalPath() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture()
            server.put("a.bin", Self.bytes(1000))
            let finished = Mutex(TransferTally())
            await #expect(throws: FerryError.self) {
                try await fixture.events.observing({ event in finished.withLock { _ = $0.record(event) } }) {
                    try await fixture.cache.fetch(
                        TransferRequest(
                            key: "a",
                            url: "\(url)/files/a.bin",
                            relativePath: "a.bin",
                            sha256: String(repeating: "0", count: 64)
                        )
                    )
                }
            }
            #expect(finished.withLock { $0.files } == 0, "a discarded file is not a download")
            #expect(!fixture.exists("a.bin"))
            #expect(!fixture.exists(".a.bin.part"))
            #expect(try await fixture.cache.usage().files == 0)
        }
    }

    @Test func aLengthMismatchIsDiscarded() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture()
            server.put("a.bin", Self.bytes(1000))
            let error = await #expect(throws: FerryError.self) {
                try await fixture.cache.fetch(
                    TransferRequest(key: "a", url: "\(url)/files/a.bin", relativePath: "a.bin", expectedBytes: 1001)
                )
            }
            // Transient: it may be an answer cut short on the way (FileCacheVerificationTests).
            #expect(error?.code == .remoteUnavailable)
            #expect(!fixture.exists("a.bin"))
        }
    }

    @Test func anInterruptedDownloadKeepsItsPartialFileAndResumesWithRange() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture()
            let data = Self.bytes(500_000)
            server.put("big.bin", data)
            server.cut("big.bin", after: 200_000)
            let request = TransferRequest(
                key: "big",
                url: "\(url)/files/big.bin",
                relativePath: "big.bin",
                sha256: SHA256Hasher.hex(data)
            )
            await #expect(throws: TransportFailure.self) { try await fixture.cache.fetch(request) }
            #expect(!fixture.exists("big.bin"))
            #expect(fixture.exists(".big.bin.part"))
            #expect(try await fixture.cache.usage().partialBytes > 0)
            let file = try await fixture.cache.fetch(request)
            #expect(try Data(contentsOf: file.url) == data)
            let resumedFrom = try #require(server.ranges.last ?? nil)
            #expect(resumedFrom.hasPrefix("bytes=") && resumedFrom != "bytes=0-")
            #expect(!fixture.exists(".big.bin.part"))
            #expect(try await fixture.cache.usage().partialBytes == 0)
        }
    }

    @Test func requirementsAreCheckedBeforeAnyRequest() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture()
            server.put("a.bin", Self.bytes(10))
            fixture.connectivity.set(ConnectivityState(reachable: true, interface: .cellular, metered: true))
            let error = await #expect(throws: FerryError.self) {
                try await fixture.cache.fetch(
                    TransferRequest(key: "a", url: "\(url)/files/a.bin", requirement: .unmetered)
                )
            }
            #expect(error?.code == .requiresConnection)
            fixture.connectivity.set(.offline)
            await #expect(throws: FerryError.self) {
                try await fixture.cache.fetch(TransferRequest(key: "a", url: "\(url)/files/a.bin"))
            }
            #expect(server.requestCount == 0)
            fixture.connectivity.set(.online)
            #expect(
                try await fixture.cache.fetch(
                    TransferRequest(key: "a", url: "\(url)/files/a.bin", requirement: .unmetered)
                ).downloaded
            )
        }
    }

    @Test func theBudgetEvictsTheLeastRecentlyUsedUnpinnedFiles() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture(budget: TransferBudget(maxBytes: 3000))
            for name in ["a", "b", "c", "d"] { server.put(name, Self.bytes(1000, seed: UInt8(name.utf8.first!))) }
            func fetch(_ name: String, pinned: Bool = false) async throws -> CachedFile {
                fixture.clock.advance(by: 60)
                return try await fixture.cache.fetch(
                    TransferRequest(key: name, url: "\(url)/files/\(name)", pinned: pinned)
                )
            }
            _ = try await fetch("a", pinned: true)
            _ = try await fetch("b")
            _ = try await fetch("c")
            fixture.clock.advance(by: 60)
            _ = try await fixture.cache.cachedFile("b")
            _ = try await fetch("d")
            let keys = Set(try await fixture.cache.entries().map(\.key))
            #expect(keys == ["a", "b", "d"])
            #expect(!fixture.exists("c"))
            #expect(try await fixture.cache.usage().bytes <= 3000)
        }
    }

    @Test func pinnedFilesThatLeaveNoRoomFailWithAStorageError() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture(budget: TransferBudget(maxBytes: 1500))
            server.put("a", Self.bytes(1000))
            server.put("b", Self.bytes(1000, seed: 9))
            _ = try await fixture.cache.fetch(TransferRequest(key: "a", url: "\(url)/files/a", pinned: true))
            let error = await #expect(throws: FerryError.self) {
                try await fixture.cache.fetch(TransferRequest(key: "b", url: "\(url)/files/b", pinned: true))
            }
            #expect(error?.code == .storageUnavailable)
            #expect(try await fixture.cache.entries().map(\.key) == ["a"])
            #expect(!fixture.exists("b"))
        }
    }

    @Test func unpinnedFilesExpireByAgeAndPinnedOnesStay() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture(budget: TransferBudget(maxAge: 90 * 86_400))
            server.put("a", Self.bytes(10))
            server.put("b", Self.bytes(10, seed: 3))
            _ = try await fixture.cache.fetch(TransferRequest(key: "a", url: "\(url)/files/a"))
            _ = try await fixture.cache.fetch(TransferRequest(key: "b", url: "\(url)/files/b", pinned: true))
            fixture.clock.advance(by: 89 * 86_400)
            #expect(try await fixture.cache.expire().keys.isEmpty)
            #expect(try await fixture.cache.cachedFile("a") != nil)
            fixture.clock.advance(by: 2 * 86_400)
            #expect(try await fixture.cache.expire().keys == ["a"])
            #expect(!fixture.exists("a"))
            #expect(try await fixture.cache.cachedFile("a") == nil)
            #expect(try await fixture.cache.cachedFile("b") != nil)
        }
    }

    @Test func purgeRemovesEverythingOrOnlyUnpinnedFiles() async throws {
        try await RangeFileServer.with { server, url in
            let fixture = try Fixture()
            server.put("a", Self.bytes(10))
            server.put("b", Self.bytes(10, seed: 3))
            _ = try await fixture.cache.fetch(TransferRequest(key: "a", url: "\(url)/files/a"))
            _ = try await fixture.cache.fetch(TransferRequest(key: "b", url: "\(url)/files/b", pinned: true))
            #expect(try await fixture.cache.purge(includingPinned: false).keys == ["a"])
            #expect(try await fixture.cache.entries().map(\.key) == ["b"])
            #expect(try await fixture.cache.purge().keys == ["b"])
            #expect(try await fixture.cache.usage().files == 0)
            #expect(!fixture.exists("b"))
        }
    }

    @Test func aRemoteNameNeverEscapesTheCacheFolder() async throws {
        let fixture = try Fixture()
        for hostile in ["../escape", "a/../../b", "..", "a/./b", "a\\b", "a\u{0}b", "", "a//b"] {
            await #expect(throws: FerryError.self, "\(hostile)") {
                try await fixture.cache.fetch(
                    TransferRequest(key: "x", url: "http://127.0.0.1:9/x", relativePath: hostile)
                )
            }
        }
        let rooted = try TransferPath.resolve("/etc/passwd", under: fixture.root)
        #expect(rooted.path == fixture.root.standardizedFileURL.appendingPathComponent("etc/passwd").path)
    }
}
