import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A runner killed with SIGKILL in the middle of audio downloads: no track counts as
/// downloaded unless its file verifies, and the next start finishes the album.
@Suite(
    "ferry audio: killed mid-download",
    .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)")
)
struct AudioKillTests {
    @Test(.timeLimit(.minutes(3)))
    func aRunnerKilledMidDownloadLeavesNothingHalfWrittenAndTheNextStartFinishes() async throws {
        let server = try await DemoFerryServer.start { $0.demoTrackSeconds = 5 }
        let ferry = try FerryExecutable.configured(
            """
            data_dir: data
            server: \(server.baseURL)
            log_level: error
            sync: {poll_interval: 50ms}
            plugins:
              auth: {username: demo, password: demo-password}
              audio: {}
            """
        )
        let tracks = ferry.folder.appendingPathComponent("data/audio/tracks")
        try #require(try await ferry.run(["audio", "albums", "--refresh"]).status == 0)
        let download = try await ferry.run(["audio", "download", "album", "alb_demo_1"])
        try #require(download.status == 0, "\(download.error)")

        // The first answers stop half way through their bodies; every answer comes slowly.
        server.setFaults(
            FaultSettings(latencyMilliseconds: 200, failNext: .init(kind: .drop, count: 3), pathPrefix: "/v1/audio/files")
        )
        let runner = try ferry.start(["run"])
        let deadline = ContinuousClock.now + .seconds(20)
        while Self.partials(in: tracks).isEmpty {
            try #require(ContinuousClock.now < deadline, "no download started")
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(runner.process.processIdentifier, SIGKILL)
        _ = await runner.exited()
        #expect(runner.process.terminationReason == .uncaughtSignal)
        #expect(!Self.partials(in: tracks).isEmpty)
        try await Self.expectEveryFinalFileVerifies(in: tracks, server: server)

        server.setFaults(FaultSettings())
        let again = try await ferry.run(["run", "--once"])
        #expect(again.status == 0, "\(again.output) \(again.error)")
        #expect(Self.partials(in: tracks).isEmpty)
        let finals = try FileManager.default.contentsOfDirectory(atPath: tracks.path).filter { !$0.hasPrefix(".") }
        #expect(Set(finals) == ["demo-a1-t1.wav", "demo-a1-t2.wav", "demo-a1-t3.wav"])
        try await Self.expectEveryFinalFileVerifies(in: tracks, server: server)
        let listing = try await ferry.run(["audio", "albums"])
        #expect(listing.output.contains("3/3 tracks"), "\(listing.output)")
        await server.stop()
    }

    static func partials(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".part") }
    }

    /// Every file at its final path has the bytes the server serves for it.
    static func expectEveryFinalFileVerifies(in folder: URL, server: RunningFerryServer) async throws {
        let token = try await server.login()
        let transport = HTTPTransport(baseURL: server.baseURL, credentials: StaticCredentials(token: token))
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }
        for name in names {
            let local = try Data(contentsOf: folder.appendingPathComponent(name))
            let served = try await transport.send(HTTPRequest("GET", "/v1/audio/files/\(name)")).body
            #expect(SHA256Hasher.hex(local) == SHA256Hasher.hex(served), "\(name) is at its final path but does not verify")
        }
    }
}
