import FerryServer
import Foundation
import GRDB
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Recipes: killed mid-sync, the next start finishes the work")
struct KillRecoveryTests {
    @Test(
        .enabled(if: FerryExecutable.isBuilt, "needs .build/debug/ferry: run `swift build` first"),
        .timeLimit(.minutes(3))
    )
    func aRunnerKilledMidRequestLosesNothingAndAppliesNothingTwice() async throws {
        try await RecipeServer.with { server in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "recipes-kill-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("config.yaml")
            try """
            data_dir: data
            server: \(server.url)
            log_level: error
            sync: {poll_interval: 50ms}
            plugins:
              auth: {}
              recipes: {}
            """.write(to: config, atomically: true, encoding: .utf8)
            let ferry = try FerryExecutable(in: folder)
            let login = try await ferry.run(
                ["auth", "login", "--username", "demo", "--password-stdin"],
                input: "demo-password"
            )
            try #require(login.status == 0, "ferry auth login failed: \(login.error)")

            // Queue work from separate commands, as a person would.
            let recipe = folder.appendingPathComponent("soup.json")
            try Data(#"{"id": "kill-soup", "title": "Soup"}"#.utf8).write(to: recipe)
            let photo = folder.appendingPathComponent("soup.png")
            try samplePNG(4).write(to: photo)
            try #require(try await ferry.run(["recipes", "list", "--refresh"]).status == 0)
            try #require(try await ferry.run(["recipes", "save", "demo-pancakes"]).status == 0)
            let added = try await ferry.run(["recipes", "add", recipe.path, "--photo", photo.path])
            try #require(added.status == 0, "ferry recipes add failed: \(added.error)")

            // Every request is slow: the runner is killed while its sends are on the wire.
            server.server.setFaults(FaultSettings(latencyMilliseconds: 800, pathPrefix: "/v1/"))
            try await server.resetStats()
            let runner = try ferry.start(["run"])
            let deadline = ContinuousClock.now + .seconds(20)
            while true {
                let stats = try await server.stats()
                // Both operations leave together, as one batch, or alone.
                let together = stats["POST /v1/batch", default: 0] > 0
                let alone =
                    stats["PUT /v1/recipes/{id}", default: 0] > 0 && stats["PUT /v1/saved-recipes/{id}", default: 0] > 0
                if together || alone { break }
                try #require(ContinuousClock.now < deadline, "the runner never sent its operations: \(stats)")
                try await Task.sleep(for: .milliseconds(20))
            }
            await runner.kill()
            #expect(runner.process.terminationReason == .uncaughtSignal)
            // The server finishes what the dead runner left on the wire (the injected latency),
            // so the next start meets a settled server, as after a real crash.
            try await Task.sleep(for: .milliseconds(900))

            let store = try FerryStore.open(at: folder.appendingPathComponent("data/ferry.sqlite").path)
            let states = try await store.read { db in
                try String.fetchAll(db, sql: "SELECT state FROM kernel_operations")
            }
            #expect(states.contains("in_flight"), "the runner died with sends in flight: \(states)")

            // The next start finishes the work.
            server.server.setFaults(FaultSettings())
            let again = try await ferry.run(["run", "--once"])
            #expect(again.status == 0, "ferry run --once: \(again.output) \(again.error)")

            let token = try await server.login()
            #expect(
                try await server.savedIDs(token: token) == ["demo-shakshuka", "demo-dal", "demo-pancakes", "kill-soup"]
            )
            let soup = try #require(try await server.recipe("kill-soup", token: token))
            #expect(soup["version"] as? Int == 2, "created once (1) and its photo once (2)")
            #expect((soup["photo"] as? [String: Any])?["sha256"] as? String == SHA256Hasher.hex(samplePNG(4)))
            let left = try await store.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kernel_operations") ?? -1
            }
            #expect(left == 0)
        }
    }
}
