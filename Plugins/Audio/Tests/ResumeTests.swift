import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// The server cuts track answers mid-body (`fail_next` `drop`: headers with the full
/// `Content-Length`, half of the body, then the connection closes; docs/protocol.md §14).
@Suite("Audio: a download cut mid-way resumes with Range")
struct ResumeTests {
    @Test func aDownloadCutHalfWayResumesFromWhereItStoppedAndVerifies() async throws {
        let tap = WireTap()
        try await AudioHarness.start(executor: tap).use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let sizes = try await AudioHarness.trackSizes(harness.server.baseURL, token: harness.token)
            let checksums = try await harness.listedChecksums()
            try await harness.failNext("drop", count: 1)
            _ = try await audio.download(album: "alb_demo_1")

            let summary = try await harness.test.runOnce()
            #expect(summary.sent == 3 && summary.deadLettered == 0)
            #expect(try await harness.fileRequests() == 4, "three files, one of them asked for twice")

            // One request resumed, at the byte where the cut answer stopped, guarded by the
            // ETag of that first answer.
            let resumed = tap.requests.filter { $0.header("Range") != nil }
            #expect(resumed.count == 1)
            let request = try #require(resumed.first)
            let file = try #require(request.url.split(separator: "/").last.map(String.init))
            let size = try #require(sizes[file])
            #expect(request.header("Range") == "bytes=\(size / 2)-")
            #expect(
                request.header("If-Range") == "\"\(checksums[file] ?? "")\"",
                "a resumed download is guarded by the first answer's ETag (FileCache: `Range` guarded by `If-Range`)"
            )

            #expect(harness.filesOnDisk() == Demo.files(album: 1), "no partial file is left")
            for name in Demo.files(album: 1) {
                let data = try Data(contentsOf: harness.tracksFolder.appendingPathComponent(name))
                #expect(Int64(data.count) == sizes[name] && SHA256Hasher.hex(data) == checksums[name], "\(name)")
            }
            #expect(try await audio.albums().first { $0.id == "alb_demo_1" }?.downloaded == 3)
        }
    }

    @Test func aDownloadCutTwiceKeepsWhatEachAttemptBroughtAndFinishesLater() async throws {
        let tap = WireTap()
        try await AudioHarness.start(executor: tap).use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let sizes = try await AudioHarness.trackSizes(harness.server.baseURL, token: harness.token)
            let checksums = try await harness.listedChecksums()
            let name = Demo.file(2, 1)
            let size = try #require(sizes[name])
            try await harness.failNext("drop", count: 2)
            _ = try await audio.play(track: Demo.track(2, 1))

            // The first cut goes again at once; the second waits a moment (the clock stands still).
            let first = try await harness.test.runOnce()
            #expect(first.sent == 0 && first.deadLettered == 0)
            let partial = harness.tracksFolder.appendingPathComponent(".\(name).part")
            let kept = size / 2 + (size - size / 2) / 2
            let onDisk = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? -1
            #expect(Int64(onDisk) == kept, "half, then half of the rest")
            #expect(!FileManager.default.fileExists(atPath: harness.tracksFolder.appendingPathComponent(name).path))
            #expect(try await harness.files().entries().isEmpty, "a partial file is not reported complete")
            let row = try #require(try await audio.downloads().inProgress.first { $0.file == name })
            #expect(row.received == kept && row.total == size)
            let operation = try #require(try await harness.downloadOperations().first)
            #expect(operation.state == .pending && operation.attempts == 0, "no answer spends no attempt")

            harness.clock.advance(by: 1)
            #expect(try await harness.test.runOnce().sent == 1)
            #expect(tap.requests(for: name).map { $0.header("Range") } == [nil, "bytes=\(size / 2)-", "bytes=\(kept)-"])
            let data = try Data(contentsOf: harness.tracksFolder.appendingPathComponent(name))
            #expect(SHA256Hasher.hex(data) == checksums[name])
            #expect(harness.filesOnDisk() == [name])
        }
    }

    @Test func aDownloadWhoseConnectionClosesAfterTheWholeBodyEndsVerified() async throws {
        // `truncate`: the whole body, but a Content-Length 64 bytes larger, then the close.
        try await AudioHarness.start().use { harness in
            let audio = try harness.library()
            try await audio.refresh()
            let checksums = try await harness.listedChecksums()
            try await harness.failNext("truncate", count: 1)
            _ = try await audio.play(track: Demo.track(3, 1))
            _ = try await harness.test.runOnce()
            harness.clock.advance(by: 60)
            _ = try await harness.test.runOnce()
            let name = Demo.file(3, 1)
            #expect(harness.filesOnDisk() == [name])
            let data = try Data(contentsOf: harness.tracksFolder.appendingPathComponent(name))
            #expect(SHA256Hasher.hex(data) == checksums[name])
            #expect(try await harness.downloadOperations().isEmpty)
        }
    }
}
