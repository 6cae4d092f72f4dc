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
        #expect(try await source.read(reader, .cacheThenNetwork)?.value == ["cached"])
        source.value.withLock { $0 = nil }
        await #expect(throws: RemoteFailure.self) { try await source.read(reader, .cacheThenNetwork) }
    }
}
