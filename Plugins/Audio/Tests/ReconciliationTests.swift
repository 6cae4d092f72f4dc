import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: downloaded collections follow the server's membership")
struct ReconciliationTests {
    @Test func aRefreshDownloadsAlbumsNewInACollectionAndRemovesThoseThatLeftUnlessExplicit() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let collection = try await audio.download(collection: "col_demo_new")
            #expect(collection.tracks == 6 && collection.queued == 6)
            let explicit = try await audio.download(album: "alb_demo_3")
            #expect(explicit.tracks == 3 && explicit.queued == 0, "album 3's files are already queued by the collection")
            #expect(try await harness.test.runOnce().sent == 6)
            #expect(harness.filesOnDisk() == Demo.files(album: 2).union(Demo.files(album: 3)))

            // On the server, the collection now holds album 1 only.
            try await harness.setCollection("col_demo_new", albums: ["alb_demo_1"])
            try await audio.refresh()

            // Album 2 (kept by the collection alone) went at once, with its files; album 3
            // (explicit) stayed; album 1 is queued.
            #expect(harness.filesOnDisk() == Demo.files(album: 3))
            #expect(Set(try await harness.downloadOperations().map(\.entity)) == Demo.files(album: 1))
            let albums = Dictionary(uniqueKeysWithValues: try await audio.albums().map { ($0.id, $0) })
            #expect(albums["alb_demo_1"]?.collections == ["col_demo_new"] && albums["alb_demo_1"]?.explicit == false)
            #expect(albums["alb_demo_2"]?.collections == [] && albums["alb_demo_2"]?.explicit == false)
            #expect(albums["alb_demo_2"]?.downloaded == 0)
            #expect(albums["alb_demo_3"]?.explicit == true && albums["alb_demo_3"]?.collections == [])
            #expect(albums["alb_demo_3"]?.downloaded == 3)

            #expect(try await harness.test.runOnce().sent == 3)
            #expect(harness.filesOnDisk() == Demo.files(album: 1).union(Demo.files(album: 3)))
            let screen = try await audio.downloads()
            #expect(Set(screen.albums.map(\.id)) == ["alb_demo_1", "alb_demo_3"])
            #expect(screen.collections.map(\.id) == ["col_demo_new"])
            #expect(screen.collections.first?.albums == ["alb_demo_1"])
            #expect(screen.inProgress.isEmpty)

            // A refresh with nothing new changes nothing and fetches nothing again.
            let requests = try await harness.fileRequests()
            try await audio.refresh()
            #expect(try await harness.test.runOnce().sent == 0)
            #expect(harness.filesOnDisk() == Demo.files(album: 1).union(Demo.files(album: 3)))
            #expect(try await harness.fileRequests() == requests)
        }
    }

    @Test func removingACollectionRemovesTheAlbumsNothingElseKeeps() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            _ = try await audio.download(collection: "col_demo_favourites")
            let second = try await audio.download(collection: "col_demo_new")
            #expect(second.tracks == 6 && second.queued == 3, "album 3 is shared: its files are queued once")
            #expect(try await harness.test.runOnce().sent == 9)

            // An album kept by collections is not removed on its own; the error names them.
            let error = await #expect(throws: FerryError.self) { try await audio.remove(album: "alb_demo_3") }
            #expect(error?.code == .notFound)
            #expect(error?.message.contains("col_demo_favourites") == true && error?.message.contains("col_demo_new") == true)

            try await audio.remove(collection: "col_demo_favourites")
            // Album 1 was the favourites' alone; album 3 is still New releases'.
            #expect(harness.filesOnDisk() == Demo.files(album: 2).union(Demo.files(album: 3)))
            let albums = Dictionary(uniqueKeysWithValues: try await audio.albums().map { ($0.id, $0) })
            #expect(albums["alb_demo_1"]?.downloaded == 0 && albums["alb_demo_1"]?.collections == [])
            #expect(albums["alb_demo_3"]?.collections == ["col_demo_new"] && albums["alb_demo_3"]?.downloaded == 3)
            #expect(try await audio.downloads().collections.map(\.id) == ["col_demo_new"])

            try await audio.remove(collection: "col_demo_new")
            #expect(harness.filesOnDisk().isEmpty)
            #expect(try await harness.files().entries().isEmpty)
            let screen = try await audio.downloads()
            #expect(screen.albums.isEmpty && screen.collections.isEmpty && screen.usedBytes == 0)
            let again = await #expect(throws: FerryError.self) { try await audio.remove(collection: "col_demo_new") }
            #expect(again?.code == .notFound)
        }
    }

    @Test func removingACollectionWhoseDownloadsWaitDropsThem() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            harness.link(.cellular, metered: true)
            let plan = try await audio.download(collection: "col_demo_favourites")
            #expect(plan.queued == 6)
            try await audio.remove(collection: "col_demo_favourites")
            #expect(try await harness.downloadOperations().isEmpty)
            harness.link(.wifi)
            #expect(try await harness.test.runOnce().sent == 0)
            #expect(try await harness.fileRequests() == 0)
            #expect(harness.filesOnDisk().isEmpty)
        }
    }
}
