import Foundation
import SyncKernelTesting
import Testing

/// The ferry executable as a person uses it: messages, exit codes, JSON.
@Suite("ferry command line", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct CommandLineTests {
    static let offlineConfig = "server: http://127.0.0.1:9\nplugins:\n  recipes: {}\n"

    @Test func anUnknownKeyExitsWithTheConfigurationCodeAndNamesIt() async throws {
        let ferry = try FerryExecutable.configured("server: http://127.0.0.1:9\nsyncc: {}\n")
        let result = try await ferry.run(["status"])
        #expect(result.status == 78)
        #expect(result.error.contains("config.yaml:2: unknown key syncc"))
    }

    @Test func configCheckRefusesAPluginRemoteThatIsNotHTTP() async throws {
        let ferry = try FerryExecutable.configured("server: http://127.0.0.1:9\nplugins:\n  recipes: {remote: ftp://y}\n")
        let result = try await ferry.run(["config", "check"])
        #expect(result.status == 78)
        #expect(result.error.contains("config.yaml:3: plugins.recipes.remote must be"), "\(result.error)")
    }

    @Test func helpAboutAnUnknownTopicIsAUsageErrorThatNamesIt() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let result = try await ferry.run(["help", "bogus"])
        #expect(result.status == 64)
        #expect(result.error.contains("no help topic or command bogus") && result.output.isEmpty, "\(result.error)")
        #expect(try await ferry.run(["help", "queue", "list"]).status == 0)
    }

    @Test func anUnknownSubcommandIsNamedEvenWithJSON() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let result = try await ferry.run(["bogus", "--json"])
        #expect(result.status == 64)
        #expect(result.error.contains("'bogus'") && !result.error.contains("'--json'"), "\(result.error)")
    }

    @Test func aMissingConfigurationSaysHowToPointAtOne() async throws {
        let ferry = try FerryExecutable.configured("")
        let result = try await ferry.run(["status", "--config", "nowhere.yaml"])
        #expect(result.status == 78)
        #expect(result.error.contains("--config PATH or set FERRY_CONFIG"))
    }

    @Test func configCheckReportsTheEnabledPlugins() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let result = try await ferry.run(["config", "check", "--json"])
        #expect(result.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(report?["plugins"] as? [String] == ["recipes"])
    }

    @Test func airplaneModeIsSharedByEveryProcessUntilAuto() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        #expect(try await ferry.run(["network", "offline"]).output.contains("offline (forced)"))
        let status = try await ferry.run(["status", "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
        #expect((json?["connectivity"] as? [String: Any])?["reachable"] as? Bool == false)
        #expect(try await ferry.run(["network", "auto"]).status == 0)
        #expect(try await ferry.run(["network"]).output.contains("(forced)") == false)
    }

    @Test func anUnknownOperationIdIsNotFound() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let result = try await ferry.run(["queue", "show", "deadbeef"])
        #expect(result.status == 66)
        #expect(result.error.contains("ferry queue list"))
    }

    @Test func recipesListPrintsItsTableOnStandardOutputAndItsFooterOnStandardError() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let recipe = ferry.folder.appendingPathComponent("soup.json")
        try Data(#"{"title": "Soup"}"#.utf8).write(to: recipe)
        #expect(try await ferry.run(["recipes", "add", recipe.path]).status == 0)
        let result = try await ferry.run(["recipes", "list"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Soup") && !result.output.contains("from the local cache"), "\(result.output)")
        #expect(result.error.contains("1 recipe from the local cache; never synced with the server"), "\(result.error)")
    }

    @Test func aRecipeNotCachedWhileOfflineNeedsAConnection() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        #expect(try await ferry.run(["network", "offline"]).status == 0)
        let result = try await ferry.run(["recipes", "show", "demo-pancakes"])
        #expect(result.status == 69, "\(result.error)")
        #expect(result.error.contains("no connection"), "\(result.error)")
    }

    @Test func runOnceWithNothingToDoSucceedsOffline() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let result = try await ferry.run(["run", "--once"])
        #expect(result.status == 0)
        #expect(result.output.contains("nothing waiting"))
    }

    @Test func runOnceWithWorkLeftForAConnectionExitsTempfail() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let recipe = ferry.folder.appendingPathComponent("soup.json")
        try Data(#"{"title": "Soup"}"#.utf8).write(to: recipe)
        #expect(try await ferry.run(["recipes", "add", recipe.path]).status == 0)
        let result = try await ferry.run(["run", "--once"])
        #expect(result.status == 75, "\(result.output)\(result.error)")
        #expect(result.output.contains("recipes:"))
    }

    @Test func theRunnerStopsCleanlyOnSIGTERM() async throws {
        let ferry = try FerryExecutable.configured(Self.offlineConfig)
        let running = try ferry.start(["run"])
        var banner = Data()
        while !String(decoding: banner, as: UTF8.self).contains("press Ctrl-C") {
            let chunk = running.stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += chunk
        }
        running.process.terminate()
        _ = await running.exited()
        let rest = running.stderr.fileHandleForReading.readDataToEndOfFile()
        #expect(running.process.terminationStatus == 0)
        #expect(String(decoding: banner + rest, as: UTF8.self).contains("stopped"))
    }
}
