import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: downloads stay within max_size")
struct StorageCapTests {
    /// The bytes of `files`, as the server lists them.
    static func bytes(_ files: some Sequence<String>, in sizes: [String: Int64]) -> Int64 {
        files.reduce(0) { $0 + sizes[$1, default: 0] }
    }

    /// A cap with room for album 1 and `ahead` tracks of album 2, not one more.
    static func start(
        roomForAlbum1And ahead: Int,
        kernel: String = "",
        executor: (any HTTPExecutor)? = nil
    ) async throws -> AudioHarness {
        try await AudioHarness.start(kernel: kernel, executor: executor) { listed in
            let album2 = (1...3).map { listed[Demo.file(2, $0), default: 0] }
            let cap = Self.bytes(Demo.files(album: 1), in: listed) + album2.prefix(ahead).reduce(0, +) + album2.min()! - 1
            return "{max_size: \(cap)}"
        }
    }

    /// Album 2's three tracks cached ahead (track 1 plays, the next two are cached with it),
    /// then `replays` played from their files, a minute apart.
    static func cacheAlbum2(_ harness: AudioHarness, _ audio: AudioLibrary, replaying replays: [Int]) async throws {
        let first = try await audio.play(track: Demo.track(2, 1), next: [Demo.track(2, 2), Demo.track(2, 3)])
        #expect(first.queued == 3)
        #expect(try await harness.test.runOnce().sent == 3)
        #expect(harness.filesOnDisk() == Demo.files(album: 2))
        for number in replays {
            harness.clock.advance(by: 60)
            guard case .local = try await audio.play(track: Demo.track(2, number)).source else {
                Issue.record("a track cached ahead plays from its file")
                return
            }
        }
        harness.clock.advance(by: 60)
    }

