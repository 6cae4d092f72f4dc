import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Audio: every download is verified against its size and SHA-256")
struct VerificationTests {
    /// The first mismatch may be a transfer garbled on the way: it goes again. The same
    /// wrong file twice is the remote's own: a dead letter.
    @Test func aTrackThatFailsItsChecksumTwiceIsADeadLetterAndLeavesNoFile() async throws {
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let plan = try await audio.download(album: "alb_demo_broken")
            #expect(plan.tracks == 1 && plan.queued == 1)
            // A good album alongside is not held up by the broken one.
            _ = try await audio.download(album: "alb_demo_1")

            let first = try await harness.test.runOnce()
            #expect(first.sent == 3 && first.deadLettered == 0)
            let retried = try #require(try await harness.downloadOperations().first)
            #expect(retried.state == .pending && retried.attempts == 1)
            #expect(retried.lastError?.contains("goes again") == true)
            harness.clock.advance(by: 60)
            let summary = try await harness.test.runOnce()
            #expect(summary.sent == 0 && summary.deadLettered == 1)

            let operations = try await harness.downloadOperations()
            let broken = try #require(operations.first { $0.entity == "demo-broken-t1.wav" })
            #expect(operations.count == 1, "only the broken file is left in the queue")
            #expect(broken.state == .dead && broken.attempts == 2)
            let reason = try #require(broken.lastError)
            #expect(reason.contains("demo-broken-t1.wav") && reason.contains("twice with the same content"))

            // Neither the file nor its partial download is left behind.
            let tracks = harness.tracksFolder
            #expect(!FileManager.default.fileExists(atPath: tracks.appendingPathComponent("demo-broken-t1.wav").path))
            #expect(!FileManager.default.fileExists(atPath: tracks.appendingPathComponent(".demo-broken-t1.wav.part").path))
            #expect(harness.filesOnDisk() == Demo.files(album: 1))
            let files = try harness.files()
            #expect(try await files.inProgress().isEmpty)
            #expect(!(try await files.entries().map(\.key).contains("demo-broken-t1.wav")))

            // The downloads screen lists it as failed, with the reason.
            let screen = try await audio.downloads()
            let row = try #require(screen.inProgress.first { $0.file == "demo-broken-t1.wav" })
            #expect(row.state.hasPrefix("dead after 2 attempt") && row.state.contains("SHA-256"))
            #expect(row.received == 0 && row.total > 0)
            let album = try #require(screen.albums.first { $0.id == "alb_demo_broken" })
            #expect(album.downloaded == 0 && album.explicit)

            // It is not fetched again behind the person's back: later passes ask for nothing.
            harness.clock.advance(by: 24 * 3600)
            #expect(try await harness.test.runOnce().sent == 0)
            #expect(try await harness.fileRequests() == 5)

            harness.link(.none)
            guard case .unavailable(let why) = try await audio.resolve(track: "trk_demo-broken-t1") else {
                Issue.record("offline, a track that failed verification has nothing to play")
                return
            }
            #expect(why.contains("not downloaded"))
            let error = await #expect(throws: FerryError.self) { try await audio.play(album: "alb_demo_broken") }
            #expect(error?.code == .requiresConnection)
        }
    }
}
