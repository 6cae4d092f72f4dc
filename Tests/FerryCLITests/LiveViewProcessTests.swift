import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// `status:` as a person meets it: `ferry run` serves the live view, `ferry status` asks
/// it, and a wrong `status:` stops every command with a message naming the key.
@Suite(
    "The live view of the ferry executable",
    .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"),
    .timeLimit(.minutes(2))
)
struct LiveViewProcessTests {
    /// A port below Linux's ephemeral range (32768-60999), where the suite's own client
    /// connections could already hold the port chosen.
    static func port() -> Int { Int.random(in: 20_000...32_000) }

    static func config(_ server: RunningFerryServer, status: String) -> String {
        config(baseURL: server.baseURL, status: status)
    }

    static func config(baseURL: String, status: String) -> String {
        """
        server: \(baseURL)
        status: \(status)
        plugins:
          auth: {username: demo, password: demo-password}
        domains:
          bookmarks: {}
        """
    }

    @Test func statusAsksTheRunningRunnerAndPrintsWhatItsAPISays() async throws {
        let server = try await DemoFerryServer.start()
        let port = Self.port()
        let ferry = try FerryExecutable.configured(Self.config(server, status: "{listen: \"127.0.0.1:\(port)\"}"))
        #expect(
            try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
                .status == 0
        )
        let runner = try ferry.start(["run"])
        defer { runner.process.terminate() }
        let api = HTTPTransport(baseURL: "http://127.0.0.1:\(port)", timeout: 5)
        // Once the runner's first pass is done (every plugin pulled), the status holds still.
        try await ServerCrashTests.untilAnswered {
            let answer = try await api.send(HTTPRequest("GET", "/api/status", authenticated: false))
            guard !String(decoding: answer.body, as: UTF8.self).contains(#""last_sync" : null"#) else {
                throw ServerCrashTests.Retry()
            }
        }
        let printed = try await ferry.run(["status", "--json"])
        let answered = try await api.send(HTTPRequest("GET", "/api/status", authenticated: false))
        #expect(printed.status == 0, "\(printed.error)")
        #expect(printed.output == String(decoding: answered.body, as: UTF8.self), "byte for byte, as docs/json.md says")
        runner.process.terminate()
        #expect(await runner.exited() == 0)
        // With the runner gone, `ferry status` reads the store again.
        #expect(try await ferry.run(["status", "--json"]).status == 0)
        await server.stop()
    }

    @Test func runOnceServesWhileItRunsAndStops() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(Self.config(server, status: "{listen: \"127.0.0.1:0\"}"))
        #expect(
            try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
                .status == 0
        )
        let once = try await ferry.run(["run", "--once"])
        #expect(once.status == 0, "\(once.error)")
        #expect(once.error.contains("ferry: live view at http://127.0.0.1:"), "\(once.error)")
        await server.stop()
    }

    @Test(arguments: [
        ("{listen: 127.0.0.1}", "status.listen 127.0.0.1 has no port"),
        ("{listen: \"127.0.0.1:99999\"}", "status.listen 127.0.0.1:99999 has no port from 0 to 65535"),
        ("{listen: \"0.0.0.0:8484\"}", "add status.token"),
    ])
    func aWrongStatusSectionStopsTheRunnerWithTheKeyAndTheFix(status: String, expected: String) async throws {
        // The configuration is refused before anything is reached: no server is needed.
        let ferry = try FerryExecutable.configured(Self.config(baseURL: "http://127.0.0.1:9", status: status))
        for command in [["run", "--once"], ["config", "check"]] {
            let result = try await ferry.run(command)
            #expect(result.status == 78, "\(command): \(result.status) \(result.error)")
            #expect(result.error.contains(expected), "\(result.error)")
        }
    }
}
