import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// `--json` of the main commands against the reference server: one object each, with the
/// keys and types docs/json.md gives; errors as JSON on standard error, with their exit codes.
@Suite(
    "ferry --json against FerryServer",
    .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)")
)
struct JSONCommandTests {
    /// A signed-in `ferry` against `server`, with recipes, family and a documents domain.
    static func signedIn(_ server: RunningFerryServer) async throws -> FerryExecutable {
        let ferry = try FerryExecutable.configured(
            """
            server: \(server.baseURL)
            plugins:
              auth: {username: demo, password: demo-password}
              recipes: {}
              family: {}
            domains:
              bookmarks: {}
            """
        )
        let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
        try #require(login.status == 0, "\(login.error)")
        return ferry
    }

    /// The one JSON object `text` holds.
    static func object(_ text: String) throws -> [String: Any] {
        try #require((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any], "not one JSON object: \(text)")
    }

    /// The error object of a `--json` run: the last line of standard error (notes for
    /// people, such as a question's answer, may come before it).
    static func error(_ result: FerryExecutable.Result) throws -> [String: Any] {
        let last = result.error.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try object(last)["error"] as? [String: Any])
    }

    @Test func theMainCommandsPrintOneObjectWithStableKeys() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try await Self.signedIn(server)
        #expect(try await ferry.run(["run", "--once"]).status == 0)
        #expect(try await ferry.run(["domain", "bookmarks", "put", "swift", "--body", #"{"url": "https://swift.org"}"#]).status == 0)

        let status = try Self.object(try await ferry.run(["status", "--json"]).output)
        #expect((status["connectivity"] as? [String: Any])?["reachable"] as? Bool == true)
        let plugins = try #require(status["plugins"] as? [[String: Any]])
        #expect(plugins.map { $0["plugin"] as? String } == ["auth", "recipes", "family", "bookmarks"])
        for plugin in plugins {
            #expect(plugin["pending"] is Int && plugin["needs_login"] is Bool)
            #expect(plugin["last_sync"] is String || plugin["last_sync"] is NSNull, "last_sync is always there")
        }

        let queue = try Self.object(try await ferry.run(["queue", "list", "--json"]).output)
        let operation = try #require((queue["operations"] as? [[String: Any]])?.first)
        #expect(operation["entity"] as? String == "swift" && operation["short_id"] is String)
        #expect((operation["payload"] as? [String: Any])?["url"] as? String == "https://swift.org", "a payload is JSON, not a string")
        #expect(operation["last_error"] is NSNull && operation["created_at"] is String)

        let conflicts = try Self.object(try await ferry.run(["conflicts", "list", "--json"]).output)
        #expect((conflicts["conflicts"] as? [Any])?.isEmpty == true)

        let recipe = try Self.object(try await ferry.run(["recipes", "show", "demo-pancakes", "--json"]).output)
        #expect((recipe["recipe"] as? [String: Any])?["title"] as? String == "Fluffy pancakes")
        #expect(recipe["saved"] is Bool && recipe["photo_path"] is NSNull && recipe["on_server"] as? Bool == true)

        let recipes = try Self.object(try await ferry.run(["recipes", "list", "--json"]).output)
        #expect((recipes["recipes"] as? [[String: Any]])?.contains { $0["id"] as? String == "demo-dal" } == true)

        let whoami = try Self.object(try await ferry.run(["auth", "whoami", "--json"]).output)
        #expect(whoami["username"] as? String == "demo" && whoami.keys.contains("display_name"))

        let groups = try Self.object(try await ferry.run(["family", "groups", "--json"]).output)
        #expect((groups["value"] as? [[String: Any]])?.first?["id"] as? String == "g_demo_family")
        let group = try Self.object(try await ferry.run(["family", "group", "show", "g_demo_family", "--json"]).output)
        let shown = try #require(group["value"] as? [String: Any])
        #expect((shown["group"] as? [String: Any])?["id"] as? String == "g_demo_family", "\(shown)")
        #expect(shown["members"] is [Any] && shown.keys.contains("active_round") && shown["id"] == nil, "\(shown)")

        let check = try Self.object(try await ferry.run(["config", "check", "--json"]).output)
        #expect(check["plugins"] as? [String] == ["auth", "recipes", "family"] && check["domains"] as? [String] == ["bookmarks"])

        let help = try Self.object(try await ferry.run(["help", "exit-codes", "--json"]).output)
        let codes = try #require(help["exit_codes"] as? [[String: Any]])
        #expect(codes.contains { $0["code"] as? Int == 79 && $0["name"] as? String == "conflict" })
        await server.stop()
    }

    @Test func jsonBeforeTheSubcommandIsJSONAfterIt() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try await Self.signedIn(server)
        for command in [["auth", "whoami"], ["config", "check"], ["conflicts", "list"]] {
            let before = try await ferry.run(["--json"] + command)
            let after = try await ferry.run(command + ["--json"])
            #expect(before.status == 0 && before.output == after.output, "\(command): \(before.output) \(before.error)")
            _ = try Self.object(before.output)
        }
        let configured = try await ferry.run(["--config", "elsewhere.yaml", "--json", "status"])
        #expect(configured.status == 78)
        #expect(try Self.error(configured)["message"] as? String ?? "" != "", "\(configured.error)")
        await server.stop()
    }

    @Test func domainDocumentsComeOutAsJSONValues() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try await Self.signedIn(server)
        #expect(try await ferry.run(["domain", "bookmarks", "put", "swift", "--body", #"{"url": "https://swift.org"}"#]).status == 0)
        let listed = try Self.object(try await ferry.run(["domain", "bookmarks", "list", "--json"]).output)
        #expect(listed["domain"] as? String == "bookmarks")
        let row = try #require((listed["documents"] as? [[String: Any]])?.first)
        #expect(row["entity"] as? String == "swift")
        #expect((row["document"] as? [String: Any])?["url"] as? String == "https://swift.org")
        let queued = try Self.object(try await ferry.run(["domain", "bookmarks", "put", "go", "--body", "{}", "--json"]).output)
        #expect(queued["result"] as? String == "queued" && queued["entity"] as? String == "go")
        await server.stop()
    }

    @Test func runPrintsOneEventPerLine() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try await Self.signedIn(server)
        #expect(try await ferry.run(["domain", "bookmarks", "put", "swift", "--body", #"{"url": "https://swift.org"}"#]).status == 0)
        let running = try ferry.start(["--json", "run"])
        let lines = await running.lines(of: running.stdout) { $0.contains(#""event":"sent""#) }
        running.process.terminate()
        _ = await running.exited()
        #expect(!lines.isEmpty)
        for line in lines {
            let event = try Self.object(line)
            #expect(event["event"] is String && event["time"] is String, "\(line)")
            #expect(event.keys.contains("plugin") && event.keys.contains("reason"), "every key on every line: \(line)")
        }
        let sent = try #require(try lines.map(Self.object).first { $0["event"] as? String == "sent" })
        #expect(sent["plugin"] as? String == "bookmarks" && sent["entity"] as? String == "swift")
        await server.stop()
    }

    @Test func exitCodesAConflictAServerErrorAndARefusedQuestion() async throws {
        let server = try await DemoFerryServer.start()
        let first = try await Self.signedIn(server)
        let second = try await Self.signedIn(server)
        #expect(try await first.run(["family", "pick", "r_demo_round", "129"]).status == 0)
        let lost = try await second.run(["family", "pick", "r_demo_round", "603", "--json"])
        #expect(lost.status == 79, "a conflict has its own code, not 75: \(lost.status) \(lost.error)")
        #expect(try Self.object(lost.output)["outcome"] as? String == "already_picked")
        let conflict = try Self.error(lost)
        #expect(conflict["code"] as? String == "conflict" && conflict["exit_code"] as? Int == 79)

        server.setFaults(FaultSettings(failNext: .init(kind: .internalError, count: 10), pathPrefix: "/v1/recipes"))
        let failed = try await first.run(["--json", "recipes", "show", "demo-pancakes"])
        #expect(failed.status == 69 && failed.output.isEmpty, "\(failed.status) \(failed.output)")
        #expect(try Self.error(failed)["exit_code"] as? Int == 69)
        server.setFaults(FaultSettings())

        let refused = try await first.run(["--json", "auth", "logout"])
        #expect(refused.status == 64)
        let error = try Self.error(refused)
        #expect(error["code"] as? String == "usage" && (error["message"] as? String)?.contains("--yes") == true)
        await server.stop()
    }
}
