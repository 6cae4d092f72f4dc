import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: tracks cached ahead make way for kept downloads")
struct CacheAheadRoomTests {
    /// Kept downloads fill the cap; a track played then has no room to be cached ahead. The
    /// person asked for none of it: the downloads end, nothing is left to retry or to fail.
    @Test func noRoomBesideKeptDownloadsEndsTheCacheAhead() async throws {
        try await StorageCapTests.start(roomForAlbum1And: 0).use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            _ = try await audio.download(album: "alb_demo_1")
            #expect(try await harness.test.runOnce().sent == 3)

            let played = try await audio.play(track: Demo.track(2, 1), next: [Demo.track(2, 2)])
            #expect(played.queued == 2)
            _ = try await harness.test.runOnce()
            #expect(try await harness.downloadOperations().isEmpty)
            #expect(harness.filesOnDisk() == Demo.files(album: 1))
            #expect(try await audio.downloads().cached.isEmpty)
        }
    }
}
