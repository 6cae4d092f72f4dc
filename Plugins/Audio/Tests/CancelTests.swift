import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// Removing an album while one of its files is on the wire cancels it cleanly: the
/// transfer's partial file is left to its send, which finds the file unwanted; nothing
/// becomes a dead letter, and nothing stays on disk.
@Suite("Audio: cancelling a download in progress")
struct CancelTests {
    @Test(.timeLimit(.minutes(3))) func removingAnAlbumMidDownloadLeavesNoDeadLetterAndNoFile() async throws {
        let tap = WireTap()
        tap.stall(Demo.file(1, 2))
        let harness = try await AudioHarness.start(kernel: "sync: {concurrency: 1, batch_size: 1}", executor: tap)
        try await harness.use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            _ = try await audio.download(album: "alb_demo_1")
            let run = Task { try await harness.test.runOnce() }
            _ = await tap.stalled()

            try await audio.remove(album: "alb_demo_1")
            let partial = harness.tracksFolder.appendingPathComponent(".\(Demo.file(1, 2)).part")
            #expect(FileManager.default.fileExists(atPath: partial.path), "the transfer under way keeps its file")
            tap.release()
            _ = try? await run.value

            harness.clock.advance(by: 60)
            _ = try await harness.test.runOnce()
            #expect(try await harness.test.operations().isEmpty, "no download left, and no dead letter")
            #expect(harness.filesOnDisk().isEmpty)
            #expect(try await audio.downloads().inProgress.isEmpty)
        }
    }
}
