import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Configuration: validation and hostile YAML")
struct ConfigurationTests {
    func parse(_ yaml: String, environment: [String: String] = [:]) throws -> FerryConfiguration {
        var reader = SafeYAML()
        reader.environment = { environment[$0] }
        return try FerryConfiguration.parse(yaml, file: "config.yaml", yaml: reader)
    }

    func message(_ yaml: String, environment: [String: String] = [:]) -> String? {
        do {
            _ = try parse(yaml, environment: environment)
            return nil
        } catch let error as FerryError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func defaultsApplyWhenKeysAreLeftOut() throws {
        let configuration = try parse("plugins:\n  items: {}\n")
        #expect(configuration.kernel.server == "embedded")
        #expect(configuration.kernel.sync.concurrency == 8)
        #expect(configuration.plugins["items"]?.kernel.enabled == true)
    }

    @Test func durationsAcceptUnits() throws {
        let configuration = try parse("sync: {poll_interval: 250ms, pull_every: 5m, request_timeout: 10}\n")
        #expect(configuration.kernel.sync.pollInterval.value == 0.25)
        #expect(configuration.kernel.sync.pullEvery.value == 300)
        #expect(configuration.kernel.sync.requestTimeout.value == 10)
        #expect(try parse("network: {probe_timeout: 20s}\n").kernel.network.probeTimeout.value == 20)
        #expect(try parse("").kernel.network.probeTimeout.value == 3)
    }

    @Test func anUnknownKeyIsNamedWithItsLine() {
        #expect(
            message("data_dir: x\nsyncc:\n  concurrency: 2\n")
                == "config.yaml:2: unknown key syncc; remove it or check its spelling (see docs/configuration.md)"
        )
        #expect(message("sync:\n  concurency: 2\n")?.contains("unknown key sync.concurency") == true)
        #expect(
            message("plugins:\n  items:\n    operations:\n      put: {conflict: manual, retries: 3}\n")?.contains(
                "plugins.items.operations.put.retries"
            ) == true
        )
    }

    @Test func aPluginsOwnUnknownKeyIsNamed() async throws {
        let configuration = try parse("plugins:\n  items:\n    lable: x\n")
        #expect(throws: FerryError.self) { try configuration.decodeSettings(TestPlugin.Settings.self, plugin: "items") }
        let good = try parse("plugins:\n  items:\n    label: x\n")
        #expect(try good.decodeSettings(TestPlugin.Settings.self, plugin: "items").label == "x")
    }

    @Test func batchingIsOnByDefaultAndItsLimitsAreChecked() throws {
        let configuration = try parse("sync: {batch_size: 25, batch_path: /bulk}\n")
        #expect(configuration.kernel.sync.batchSize == 25 && configuration.kernel.sync.batchPath == "/bulk")
        #expect(try parse("plugins:\n  items: {}\n").kernel.sync.batchSize == 100)
        #expect(message("sync: {batch_size: 0}\n")?.contains("sync.batch_size must be between 1 and 500") == true)
        #expect(message("sync: {batch_size: 501}\n")?.contains("sync.batch_size") == true)
        #expect(message("sync: {batch_path: v1/batch}\n")?.contains("sync.batch_path must be a path") == true)
    }

    @Test func aWrongTypeNamesTheKeyPathAndWhatIsExpected() {
        let text = message("sync:\n  concurrency: lots\n")
        #expect(text?.contains("config.yaml:2") == true)
        #expect(text?.contains("sync.concurrency should be a whole number") == true)
    }

    @Test func anUnknownPolicyListsTheKnownOnes() {
        let text = message("plugins:\n  items:\n    operations:\n      put: {conflict: newest}\n")
        #expect(text?.contains("plugins.items.operations.put.conflict") == true)
        #expect(text?.contains("last_write_wins") == true)
    }

    @Test func valuesThatParseButCannotWorkAreRefused() {
        #expect(message("sync: {concurrency: 0}\n")?.contains("sync.concurrency must be between 1 and 256") == true)
        #expect(
            message("sync: {poll_interval: 0}\n")?.contains("sync.poll_interval must be between 10ms and 60s") == true
        )
        #expect(
            message("network: {probe_timeout: 0s}\n")?.contains("network.probe_timeout must be between 100ms and 5m") == true
        )
        #expect(message("data_dir: \"\"\n")?.contains("data_dir is empty") == true)
    }

    @Test func environmentVariablesAreSubstitutedWithDefaults() throws {
        let configuration = try parse(
            "server: ${FERRY_SERVER}\ndata_dir: ${DATA:-/tmp/ferry}\n",
            environment: ["FERRY_SERVER": "http://example.test"]
        )
        #expect(configuration.kernel.server == "http://example.test")
        #expect(configuration.kernel.dataDir == "/tmp/ferry")
    }

    @Test func aMissingVariableWithoutDefaultIsAnError() {
        #expect(message("server: ${NOPE}\n")?.contains("uses ${NOPE}, which is not set") == true)
    }

    @Test func aBillionLaughsFailsFast() {
        let bomb = """
            a: &a ["x","x","x","x","x","x","x","x","x"]
            b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
            c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
            d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
            e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
            f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
            g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
            h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
            i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
            """
        let start = Date()
        #expect(message(bomb)?.contains("config.yaml:1: a uses the YAML anchor &a") == true)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// docs/configuration.md: "YAML aliases (`*name`) are refused: write values out".
    @Test func anchorsAndAliasesAreRefusedWithWhereTheyAre() {
        let text = message("retry: &fast {max_attempts: 3}\nplugins:\n  items: {retry: *fast}\n")
        #expect(text?.contains("config.yaml:1: retry uses the YAML anchor &fast") == true, "\(text ?? "")")
        #expect(text?.contains("write the value out") == true)
        #expect(message("plugins:\n  items:\n    label: &l x\n    other: *l\n")?.contains("plugins.items.label") == true)
    }

    @Test func theServerIsEmbeddedOrAnHTTPURLWithAHost() throws {
        #expect(try parse("server: embedded\n").kernel.server == "embedded")
        #expect(try parse("server: https://api.example.com/base\n").kernel.server == "https://api.example.com/base")
        #expect(try parse("server: http://127.0.0.1:8080\n").kernel.server == "http://127.0.0.1:8080")
        let ftp = message("server: ftp://x\n")
        #expect(ftp?.contains("config.yaml: server must be `embedded` or an http(s) URL with a host") == true)
        #expect(ftp?.contains("http://x") == true)
        #expect(message("server: localhost:8080\n")?.contains("write e.g. http://localhost:8080") == true)
        #expect(message("server: http://\n")?.contains("server must be") == true)
        #expect(message("server: embeded\n")?.contains("server must be") == true)
        let secret = message("server: ftp://me:hunter2@x\n")
        #expect(secret?.contains("server must be") == true && secret?.contains("hunter2") == false)
    }

    @Test func everyRemoteIsCheckedLikeTheServerNamingItsKeyAndLine() throws {
        let plugin = message("server: embedded\nplugins:\n  recipes: {remote: ftp://y}\n")
        #expect(
            plugin?.contains("config.yaml:3: plugins.recipes.remote must be `embedded` or an http(s) URL") == true,
            "\(plugin ?? "")"
        )
        #expect(plugin?.contains("write e.g. http://y") == true)
        let bare = message("plugins:\n  recipes:\n    remote: \"localhost:8080\"\n")
        #expect(bare?.contains("config.yaml:3: plugins.recipes.remote must be") == true, "\(bare ?? "")")
        let domain = message("domains:\n  bookmarks:\n    remote: ftp://z\n")
        #expect(domain?.contains("config.yaml:3: domains.bookmarks.remote must be") == true, "\(domain ?? "")")
        #expect(try parse("plugins:\n  recipes: {remote: http://127.0.0.1:9}\n").plugins["recipes"]?.kernel.remote != nil)
        #expect(try parse("domains:\n  bookmarks: {remote: https://b.example.com}\n").domains["bookmarks"] != nil)
    }

    @Test func theShippedConfigurationIsValid() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let text = try String(contentsOf: root.appendingPathComponent("config.yaml"), encoding: .utf8)
        let configuration = try parse(text)
        #expect(configuration.kernel.server == "embedded")
        #expect(!configuration.isEmpty)
    }

    @Test(arguments: [
        ("retry: {max_attempts: 0}\n", "config.yaml: retry.max_attempts is 0; it must be at least 1"),
        ("retry: {multiplier: 0.5}\n", "retry.multiplier is 0.5; it must be at least 1"),
        ("retry: {jitter: 1.5}\n", "retry.jitter is 1.5; it must be between 0"),
        ("retry: {jitter: -0.1}\n", "retry.jitter is -0.1"),
        ("retry: {base_delay: -1s}\n", "retry.base_delay"),
        ("retry: {max_delay: -5}\n", "retry.max_delay"),
        ("plugins:\n  items:\n    retry: {max_attempts: -2}\n", "plugins.items.retry.max_attempts is -2"),
        (
            "plugins:\n  items:\n    operations:\n      put: {retry: {multiplier: 0}}\n",
            "plugins.items.operations.put.retry.multiplier is 0.0"
        ),
        ("domains:\n  notes: {retry: {jitter: 2}}\n", "domains.notes.retry.jitter is 2.0"),
    ])
    func retryValuesOutOfRangeAreRefusedAtLoadNamingTheKey(yaml: String, expected: String) {
        let text = message(yaml)
        #expect(text?.contains(expected) == true, "\(text ?? "accepted")")
    }

    @Test func anEmptyFileSetsNothing() throws {
        #expect(try parse("").isEmpty)
        #expect(try parse("# only a comment\n\n").isEmpty)
        #expect(try parse("plugins:\n  items: {}\n").isEmpty == false)
    }

    @Test func deepNestingAndHugeFilesAreRefused() {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(message("a: " + deep)?.contains("deeply nested") == true)
        let huge = "a: \"" + String(repeating: "x", count: 2 << 20) + "\"\n"
        #expect(message(huge)?.contains("at most") == true)
    }

    @Test func aParseErrorGivesALineButNeverQuotesTheFile() {
        let text = message("server: ok\ntoken: \"sekrit-value\n  bad: [\n")
        #expect(text?.contains("line") == true)
        #expect(text?.contains("sekrit") == false)
    }

    @Test func operationsNamedInYAMLMustExist() async throws {
        let error = await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(
                server: "http://127.0.0.1:9",
                yaml: "plugins:\n  items:\n    operations:\n      sav: {}\n"
            )
        }
        #expect(error?.message.contains("plugins.items.operations.sav is not an operation of items") == true)
    }

    @Test func anUnknownPluginIsNamed() async throws {
        let error = await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(server: "http://127.0.0.1:9", yaml: "plugins:\n  itemz: {}\n")
        }
        #expect(error?.message.contains("plugins.itemz is not a plugin this build knows") == true)
    }

    @Test func yamlOverridesReachTheOperationPolicy() async throws {
        let test = try await TestRuntime.make(
            server: "http://127.0.0.1:9",
            yaml:
                "retry: {max_attempts: 3}\nplugins:\n  items:\n    retry: {base_delay: 5s}\n    operations:\n      put: {retry: {max_attempts: 7}, delivery: online_only}\n"
        )
        let put = test.runtime.policy(plugin: "items", kind: "put")
        let patch = test.runtime.policy(plugin: "items", kind: "patch")
        #expect(put.retry.maxAttempts == 7 && put.retry.baseDelay == 5 && put.delivery == .onlineOnly)
        #expect(patch.retry.maxAttempts == 3 && patch.retry.baseDelay == 5)
    }
}
