import AuthPlugin
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Auth: sessions against the reference server")
struct SessionTests {
    @Test func loginStoresAnOwnerOnlyCredentialFileAndVerifies() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        let session = try await auth.login(username: "demo", password: "demo-password")
        #expect(session.user.id == "u_demo")
        let file = harness.folder.appendingPathComponent("auth/credentials.json").path
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        #expect(await auth.verify() == .verified)
        #expect(await auth.account() == "u_demo")
        await harness.finish()
    }

    @Test func aWrongPasswordStoresNothing() async throws {
        let harness = try await AuthHarness.make()
        let error = await #expect(throws: FerryError.self) {
            _ = try await harness.auth.login(username: "demo", password: "nope")
        }
        #expect(error?.code == .needsLogin)
        #expect(error?.message.contains("nope") == false)
        #expect(try await harness.auth.status() == nil)
        await harness.finish()
    }

    @Test func anExpiredAccessTokenIsRefreshedTransparently() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        let first = try await auth.login(username: "demo", password: "demo-password")
        harness.serverClock.advance(by: 2 * 3600)
        #expect(await auth.verify() == .verified)
        let renewed = try #require(try await auth.status())
        #expect(renewed.accessToken != first.accessToken)
        #expect(renewed.refreshToken != first.refreshToken)
        #expect(try await harness.received("POST /v1/auth/refresh") == 1)
        await harness.finish()
    }

    @Test func manyConcurrent401sCauseOneRefresh() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        _ = try await auth.login(username: "demo", password: "demo-password")
        harness.serverClock.advance(by: 2 * 3600)
        let transport = try #require(harness.test.runtime.transport(for: "auth"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask { _ = try await transport.send(HTTPRequest("GET", "/v1/auth/me")) }
            }
            try await group.waitForAll()
        }
        #expect(try await harness.received("POST /v1/auth/refresh") == 1)
        #expect(await auth.verify() == .verified)
        await harness.finish()
    }

    @Test func aRevokedSessionEnds() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        let session = try await auth.login(username: "demo", password: "demo-password")
        #expect(try await harness.endOnTheServer(session), "expected the session to end")
        let after = try #require(try await auth.status())
        #expect(!after.isActive)
        #expect(after.user.username == "demo")
        await harness.finish()
    }

    @Test func anUnreachableServerKeepsTheSession() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        _ = try await auth.login(username: "demo", password: "demo-password")
        await harness.server.stop()
        guard case .offline = await auth.verify() else {
            Issue.record("expected offline")
            return
        }
        #expect(try await auth.status()?.isActive == true)
        #expect(await auth.account() == "u_demo")
        await harness.finish()
    }

    @Test func anExpiredTokenWhileTheServerIsDownIsNotALogout() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        _ = try await auth.login(username: "demo", password: "demo-password")
        harness.test.clock.advance(by: 2 * 3600)
        await harness.server.stop()
        guard case .offline = await auth.verify() else {
            Issue.record("expected offline")
            return
        }
        #expect(try await auth.status()?.isActive == true)
        await harness.finish()
    }

    @Test func aCredentialFileOthersCanReadIsRefused() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        _ = try await auth.login(username: "demo", password: "demo-password")
        let file = harness.folder.appendingPathComponent("auth/credentials.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let store = FileCredentialStore(path: file)
        let error = #expect(throws: FerryError.self) { _ = try store.load() }
        #expect(error?.message.contains("chmod 600") == true)
        let opening = await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(
                server: harness.server.baseURL,
                yaml: "data_dir: \(harness.folder.path)\nplugins:\n  auth: {}\n",
                plugins: [AuthPlugin.self]
            )
        }
        #expect(opening?.code == .file && opening?.message.contains("chmod 600") == true)
        await harness.finish()
    }

    /// Refused at open, the file never reads as "nobody signed in": after the chmod, the
    /// next runtime has the session as it was, with no new login.
    @Test func aCredentialFileFixedWithChmodWorksWithoutANewLogin() async throws {
        let harness = try await AuthHarness.make()
        let session = try await harness.auth.login(username: "demo", password: "demo-password")
        let file = harness.folder.appendingPathComponent("auth/credentials.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let yaml = "data_dir: \(harness.folder.path)\nplugins:\n  auth: {}\n"
        await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(server: harness.server.baseURL, yaml: yaml, plugins: [AuthPlugin.self])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let restarted = try await TestRuntime.make(
            server: harness.server.baseURL,
            yaml: yaml,
            plugins: [AuthPlugin.self],
            clock: TestClock(now: Date())
        )
        #expect(try await restarted.runtime.credentials.accessToken() == session.accessToken)
        #expect(await restarted.runtime.credentials.account() == "u_demo")
        await harness.finish()
    }

    @Test func aDamagedCredentialFileNamesItselfAndTheLogin() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        _ = try await auth.login(username: "demo", password: "demo-password")
        let file = harness.folder.appendingPathComponent("auth/credentials.json").path
        try FileCredentialStore(path: file).save(Data("{\"user\": 42, trunc".utf8))
        let error = await #expect(throws: FerryError.self) { _ = try await auth.status() }
        #expect(error?.code == .needsLogin)
        #expect(error?.message.contains(file) == true && error?.remedy == .signIn)
        _ = try await auth.login(username: "demo", password: "demo-password")
        #expect(try await auth.status()?.isActive == true)
        await harness.finish()
    }

    @Test func logoutHoldsQueuesAndLoginReleasesThem() async throws {
        let harness = try await AuthHarness.make(
            extraYAML: "  items: {remote: \"http://127.0.0.1:9\"}\n",
            plugins: [AuthPlugin.self, TestPlugin.self]
        )
        let auth = try harness.auth
        let runtime = harness.test.runtime
        _ = try await auth.login(username: "demo", password: "demo-password")
        _ = try await TestPlugin.put("a", "v", in: runtime)
        _ = try await auth.logout()
        try await runtime.holdAllForLogin(reason: "signed out")
        var status = try await QueueInspector(runtime: runtime).status()
        #expect(status.plugins.allSatisfy { $0.needsLogin })
        #expect(try await harness.test.runOnce().sent == 0)
        #expect(try await harness.test.operations().count == 1)
        _ = try await auth.login(username: "demo", password: "demo-password")
        try await runtime.resumeAfterLogin()
        status = try await QueueInspector(runtime: runtime).status()
        #expect(status.plugins.allSatisfy { !$0.needsLogin })
        #expect(try await harness.test.operations().first?.account == "u_demo")
        await harness.finish()
    }

    @Test func actingAsIsKeptAndSentWithoutARoundTrip() async throws {
        let harness = try await AuthHarness.make()
        let auth = try harness.auth
        _ = try await auth.login(username: "demo", password: "demo-password")
        _ = try await auth.act(as: "mem_kid")
        #expect(await auth.actingAs() == "mem_kid")
        _ = try await auth.act(as: nil)
        #expect(await auth.actingAs() == nil)
        await harness.finish()
    }

    @Test func configuredCredentialsSignInAutomatically() async throws {
        let harness = try await AuthHarness.make()
        let folder = harness.folder.appendingPathComponent("auto")
        let test = try await TestRuntime.make(
            server: harness.server.baseURL,
            yaml: "data_dir: \(folder.path)\nplugins:\n  auth: {username: demo, password: demo-password}\n",
            plugins: [AuthPlugin.self]
        )
        let auth = try test.runtime.plugin(AuthPlugin.self)
        #expect(try await auth.accessToken() != nil)
        #expect(await auth.account() == "u_demo")
        await harness.finish()
    }
}
