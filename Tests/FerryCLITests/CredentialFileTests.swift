import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// A credential file others can read stops every command with the chmod that fixes it;
/// after the chmod, the next command works with the session as it was: no "needs login",
/// no new login, no write kept as made while signed out.
@Suite("credential file permissions", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct CredentialFileTests {
    @Test func afterChmod600TheNextCommandWorksWithoutANewLogin() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            "data_dir: data\nserver: \(server.baseURL)\nlog_level: error\nplugins:\n  auth: {}\n  recipes: {}\n"
        )
        let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
        try #require(login.status == 0, "\(login.error)")
        let file = ferry.folder.appendingPathComponent("data/auth/credentials.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)

        let refused = try await ferry.run(["recipes", "save", "demo-pancakes"])
        #expect(refused.status == 74, "\(refused.error)")
        #expect(refused.error.contains("chmod 600 \(file)"), "\(refused.error)")
        #expect(!refused.error.contains("ferry auth login"), "\(refused.error)")
        #expect(try await ferry.run(["run", "--once"]).status == 74)

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let saved = try await ferry.run(["recipes", "save", "demo-pancakes"])
        #expect(saved.status == 0, "\(saved.error)")
        let status = try await ferry.run(["status", "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
        let plugins = json?["plugins"] as? [[String: Any]] ?? []
        #expect(!plugins.isEmpty && plugins.allSatisfy { $0["needs_login"] as? Bool == false }, "\(status.output)")
        #expect(plugins.allSatisfy { $0["held_for_account"] as? Int == 0 }, "\(status.output)")
        let run = try await ferry.run(["run", "--once"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        await server.stop()
    }
}
