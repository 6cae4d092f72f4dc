import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: tracks cached ahead of play")
struct CacheAheadTests {
    @Test func playingCachesTheTrackAndCacheAheadOfTheNextOnesOnWiFiOnly() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            harness.link(.cellular, metered: true)
            let tracks = Demo.allTracks

            // On a metered link a play streams and caches nothing ahead: nothing is queued.
            let streamed = try await audio.play(track: tracks[0], next: Array(tracks[1...7]))
            #expect(streamed.queued == 0)
            guard case .remote(let url) = streamed.source else {
                Issue.record("a track not downloaded plays from the remote while online")
                return
            }
            #expect(url == harness.server.baseURL + "/v1/audio/files/\(Demo.file(1, 1))")
            #expect(try await harness.downloadOperations().isEmpty)
            #expect(try await harness.test.runOnce().sent == 0)
            #expect(try await harness.fileRequests() == 0)

            // On Wi-Fi the track and cache_ahead (5) of the 7 next ones are queued, once.
            harness.link(.wifi)
            let played = try await audio.play(track: tracks[0], next: Array(tracks[1...7]))
            #expect(played.queued == 6, "the track played and cache_ahead (5) of the 7 next ones")
            #expect(Set(try await harness.downloadOperations().map(\.entity)) == Set(Demo.allFiles[0...5]))
            #expect(try await audio.play(track: tracks[0], next: Array(tracks[1...7])).queued == 0)
            #expect(try await harness.downloadOperations().count == 6)
            #expect(try await harness.test.runOnce().sent == 6)
            #expect(harness.filesOnDisk() == Set(Demo.allFiles[0...5]))
            let entries = try await harness.files().entries()
            #expect(entries.count == 6 && entries.allSatisfy { !$0.pinned }, "cached ahead, not kept")
            let screen = try await audio.downloads()
            #expect(Set(screen.cached.map(\.file)) == Set(Demo.allFiles[0...5]))
            #expect(screen.albums.isEmpty && screen.inProgress.isEmpty)
            #expect(screen.cached.filter { $0.lastPlayed != nil }.map(\.file) == [Demo.file(1, 1)])

            // The next track plays from its file; of the five after it, only the one not
            // here yet is queued.
            let next = try await audio.play(track: tracks[1], next: Array(tracks[2...8]))
            guard case .local(let file) = next.source else {
                Issue.record("a cached track plays from its file")
                return
            }
            #expect(file.lastPathComponent == Demo.file(1, 2))
            #expect(next.queued == 1)
            #expect(try await harness.downloadOperations().map(\.entity) == [Demo.file(3, 1)])
            #expect(try await harness.test.runOnce().sent == 1)
            #expect(try await harness.fileRequests() == 7)
        }
    }

    @Test func cacheAheadIsASetting() async throws {
        try await AudioHarness.start(audio: "{cache_ahead: 2}").use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let played = try await audio.play(track: Demo.allTracks[0], next: Array(Demo.allTracks[1...7]))
            #expect(played.queued == 3)
            #expect(Set(try await harness.downloadOperations().map(\.entity)) == Set(Demo.allFiles[0...2]))
        }
    }

    @Test func aCachedTrackBecomesKeptWithItsAlbumAndCachedAgainWhenTheAlbumGoes() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            _ = try await audio.play(track: Demo.track(1, 1), next: [Demo.track(1, 2)])
            #expect(try await harness.test.runOnce().sent == 2)

            let plan = try await audio.download(album: "alb_demo_1")
            #expect(plan.alreadyDownloaded == 2 && plan.queued == 1)
            #expect(try await harness.test.runOnce().sent == 1)
            #expect(try await harness.fileRequests() == 3, "the files cached ahead are not fetched again")
            let kept = try await harness.files().entries()
            #expect(kept.count == 3 && kept.allSatisfy(\.pinned))
            #expect(try await audio.downloads().cached.isEmpty, "kept files are not listed as cached")

            try await audio.remove(album: "alb_demo_1")
            // The two cached ahead stay, unpinned again; the third goes.
            #expect(harness.filesOnDisk() == [Demo.file(1, 1), Demo.file(1, 2)])
            let left = try await harness.files().entries()
            #expect(left.count == 2 && left.allSatisfy { !$0.pinned })
            #expect(Set(try await audio.downloads().cached.map(\.file)) == [Demo.file(1, 1), Demo.file(1, 2)])
        }
    }
}
