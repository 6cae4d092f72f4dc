import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// Where downloads go and what they carry, and the room they get before they start.
@Suite("File cache: credentials, and room made before a download")
struct FileCacheRoomTests {
    struct Fixture {
        let executor = RecordingExecutor()
        let clock = TestClock()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-room-\(UUID().uuidString)")
        let cache: FileCache

        init(budget: TransferBudget = .unlimited) throws {
            cache = FileCache(
                owner: "test.room",
                root: root,
                store: try FerryStore.inMemory(),
                budget: budget,
                clock: clock,
                transport: HTTPTransport(
                    baseURL: "https://own.test",
                    credentials: StaticCredentials(token: "secret-token"),
                    executor: executor
                )
            )
        }

        /// Serves `count` bytes to the next request and fetches `key` with them.
        func fetch(_ key: String, _ count: Int, pinned: Bool = false, use: TransferRequest.Use = .now) async throws {
            executor.enqueue(.respond(HTTPResponse(status: 200, headers: [:], body: Data(repeating: 7, count: count))))
            clock.advance(by: 60)
            _ = try await cache.fetch(
                TransferRequest(
                    key: key,
                    url: "/files/\(key)",
                    expectedBytes: Int64(count),
                    pinned: pinned,
                    use: use
                )
            )
        }

        func keys() async throws -> Set<String> { Set(try await cache.entries().map(\.key)) }
    }

    @Test func aPathGoesToTheOwnRemoteWithCredentialsAndAThirdPartyGetsNone() async throws {
        let fixture = try Fixture()
        try await fixture.fetch("a", 10)
        fixture.executor.enqueue(.respond(HTTPResponse(status: 200, headers: [:], body: Data(count: 5))))
        _ = try await fixture.cache.fetch(TransferRequest(key: "b", url: "https://third.test/b"))
        let requests = fixture.executor.requests
        #expect(requests.map(\.url) == ["https://own.test/files/a", "https://third.test/b"])
        #expect(requests[0].header("Authorization") == "Bearer secret-token")
        #expect(requests[1].header("Authorization") == nil)
    }

    @Test func aRefusedTokenIsRenewedOnceAndTheDownloadGoesAgain() async throws {
        let executor = RecordingExecutor()
        executor.enqueue(
            .respond(HTTPResponse(status: 401, headers: [:], body: Data())),
            .respond(HTTPResponse(status: 200, headers: [:], body: Data(count: 10)))
        )
        let cache = FileCache(
            owner: "test.renew",
            root: FileManager.default.temporaryDirectory.appendingPathComponent("ferry-renew-\(UUID().uuidString)"),
            store: try FerryStore.inMemory(),
            transport: HTTPTransport(
                baseURL: "https://own.test",
                credentials: StaticCredentials(token: "old", refreshesTo: "new"),
                executor: executor
            )
        )
        let file = try await cache.fetch(TransferRequest(key: "a", url: "/files/a", expectedBytes: 10))
        #expect(file.bytes == 10)
        #expect(executor.requests.map { $0.header("Authorization") } == ["Bearer old", "Bearer new"])
    }

    @Test func aDownloadNoLongerAllowedStopsAndKeepsItsPartialFile() async throws {
        let fixture = try Fixture()
        fixture.executor.enqueue(.respond(HTTPResponse(status: 200, headers: [:], body: Data(count: 3 << 20))))
        let error = await #expect(throws: FerryError.self) {
            try await fixture.cache.fetch(
                TransferRequest(key: "big", url: "/files/big", expectedBytes: 3 << 20, stillAllowed: { false })
            )
        }
        #expect(error?.code == .requiresConnection)
        #expect(try await fixture.cache.entries().isEmpty)
        #expect(try await fixture.cache.inProgress()["big"] ?? 0 > 0, "the partial file stays for a resume")
    }

    @Test func downloadedFilesAreReadableByTheirOwnerOnly() async throws {
        let fixture = try Fixture()
        fixture.executor.enqueue(.respond(HTTPResponse(status: 200, headers: [:], body: Data(count: 10))))
        let file = try await fixture.cache.fetch(TransferRequest(key: "a", url: "/files/a", relativePath: "deep/a"))
        func mode(_ url: URL) throws -> Int {
            ((try FileManager.default.attributesOfItem(atPath: url.path))[.posixPermissions] as? NSNumber)?.intValue ?? 0
        }
        #expect(try mode(file.url) == 0o600)
        #expect(try mode(file.url.deletingLastPathComponent()) == 0o700)
    }

    @Test func roomIsMadeBeforeADownloadAndFilesFetchedAheadGoFirst() async throws {
        let fixture = try Fixture(budget: TransferBudget(maxBytes: 2500))
        try await fixture.fetch("used", 1000)
        try await fixture.fetch("ahead", 1000, use: .notYet)
        try await fixture.fetch("next", 1000)
        #expect(try await fixture.keys() == ["used", "next"])
        #expect(try await fixture.cache.usage().bytes <= 2500)
    }

    @Test func aKeptFileWithNoRoomLeftIsRefusedBeforeItIsRequested() async throws {
        let fixture = try Fixture(budget: TransferBudget(maxBytes: 1500))
        try await fixture.fetch("kept", 1000, pinned: true)
        let error = await #expect(throws: FerryError.self) { try await fixture.fetch("more", 1000, pinned: true) }
        #expect(error?.code == .storageUnavailable)
        #expect(error?.message.contains("already use 1.0 kB of the 1.5 kB limit") == true, "\(error?.message ?? "")")
        #expect(fixture.executor.requests.count == 1)
        #expect(try await fixture.keys() == ["kept"])
    }

    @Test func keptDownloadsUnderWayAtOnceNeverTogetherPassTheLimit() async throws {
        let fixture = try Fixture(budget: TransferBudget(maxBytes: 1500))
        for _ in 0..<2 {
            fixture.executor.enqueue(.respond(HTTPResponse(status: 200, headers: [:], body: Data(count: 1000))))
        }
        let cache = fixture.cache
        let refused = await withTaskGroup(of: Bool.self) { group in
            for key in ["a", "b"] {
                group.addTask {
                    do {
                        _ = try await cache.fetch(TransferRequest(key: key, url: "/files/\(key)", expectedBytes: 1000, pinned: true))
                        return false
                    } catch {
                        return (error as? FerryError)?.code == .storageUnavailable
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(refused == 1)
        #expect(try await fixture.cache.usage().bytes == 1000)
    }

    @Test func aFileLargerThanTheFreeDiskFailsBeforeItStarts() async throws {
        let fixture = try Fixture()
        let error = await #expect(throws: FerryError.self) {
            try await fixture.cache.fetch(TransferRequest(key: "huge", url: "/files/huge", expectedBytes: 1 << 49))
        }
        #expect(error?.code == .storageUnavailable)
        #expect(error?.message.contains("free") == true)
        #expect(fixture.executor.requests.isEmpty)
    }
}
