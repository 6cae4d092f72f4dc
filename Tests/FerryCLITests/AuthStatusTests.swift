import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// `ferry auth status` says what it knows without claiming more: forced offline, it asks
/// nobody; a server error is a server error, not "offline".
@Suite("ferry auth status", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct AuthStatusTests {
    func signedIn(at server: RunningFerryServer) async throws -> FerryExecutable {
        let ferry = try FerryExecutable.configured(
            "data_dir: data\nserver: \(server.baseURL)\nlog_level: error\nplugins:\n  auth: {}\n"
        )
        let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
        try #require(login.status == 0, "\(login.error)")
        return ferry
    }

    func verification(_ result: FerryExecutable.Result) -> String? {
        let json = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return json?["verification"] as? String
    }

    @Test func forcedOfflineItDoesNotAskTheServerAndSaysOffline() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try await signedIn(at: server)
        try #require(try await ferry.run(["network", "offline"]).status == 0)
        let before = try await server.requestCounts().requests["GET /v1/auth/me", default: 0]

        let json = try await ferry.run(["auth", "status", "--json"])
        #expect(json.status == 0, "\(json.error)")
        #expect(verification(json) == "offline")
        let text = try await ferry.run(["auth", "status"])
        #expect(text.output.contains("state:       offline (the network is offline (forced))"), "\(text.output)")
        #expect(try await server.requestCounts().requests["GET /v1/auth/me", default: 0] == before, "auth status asked the server while forced offline")

        try #require(try await ferry.run(["network", "auto"]).status == 0)
        #expect(verification(try await ferry.run(["auth", "status", "--json"])) == "verified")
        await server.stop()
    }

    @Test func aServerErrorIsNeverCalledOffline() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try await signedIn(at: server)
        server.setFaults(FaultSettings(failNext: .init(kind: .unavailable, count: 100), pathPrefix: "/v1/auth"))

        let json = try await ferry.run(["auth", "status", "--json"])
        #expect(verification(json) == "unavailable", "\(json.output)")
        let text = try await ferry.run(["auth", "status"])
        #expect(!text.output.contains("offline") && !text.error.contains("offline"), "\(text.output)\(text.error)")
        #expect(text.output.contains("the server answered with an error (503"), "\(text.output)")
        await server.stop()
    }
}
