import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: downloads go over an unmetered network only")
struct WifiOnlyTests {
    @Test func onAMeteredLinkAnAlbumWaitsAndDownloadsOnceWiFiIsBack() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            harness.link(.cellular, metered: true)

            let plan = try await audio.download(album: "alb_demo_2")
            #expect(plan.tracks == 3 && plan.queued == 3 && plan.alreadyDownloaded == 0)
            let held = try #require(plan.held, "a download asked for on a metered link says it waits")
            #expect(held.contains("unmetered"))

            let metered = try await harness.test.runOnce()
            #expect(metered.sent == 0 && metered.retried == 0 && metered.deadLettered == 0)
            #expect(try await harness.fileRequests() == 0, "no byte of a track goes over the metered link")
            #expect(harness.filesOnDisk().isEmpty)

            let operations = try await harness.downloadOperations()
            #expect(Set(operations.map(\.entity)) == Demo.files(album: 2))
            let inspector = QueueInspector(runtime: harness.runtime)
            for operation in operations {
                #expect(operation.state == .pending && operation.requiresUnmetered && operation.attempts == 0)
                let why = try await inspector.explain(operation)
                #expect(why.text == "needs an unmetered network (Wi-Fi or wired); the link is metered")
            }
            let status = try #require(try await inspector.status().plugins.first { $0.plugin == AudioPlugin.name })
            #expect(status.waitingForUnmetered == 3 && status.pending == 3 && status.dead == 0)
            let screen = try await audio.downloads()
            #expect(screen.inProgress.count == 3 && screen.inProgress.allSatisfy { $0.state.contains("unmetered") })

            // However long the link stays metered, nothing goes and no attempt is spent.
            harness.clock.advance(by: 6 * 3600)
            #expect(try await harness.test.runOnce().sent == 0)
            #expect(try await harness.fileRequests() == 0)
            #expect(try await harness.downloadOperations().allSatisfy { $0.attempts == 0 && $0.state == .pending })

            harness.link(.wifi)
            let wifi = try await inspector.status().plugins.first { $0.plugin == AudioPlugin.name }
            #expect(wifi?.waitingForUnmetered == 0)
            #expect(try await harness.test.runOnce().sent == 3)
            #expect(harness.filesOnDisk() == Demo.files(album: 2))
            let album = try #require(try await audio.albums().first { $0.id == "alb_demo_2" })
            #expect(album.downloaded == album.tracks && album.tracks == 3 && album.explicit)
            #expect(try await harness.downloadOperations().isEmpty)
            #expect(try await harness.fileRequests() == 3)
        }
    }

    @Test func aWiredLinkCountsAsUnmeteredAndNoLinkHoldsTheDownloads() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            harness.link(.none)
            let plan = try await audio.download(album: "alb_demo_1")
            #expect(plan.queued == 3 && plan.held != nil)
            #expect(try await harness.test.runOnce().sent == 0)
            let operation = try #require(try await harness.downloadOperations().first)
            #expect(try await QueueInspector(runtime: harness.runtime).explain(operation).text == "offline: waiting for a connection")

            harness.link(.wired)
            #expect(try await harness.test.runOnce().sent == 3)
            #expect(harness.filesOnDisk() == Demo.files(album: 1))
        }
    }
}
