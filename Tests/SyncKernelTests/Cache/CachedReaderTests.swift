import Foundation
import SyncKernel
import SyncKernelTesting
import Synchronization
import Testing

@Suite("Cache: read policies")
struct CachedReaderTests {
    /// A cache in memory and a refresh that counts its calls and can fail.
    final class Source: Sendable {
        let value = Mutex<[String]?>(["cached"])
        let refreshes = Mutex(0)
        let failure = Mutex<(any Error)?>(nil)
        let delivered = Mutex<[CachedRead<[String]>]>([])

        func read(_ reader: CachedReader, _ policy: CachePolicy) async throws -> CachedRead<[String]>? {
            try await reader.read(
                policy,
                cache: { self.value.withLock { $0 }.map { CacheSnapshot(value: $0, hasPendingWrites: false) } },
                refresh: {
                    self.refreshes.withLock { $0 += 1 }
                    if let error = self.failure.withLock({ $0 }) { throw error }
                    self.value.withLock { $0 = ["fresh"] }
                },
                deliver: { answer in self.delivered.withLock { $0.append(answer) } }
            )
        }
    }

    @Test func cacheThenNetworkDeliversTheCacheThenTheRefreshedValue() async throws {
        let source = Source()
        let result = try await source.read(CachedReader(connectivity: ManualConnectivity()), .cacheThenNetwork)
        let delivered = source.delivered.withLock { $0 }
        #expect(delivered.map(\.value) == [["cached"], ["fresh"]])
        #expect(delivered.map(\.origin) == [.cache, .network])
        #expect(result?.value == ["fresh"] && result?.isFromCache == false)
    }

    @Test func cacheOnlyAndAWarmCacheFirstNeverAskTheNetwork() async throws {
        let source = Source()
        let reader = CachedReader(connectivity: ManualConnectivity())
        #expect(try await source.read(reader, .cacheOnly)?.value == ["cached"])
        #expect(try await source.read(reader, .cacheFirst)?.origin == .cache)
        #expect(source.refreshes.withLock { $0 } == 0)
        source.value.withLock { $0 = nil }
        #expect(try await source.read(reader, .cacheFirst)?.value == ["fresh"])
        #expect(source.refreshes.withLock { $0 } == 1)
    }

    @Test func offlineACachedReadNeverFailsAndSaysSo() async throws {
        let source = Source()
        let result = try await source.read(CachedReader(connectivity: ManualConnectivity(.offline)), .cacheThenNetwork)
        #expect(result?.value == ["cached"])
        #expect(result?.offline != nil)
        #expect(source.refreshes.withLock { $0 } == 0)
    }

    @Test func aRemoteThatDoesNotAnswerCountsAsOffline() async throws {
        let source = Source()
        source.failure.withLock { $0 = TransportFailure(reason: "connection refused") }
        let result = try await source.read(CachedReader(connectivity: ManualConnectivity()), .cacheThenNetwork)
        #expect(result?.value == ["cached"] && result?.offline == "connection refused")
    }

    @Test func networkOnlyOfflineFailsWithRequiresConnection() async throws {
        let source = Source()
        let error = await #expect(throws: FerryError.self) {
            try await source.read(CachedReader(connectivity: ManualConnectivity(.offline)), .networkOnly)
        }
        #expect(error?.code == .requiresConnection)
        #expect(source.delivered.withLock { $0 }.isEmpty)
    }

    @Test func aRemoteErrorFailsOnlyWhenNothingWasCached() async throws {
        let source = Source()
        source.failure.withLock { $0 = RemoteFailure(status: 500) }
        let reader = CachedReader(connectivity: ManualConnectivity())
        let served = try await source.read(reader, .cacheThenNetwork)
        #expect(served?.value == ["cached"] && served?.remoteFailure != nil && served?.offline == nil)
        source.value.withLock { $0 = nil }
        await #expect(throws: RemoteFailure.self) { try await source.read(reader, .cacheThenNetwork) }
    }
}

@Suite("Cache: network first")
struct NetworkFirstTests {
    static func read(
        _ reader: CachedReader,
        fetch: @Sendable () async throws -> String,
        cached: String?
    ) async throws -> CachedRead<String> {
        try await reader.networkFirst(
            "the list",
            fetch: fetch,
            cache: { cached.map { CacheSnapshot(value: $0, hasPendingWrites: false) } }
        )
    }

    @Test func theRemotesAnswerComesFirst() async throws {
        let read = try await Self.read(CachedReader(connectivity: ManualConnectivity()), fetch: { "fresh" }, cached: "old")
        #expect(read.value == "fresh" && read.origin == .network && read.offline == nil && read.remoteFailure == nil)
    }

    /// Online, and counts the requests that got no answer.
    final class Watched: ConnectivityMonitor {
        let unreachable = Mutex(0)
        func current() async -> ConnectivityState { .online }
        func reportUnreachable() async { unreachable.withLock { $0 += 1 } }
        func reportReachable() async {}
    }

    @Test func noAnswerFallsBackToTheCacheAsOfflineAndTellsConnectivity() async throws {
        let connectivity = Watched()
        let reader = CachedReader(connectivity: connectivity)
        let read = try await Self.read(reader, fetch: { throw TransportFailure(reason: "refused") }, cached: "old")
        #expect(read.value == "old" && read.origin == .cache)
        #expect(read.offline?.contains("refused") == true && read.remoteFailure == nil)
        #expect(connectivity.unreachable.withLock { $0 } == 1)
    }

    @Test func aServerErrorFallsBackToTheCacheAndIsNeverCalledOffline() async throws {
        let reader = CachedReader(connectivity: ManualConnectivity())
        let read = try await Self.read(reader, fetch: { throw RemoteFailure(status: 503) }, cached: "old")
        #expect(read.value == "old" && read.offline == nil && read.remoteFailure != nil)

        let error = await #expect(throws: FerryError.self) {
            try await Self.read(reader, fetch: { throw RemoteFailure(status: 500) }, cached: nil)
        }
        #expect(error?.code == .remoteUnavailable)
        #expect(error?.message.contains("offline") == false && error?.message.contains("connection") == false)
    }

    @Test func offlineWithNothingCachedNeedsAConnection() async throws {
        let error = await #expect(throws: FerryError.self) {
            try await Self.read(
                CachedReader(connectivity: ManualConnectivity(.offline)),
                fetch: { Issue.record("offline, the remote is not asked"); return "" },
                cached: nil
            )
        }
        #expect(error?.code == .requiresConnection)
    }

    @Test func aRefusalIsThrownAsItIsEvenWithACache() async throws {
        await #expect(throws: RemoteFailure.self) {
            try await Self.read(
                CachedReader(connectivity: ManualConnectivity()),
                fetch: { throw RemoteFailure(status: 403) },
                cached: "old"
            )
        }
    }
}
