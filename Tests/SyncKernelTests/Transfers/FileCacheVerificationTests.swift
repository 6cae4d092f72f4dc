import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// A `200` whose bytes fail verification may be an answer cut short or replaced on the
/// way: the download goes again. The remote's own file that never matches still ends.
@Suite("File cache: downloads that fail verification")
struct FileCacheVerificationTests {
    static let good = Data((0..<1000).map { UInt8($0 % 251) })

    struct Fixture {
        let executor = RecordingExecutor()
        let cache: FileCache

        init() throws {
            cache = FileCache(
                owner: "test.verify",
                root: FileManager.default.temporaryDirectory.appendingPathComponent(
                    "ferry-verify-\(UUID().uuidString)"
                ),
                store: try FerryStore.inMemory(),
                clock: TestClock(),
                transport: HTTPTransport(baseURL: "https://own.test", executor: executor)
            )
        }

        /// Serves `body` to the next request and fetches the file with the good file's size
        /// and checksum.
        func fetch(answering body: Data) async throws -> CachedFile {
            executor.enqueue(.respond(HTTPResponse(status: 200, headers: [:], body: body)))
            return try await cache.fetch(
                TransferRequest(
                    key: "track",
                    url: "/files/track",
                    expectedBytes: Int64(FileCacheVerificationTests.good.count),
                    sha256: SHA256Hasher.hex(FileCacheVerificationTests.good)
                )
            )
        }

        /// The error `fetch(answering:)` throws, as the kernel classifies it.
        func failure(answering body: Data) async -> (FerryError?, FailureClass?) {
            do {
                _ = try await fetch(answering: body)
                return (nil, nil)
            } catch {
                return (error as? FerryError, FailureClass.classify(error, now: Date(timeIntervalSince1970: 0)))
            }
        }
    }

    @Test func aJunkAnswerOrOneCutShortIsTransientAndTheNextDownloadKeepsTheFile() async throws {
        let fixture = try Fixture()
        let (junk, junkClass) = await fixture.failure(answering: Data("<html>502 Bad Gateway</html>".utf8))
        #expect(junk?.code == .remoteUnavailable && junk?.message.contains("goes again") == true)
        guard case .transient = junkClass else {
            Issue.record("a junk answer backs off and goes again, not \(String(describing: junkClass))")
            return
        }
        let (cut, _) = await fixture.failure(answering: Self.good.prefix(500))
        #expect(cut?.code == .remoteUnavailable)
        #expect(try await fixture.cache.entries().isEmpty)

        let file = try await fixture.fetch(answering: Self.good)
        #expect(file.bytes == 1000 && file.sha256 == SHA256Hasher.hex(Self.good))
    }

    @Test func aChecksumMismatchGoesAgainOnceAndTheSameWrongFileTwiceIsADeadLetter() async throws {
        let fixture = try Fixture()
        var garbled = Self.good
        garbled[10] ^= 0xFF
        let (first, firstClass) = await fixture.failure(answering: garbled)
        #expect(first?.code == .remoteUnavailable)
        guard case .transient = firstClass else {
            Issue.record("a first mismatch goes again, not \(String(describing: firstClass))")
            return
        }
        var other = Self.good
        other[20] ^= 0xFF
        #expect(await fixture.failure(answering: other).0?.code == .remoteUnavailable, "other bytes: garbled again")

        let (again, againClass) = await fixture.failure(answering: other)
        #expect(again?.code == .file && again?.message.contains("twice with the same content") == true)
        guard case .rejected = againClass else {
            Issue.record("the same wrong file twice is a dead letter, not \(String(describing: againClass))")
            return
        }
        #expect(try await fixture.fetch(answering: Self.good).bytes == 1000)
    }
}
