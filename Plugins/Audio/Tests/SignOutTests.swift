import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: signing out removes the downloads")
struct SignOutTests {
    @Test func signingOutRemovesEveryTrackAndDropsEveryDownloadLeft() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            // Kept, cached ahead, failed verification.
            _ = try await audio.download(album: "alb_demo_1")
            _ = try await audio.download(album: "alb_demo_broken")
            _ = try await audio.play(track: Demo.track(2, 1))
            let done = try await harness.test.runOnce()
            #expect(done.sent == 4 && done.deadLettered == 0)
            harness.clock.advance(by: 60)
            #expect(try await harness.test.runOnce().deadLettered == 1, "the same wrong file again")
            // Cut twice: a partial file, and a download waiting to resume.
            try await harness.failNext("drop", count: 2)
            _ = try await audio.play(track: Demo.track(2, 2))
            #expect(try await harness.test.runOnce().sent == 0)
            #expect(harness.filesOnDisk().contains(".\(Demo.file(2, 2)).part"))
            // Waiting for Wi-Fi.
            harness.link(.cellular, metered: true)
            _ = try await audio.download(collection: "col_demo_new")
            #expect(try await harness.downloadOperations().count == 1 + 1 + 4, "the dead letter, the cut download, and New releases' files not here")

            #expect(try await harness.runtime.filesRemovedBySignOut() == 4, "the downloaded files, not the partial one")
            try await harness.runtime.removeFilesForSignOut()

            #expect(harness.filesOnDisk().isEmpty, "no track and no partial file is left")
            let files = try harness.files()
            #expect(try await files.entries().isEmpty)
            #expect(try await files.inProgress().isEmpty)
            #expect(try await harness.downloadOperations().isEmpty, "no download is left queued, dead letters included")
            let screen = try await audio.downloads()
            #expect(screen.albums.isEmpty && screen.collections.isEmpty && screen.cached.isEmpty)
            #expect(screen.inProgress.isEmpty && screen.usedBytes == 0)
            #expect(try await harness.runtime.filesRemovedBySignOut() == 0)

            // Nothing comes back by itself on Wi-Fi.
            harness.link(.wifi)
            let requests = try await harness.fileRequests()
            #expect(try await harness.test.runOnce().sent == 0)
            #expect(try await harness.fileRequests() == requests)
            #expect(harness.filesOnDisk().isEmpty)
        }
    }
}
