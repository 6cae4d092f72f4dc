import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// `ferry auth logout` says what will really happen: movies are kept (nothing is removed
/// but downloaded audio files), and the files' question comes second, only when there are some.
@Suite(
    "ferry auth logout",
    .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)")
)
struct LogoutCommandTests {
    @Test func logoutAsksTheTruthAndRemovesOnlyTheDownloadedFiles() async throws {
        let server = try await DemoFerryServer.start { $0.demoTrackSeconds = 0.1 }
        let ferry = try FerryExecutable.configured(
            """
            data_dir: data
            server: \(server.baseURL)
            log_level: error
            plugins:
              auth: {}
              movies: {}
              audio: {}
            """
        )
        let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
        try #require(login.status == 0, "\(login.error)")
        try #require(try await ferry.run(["audio", "albums", "--refresh"]).status == 0)
        try #require(try await ferry.run(["audio", "download", "album", "alb_demo_1"]).status == 0)
        try #require(try await ferry.run(["run", "--once"]).status == 0)
        let tracks = ferry.folder.appendingPathComponent("data/audio/tracks")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tracks.path).count == 3)

        // No terminal and no --yes: refused, nothing changes, and no claim about movies.
        let refused = try await ferry.run(["auth", "logout"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("Sign out?") && !refused.error.contains("movies"), "\(refused.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tracks.path).count == 3)

        let out = try await ferry.run(["auth", "logout", "--yes"])
        #expect(out.status == 0, "\(out.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tracks.path).isEmpty)
        let movies = try await ferry.run(["movies", "list", "--policy", "cache_only"])
        #expect(movies.output.contains("Heat"), "the cached movies stay: \(movies.output) \(movies.error)")
        await server.stop()
    }
}
