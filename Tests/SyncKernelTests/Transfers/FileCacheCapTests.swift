import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// Downloads under way at once (the operations of one delivery) hold their room until they
/// end: one that would not fit beside them is refused before it starts, so the cap is
/// never passed, not even by a file fetched ahead that the budget would evict later.
@Suite("File cache: downloads under way at once never pass the cap")
struct FileCacheCapTests {
    /// Answers every file with 1,000 bytes, holding the answer for `held` until `release()`.
    final class HoldingExecutor: HTTPExecutor {
        let held: String
        let arrivals: AsyncStream<String>
        private let arrived: AsyncStream<String>.Continuation
        private let releases: AsyncStream<Void>
        private let released: AsyncStream<Void>.Continuation

        init(holding held: String) {
            self.held = held
            (arrivals, arrived) = AsyncStream.makeStream(of: String.self)
            (releases, released) = AsyncStream.makeStream(of: Void.self)
        }

        func release() { released.yield() }

        func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
            arrived.yield(request.url)
            if request.url.hasSuffix(held) {
                for await _ in releases { break }
            }
            return HTTPResponse(status: 200, headers: [:], body: Data(count: 1000))
        }
    }

    static func request(_ key: String, pinned: Bool) -> TransferRequest {
        TransferRequest(
            key: key,
            url: "/files/\(key)",
            expectedBytes: 1000,
            pinned: pinned,
            use: pinned ? .now : .notYet
        )
    }

    @Test func aKeptFileIsRefusedWhileAFileFetchedAheadHoldsTheRoomAndGoesOnceItEnded() async throws {
        let executor = HoldingExecutor(holding: "/files/ahead")
        let cache = FileCache(
            owner: "test.cap",
            root: FileManager.default.temporaryDirectory.appendingPathComponent("ferry-cap-\(UUID().uuidString)"),
            store: try FerryStore.inMemory(),
            budget: TransferBudget(maxBytes: 1500),
            clock: TestClock(),
            transport: HTTPTransport(baseURL: "https://own.test", executor: executor)
        )
        let ahead = Task { try await cache.fetch(Self.request("ahead", pinned: false)) }
        var arrivals = executor.arrivals.makeAsyncIterator()
        #expect(
            await arrivals.next() == "https://own.test/files/ahead",
            "the file fetched ahead has its room and is on its way"
        )

        let refused = await #expect(throws: FerryError.self) {
            try await cache.fetch(Self.request("kept", pinned: true))
        }
        #expect(refused?.code == .storageUnavailable && refused?.message.contains("goes again") == true)
        let failure = refused.map { FailureClass.classify($0, now: Date(timeIntervalSince1970: 0)) }
        guard case .transient? = failure else {
            Issue.record(
                "a file refused for room held by downloads under way goes again, not \(String(describing: failure))"
            )
            executor.release()
            return
        }

        executor.release()
        _ = try await ahead.value
        #expect(try await cache.usage().bytes <= 1500)

        // Once the other download ended, the kept file evicts what was fetched ahead.
        let kept = try await cache.fetch(Self.request("kept", pinned: true))
        #expect(kept.pinned && kept.bytes == 1000)
        #expect(try await cache.entries().map(\.key) == ["kept"])
    }
}
