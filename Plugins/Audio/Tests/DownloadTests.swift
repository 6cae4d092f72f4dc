import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: album downloads, verified, over real HTTP")
struct DownloadTests {
    @Test func anAlbumDownloadsItsTrackGroupOnceAndPlaysFromTheFiles() async throws {
        let harness = try await AudioHarness.start()
        defer { Task { await harness.stop() } }
        let audio = try harness.library()
        try await audio.refresh()
        let plan = try await audio.download(album: "alb_demo_1")
        #expect(plan.tracks == 3 && plan.queued == 3 && plan.held == nil)
        let pass = try await harness.test.runOnce()
        #expect(pass.sent == 3)
        #expect(pass.downloads.files == 3 && pass.downloads.bytes == plan.bytes, "the pass counts the files it fetched")
        #expect(harness.filesOnDisk() == ["demo-a1-t1.wav", "demo-a1-t2.wav", "demo-a1-t3.wav"])

        // The deluxe edition shares those three files: only its bonus track downloads.
        let deluxe = try await audio.download(album: "alb_demo_1_deluxe")
        #expect(deluxe.tracks == 4 && deluxe.alreadyDownloaded == 3 && deluxe.queued == 1)
        let bonus = try await harness.test.runOnce()
        #expect(bonus.sent == 1 && bonus.downloads.files == 1, "a shared file is not fetched, nor counted, again")
        #expect(harness.filesOnDisk().count == 4)

        guard case .local(let url) = try await audio.resolve(track: "trk_demo-a1d-t2") else {
            Issue.record("a downloaded track resolves to its file")
            return
        }
        #expect(url.lastPathComponent == "demo-a1-t2.wav")
        harness.link(.none)
        guard case .unavailable = try await audio.resolve(track: "trk_demo-a2-t1") else {
            Issue.record("offline, a track not downloaded is unavailable")
            return
        }
    }
}