    @Test func tracksCachedAheadAreEvictedLeastRecentlyPlayedFirstForAKeptAlbum() async throws {
        // One download at a time: the order of eviction is all this test looks at (several
        // finishing together is `downloadsFinishingTogetherEvictNoMoreThanNeeded`).
        try await Self.start(roomForAlbum1And: 1, kernel: "sync: {concurrency: 1, batch_size: 1}").use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            // Track 2 plays, then track 1 again; track 3 never plays.
            try await Self.cacheAlbum2(harness, audio, replaying: [2, 1])
            let cached = try await audio.downloads().cached
            #expect(Set(cached.map(\.file)) == Demo.files(album: 2))
            #expect(cached.first { $0.file == Demo.file(2, 3) }?.lastPlayed == nil)
            #expect(cached.first { $0.file == Demo.file(2, 1) }?.lastPlayed == harness.clock.now().addingTimeInterval(-60))

            // Album 1, kept, needs the room of two of them: track 3 (never played) goes, then
            // track 2 (played before track 1). The pass's refresh fails (an injected 500), so
            // the files are seen as the downloads left them, before anything settles again
            // (what a later pass does is `evictedTracksAreNotFetchedAgain`).
            let plan = try await audio.download(album: "alb_demo_1")
            #expect(plan.queued == 3)
            try await harness.failNext("internal_error", count: 1, pathPrefix: "/v1/audio/albums/changes")
            let pass = try await harness.test.runOnce()
            #expect(pass.pullFailures[AudioPlugin.name] != nil)
            #expect(pass.sent == 3)
            #expect(harness.filesOnDisk() == Demo.files(album: 1).union([Demo.file(2, 1)]))
            #expect(try await harness.files().usage().bytes <= harness.files().budget.maxBytes ?? 0)
            let screen = try await audio.downloads()
            #expect(screen.cached.map(\.file) == [Demo.file(2, 1)])
            #expect(screen.albums.first { $0.id == "alb_demo_1" }?.downloaded == 3)
            #expect(Set(try await harness.files().entries().filter(\.pinned).map(\.key)) == Demo.files(album: 1))
        }
    }

    @Test func evictedTracksAreNotFetchedAgain() async throws {
        try await Self.start(roomForAlbum1And: 1, kernel: "sync: {concurrency: 1, batch_size: 1}").use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            try await Self.cacheAlbum2(harness, audio, replaying: [2, 1])
            _ = try await audio.download(album: "alb_demo_1")

            let albumPass = try await harness.test.runOnce()
            #expect(albumPass.sent == 3, "album 1's three files, and nothing else")
            let afterAlbum = harness.filesOnDisk()
            #expect(afterAlbum == Demo.files(album: 1).union([Demo.file(2, 1)]))
            let cached = try await audio.downloads().cached.map(\.file)
            #expect(cached == [Demo.file(2, 1)])

            // The evicted tracks stay evicted: later passes fetch nothing and evict nothing.
            let requests = try await harness.fileRequests()
            let second = try await harness.test.runOnce()
            let third = try await harness.test.runOnce()
            #expect(second.sent == 0)
            #expect(third.sent == 0)
            let later = try await harness.fileRequests()
            #expect(later == requests)
            let finally = harness.filesOnDisk()
            #expect(finally == Demo.files(album: 1).union([Demo.file(2, 1)]))
        }
    }

    @Test func downloadsFinishingTogetherEvictNoMoreThanNeeded() async throws {
        // Album 1's three files are handed over together (the server's answers, held until
        // all three came), so that their downloads finish at the same moment. Whether two
        // evictions overlap is up to the scheduler: the round (about 0.1 s) is repeated in a
        // fresh harness, up to eight times, and the test stops at the first that goes wrong.
        let expected = Demo.files(album: 1).union([Demo.file(2, 1)])
        for round in 1...8 {
            let tap = WireTap()
            var left: Set<String> = []
            try await Self.start(roomForAlbum1And: 1, executor: tap).use { harness in
                let audio = try harness.library()
                try await audio.refresh()
                try await Self.cacheAlbum2(harness, audio, replaying: [2, 1])
                _ = try await audio.download(album: "alb_demo_1")
                tap.gather(3)
                try await harness.failNext("internal_error", count: 1, pathPrefix: "/v1/audio/albums/changes")
                let pass = try await harness.test.runOnce()
                #expect(pass.pullFailures[AudioPlugin.name] != nil && pass.sent == 3)
                left = harness.filesOnDisk()
            }
            // Two of the three tracks cached ahead had to go, not the third.
            #expect(left == expected, "round \(round): \(left.subtracting(expected).sorted()) \(expected.subtracting(left).sorted())")
            if left != expected { break }
        }
    }

    @Test func aTrackPlayedWhileItWasCachedCountsAsPlayedNotAsNeverPlayed() async throws {
        try await Self.start(roomForAlbum1And: 2, kernel: "sync: {concurrency: 1, batch_size: 1}").use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            // Track 1 played (from the remote, while it was cached), then track 2 (from its
            // file); track 3 never played.
            try await Self.cacheAlbum2(harness, audio, replaying: [2])
            let cached = try await audio.downloads().cached
            #expect(cached.first { $0.file == Demo.file(2, 1) }?.lastPlayed != nil)
            #expect(cached.first { $0.file == Demo.file(2, 3) }?.lastPlayed == nil)

            // Album 1 needs the room of one of them: the one never played.
            _ = try await audio.download(album: "alb_demo_1")
            try await harness.failNext("internal_error", count: 1, pathPrefix: "/v1/audio/albums/changes")
            let pass = try await harness.test.runOnce()
            #expect(pass.pullFailures[AudioPlugin.name] != nil && pass.sent == 3)
            let left = harness.filesOnDisk()
            #expect(left == Demo.files(album: 1).union([Demo.file(2, 1), Demo.file(2, 2)]))
        }
    }

    @Test func keptDownloadsThatFillTheCapRefuseAnotherAlbumNamingSizesAndWhatToRemove() async throws {
        // Room for albums 1 and 2 and the deluxe edition's bonus track, not for album 3.
        var sizes: [String: Int64] = [:]
        let harness = try await AudioHarness.start { listed in
            sizes = listed
            let cap =
                Self.bytes(Demo.files(album: 1).union(Demo.files(album: 2)), in: listed)
                + listed["demo-a1d-t4.wav", default: 0]
            return "{max_size: \(cap)}"
        }
        try await harness.use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let cap = try harness.files().budget.maxBytes ?? 0
            let album1 = Self.bytes(Demo.files(album: 1), in: sizes)
            let album2 = Self.bytes(Demo.files(album: 2), in: sizes)
            let album3 = Self.bytes(Demo.files(album: 3), in: sizes)
            #expect(album3 <= album2, "the demo albums' tracks are all as long")
            _ = try await audio.download(album: "alb_demo_1")
            _ = try await audio.download(album: "alb_demo_2")
            #expect(try await harness.test.runOnce().sent == 6)

            let error = await #expect(throws: FerryError.self) { try await audio.download(album: "alb_demo_3") }
            #expect(error?.code == .storageUnavailable)
            let message = error?.message ?? ""
            #expect(message.contains("album Quiet Tones needs \(ByteCount(album3))"), "\(message)")
            #expect(message.contains("already take \(ByteCount(album1 + album2)) of the \(ByteCount(cap)) limit"), "\(message)")
            #expect(message.contains("alb_demo_1") || message.contains("alb_demo_2"), "names an album to remove: \(message)")
            #expect(message.contains("max_size"))
            // Nothing was queued nor recorded.
            #expect(try await harness.downloadOperations().isEmpty)
            #expect(try await audio.albums().first { $0.id == "alb_demo_3" }?.explicit == false)
            #expect(try await harness.test.runOnce().sent == 0)

            // A collection that would bring album 3 is refused the same way.
            let collection = await #expect(throws: FerryError.self) {
                try await audio.download(collection: "col_demo_new")
            }
            #expect(collection?.code == .storageUnavailable)
            #expect(collection?.message.contains("collection New releases") == true)
            #expect(try await audio.collections().allSatisfy { !$0.downloaded })
            #expect(try await harness.downloadOperations().isEmpty)

            // The deluxe edition shares album 1's files: only its bonus track counts, and fits.
            let deluxe = try await audio.download(album: "alb_demo_1_deluxe")
            #expect(deluxe.queued == 1 && deluxe.alreadyDownloaded == 3)
            #expect(try await harness.test.runOnce().sent == 1)
            #expect(try await harness.files().usage().bytes == cap)

            // Removing an album makes the room.
            try await audio.remove(album: "alb_demo_2")
            let plan = try await audio.download(album: "alb_demo_3")
            #expect(plan.queued == 3)
            #expect(try await harness.test.runOnce().sent == 3)
            #expect(harness.filesOnDisk() == Demo.files(album: 1).union(Demo.files(album: 3)).union(["demo-a1d-t4.wav"]))
        }
    }
}
