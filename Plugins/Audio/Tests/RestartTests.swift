import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// The in-process version of a runner killed mid-download: the answer for one file stops
/// after its first bytes (a `WireTap` holds the rest back), the runtime is abandoned there,
/// and a new runtime opens the same store file and data folder.
@Suite("Audio: a runtime dropped mid-download, then opened again")
struct RestartTests {
    /// What a dropped runtime left, and the runtime opened after it.
    struct Restart {
        /// The dropped runtime's harness (its server is the one both use).
        var dropped: AudioHarness
        /// The new runtime, on the same store file and folder, its clock 10 minutes on.
        var reopened: AudioHarness
        /// Records the new runtime's requests.
        var recorder: WireTap
        /// The bytes of track 2 on disk when the runtime was dropped.
        var cut: Int
        /// Each file's listed SHA-256.
        var checksums: [String: String]
    }

    /// Downloads album 1 one file at a time (track 1 completes, track 2 is cut after its
    /// first bytes, track 3 has not started), drops the runtime there, opens a new one on
    /// the same store file and folder, and runs `body`; then lets the dropped request end.
    static func dropMidDownload(_ body: (Restart) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-audio-restart-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("ferry.sqlite").path
        let store = try FerryStore.open(at: path, migrations: AudioPlugin.migrations)
        let tap = WireTap()
        tap.stall(Demo.file(1, 2))
        let harness = try await AudioHarness.start(
            kernel: "sync: {concurrency: 1, batch_size: 1}",
            store: store,
            folder: folder,
            executor: tap
        )
        try await harness.use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let checksums = try await harness.listedChecksums()
            _ = try await audio.download(album: "alb_demo_1")
            let run = Task { try await harness.test.runOnce() }
            let cut = await tap.stalled()

            let recorder = WireTap()
            let reopened = try await harness.reopen(
                store: try FerryStore.open(at: path, migrations: AudioPlugin.migrations),
                clock: TestClock(now: harness.clock.now().addingTimeInterval(600)),
                executor: recorder
            )
            do {
                try await body(Restart(dropped: harness, reopened: reopened, recorder: recorder, cut: cut, checksums: checksums))
            } catch {
                await reopened.runtime.shutdown()
                await recorder.shutdown()
                throw error
            }
            await reopened.runtime.shutdown()
            await recorder.shutdown()
            // The dropped runtime's request ends, as its process's would have.
            tap.release()
            _ = try? await run.value
        }
    }

    @Test(.timeLimit(.minutes(3))) func nothingHalfDownloadedIsReportedCompleteAndTheNextRunFinishesTheAlbum() async throws {
        try await Self.dropMidDownload { restart in
            let reopened = restart.reopened
            let library = try reopened.library()
            let partial = reopened.tracksFolder.appendingPathComponent(".\(Demo.file(1, 2)).part")
            #expect(Self.size(of: partial) == Int64(restart.cut), "the first bytes of track 2 are on disk")

            // Nothing is reported complete that is not.
            let entries = try await reopened.files().entries()
            #expect(entries.map(\.key) == [Demo.file(1, 1)])
            for entry in entries {
                let data = try Data(contentsOf: entry.url)
                #expect(SHA256Hasher.hex(data) == restart.checksums[entry.key], "\(entry.key) is complete and verified")
            }
            #expect(!FileManager.default.fileExists(atPath: reopened.tracksFolder.appendingPathComponent(Demo.file(1, 2)).path))
            #expect(try await library.albums().first { $0.id == "alb_demo_1" }?.downloaded == 1)
            guard case .local = try await library.resolve(track: Demo.track(1, 1)) else {
                Issue.record("the track that completed before the drop plays from its file")
                return
            }
            reopened.link(.none)
            guard case .unavailable = try await library.resolve(track: Demo.track(1, 2)) else {
                Issue.record("the half-downloaded track does not play offline")
                return
            }
            reopened.link(.wifi)

            // The next pass finishes the album: track 2 from where it stopped, then track 3.
            let summary = try await reopened.test.runOnce()
            #expect(summary.sent == 2 && summary.deadLettered == 0)
            let ranges = restart.recorder.requests(for: Demo.file(1, 2)).map { $0.header("Range") }
            #expect(ranges == ["bytes=\(restart.cut)-"])
            #expect(restart.recorder.requests(for: Demo.file(1, 1)).isEmpty, "a complete file is not fetched again")
            #expect(reopened.filesOnDisk() == Demo.files(album: 1))
            for name in Demo.files(album: 1) {
                let data = try Data(contentsOf: reopened.tracksFolder.appendingPathComponent(name))
                #expect(SHA256Hasher.hex(data) == restart.checksums[name], "\(name)")
            }
            #expect(try await library.albums().first { $0.id == "alb_demo_1" }?.downloaded == 3)
            #expect(try await reopened.downloadOperations().isEmpty)
            #expect(try await library.downloads().inProgress.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(3))) func aDownloadResumedAfterARestartIsGuardedByTheFirstAnswersETag() async throws {
        try await Self.dropMidDownload { restart in
            _ = try await restart.reopened.test.runOnce()
            let resumed = try #require(restart.recorder.requests(for: Demo.file(1, 2)).first)
            #expect(resumed.header("Range") == "bytes=\(restart.cut)-")
            // Without it, a file replaced on the server meanwhile would be appended to the old
            // one's first bytes, fail its checksum and end as a dead letter.
            #expect(resumed.header("If-Range") == "\"\(restart.checksums[Demo.file(1, 2)] ?? "")\"")
        }
    }

    static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int).map(Int64.init) ?? -1
    }
}
