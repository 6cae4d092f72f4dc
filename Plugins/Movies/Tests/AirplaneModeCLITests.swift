import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// The commands as a new user types them, through the built `ferry` executable, in
/// airplane mode and back. Skipped when `.build/debug/ferry` has not been built.
@Suite("Movies: the ferry commands in airplane mode and back")
struct AirplaneModeCLITests {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `ferry` with `arguments` in `folder`, feeding `input` on standard input.
    static func ferry(_ arguments: [String], in folder: URL, input: String = "") async throws -> Result {
        let result = try await FerryExecutable(in: folder).run(arguments, input: input)
        return Result(status: result.status, output: result.output, errors: result.error)
    }

    @Test(
        .enabled(
            if: FerryExecutable.isBuilt,
            "build the ferry executable first (swift build)"
        )
    )
    func aNewUserWorksOfflineAndSyncsAfterwards() async throws {
        let server = try await DemoFerryServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ferry-movies-cli-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A long probe timeout: on a loaded machine the test's own server may answer the
        // probe late, and "offline" here comes from `ferry network offline`, not from it.
        try "server: \(server.baseURL)\ndata_dir: data\nnetwork: {probe_timeout: 60s}\nplugins:\n  auth: {}\n  movies: {}\n"
            .write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)

        let login = try await Self.ferry(
            ["auth", "login", "--username", "demo", "--password-stdin"],
            in: folder,
            input: "demo-password\n"
        )
        #expect(login.status == 0, "\(login.errors)")
        #expect(try await Self.ferry(["movies", "list"], in: folder).output.contains("Heat"))

        #expect(try await Self.ferry(["network", "offline"], in: folder).status == 0)
        let offline = try await Self.ferry(["movies", "list"], in: folder)
        #expect(offline.status == 0)
        #expect(offline.output.contains("Spirited Away"))
        #expect(offline.errors.contains("offline"))
        #expect(
            try await Self.ferry(
                ["movies", "update", "m_demo_heat", "--status", "watched", "--rating", "8"],
                in: folder
            )
            .status == 0
        )
        let added = try await Self.ferry(
            ["movies", "add", "--title", "Blade Runner", "--recommender", "Kim"],
            in: folder
        )
        #expect(added.status == 0 && added.output.contains("local-"))
        let byID = try await Self.ferry(["movies", "add", "--tmdb", "603"], in: folder)
        #expect(byID.status == 69 && byID.errors.contains("--title"))
        #expect(try await Self.ferry(["movies", "show", "m_demo_heat"], in: folder).output.contains("8/10"))

        #expect(try await Self.ferry(["network", "auto"], in: folder).status == 0)
        let run = try await Self.ferry(["run", "--once"], in: folder)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let listing = try await Self.ferry(["movies", "list", "--json"], in: folder)
        let object = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [String: Any]
        let movies = object?["movies"] as? [[String: Any]] ?? []
        #expect(
            movies.contains {
                $0["tmdb_id"] as? Int == 78 && $0["imdb_id"] as? String == "tt0083658"
                    && ($0["id"] as? String)?.hasPrefix("m_") == true
            }
        )
        #expect(
            movies.contains {
                $0["id"] as? String == "m_demo_heat" && $0["my_rating"] as? Int == 8
                    && $0["sync"] as? String == "synced"
            }
        )
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
