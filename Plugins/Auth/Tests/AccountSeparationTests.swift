import AuthPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Auth: work queued by one account is never sent as another")
struct AccountSeparationTests {
    /// Demo queues a write while the items remote is down, then signs out; sam signs in.
    func queuedByDemoThenSam() async throws -> AuthHarness {
        let harness = try await AuthHarness.make(
            extraYAML: "  items: {remote: \"http://127.0.0.1:9\"}\n",
            plugins: [AuthPlugin.self, TestPlugin.self]
        )
        let auth = try harness.auth
        _ = try await auth.login(username: "demo", password: "demo-password")
        _ = try await TestPlugin.put("a", "demo's", in: harness.test.runtime)
        _ = try await auth.logout()
        _ = try await auth.login(username: "sam", password: "sam-password")
        try await harness.test.runtime.resumeAfterLogin()
        return harness
    }

    @Test func theOtherAccountsWorkIsCountedAndHeldBack() async throws {
        let harness = try await queuedByDemoThenSam()
        let runtime = harness.test.runtime
        #expect(try await runtime.queuedForOtherAccounts(than: "u_sam") == ["u_demo": 1])
        harness.test.connectivity.set(.online)
        let engine = SyncEngine(runtime: runtime)
        _ = try await engine.runOnce()
        let operation = try #require(try await harness.test.operations().first)
        #expect(operation.attempts == 0)
        #expect(operation.lastError == nil)
        await harness.finish()
    }

    /// The remote ended demo's session (nobody signed out): a write made then is still
    /// demo's, so demo signing in again sends it without a question, and sam would not.
    @Test func aWriteMadeAfterTheRemoteEndedTheSessionIsStillThatAccounts() async throws {
        let harness = try await AuthHarness.make(
            extraYAML: "  items: {remote: \"http://127.0.0.1:9\"}\n",
            plugins: [AuthPlugin.self, TestPlugin.self]
        )
        let auth = try harness.auth
        let runtime = harness.test.runtime
        let session = try await auth.login(username: "demo", password: "demo-password")
        #expect(try await harness.endOnTheServer(session), "expected the session to end")
        _ = try await TestPlugin.put("a", "demo's", in: runtime)
        #expect(try await harness.test.operations().first?.account == "u_demo")
        #expect(try await runtime.queuedWhileSignedOut() == 0)
        _ = try await auth.login(username: "sam", password: "sam-password")
        #expect(try await runtime.queuedForOtherAccounts(than: "u_sam") == ["u_demo": 1])
        await harness.finish()
    }

    @Test func discardingTheOtherAccountsWorkRemovesOnlyIt() async throws {
        let harness = try await queuedByDemoThenSam()
        let runtime = harness.test.runtime
        _ = try await TestPlugin.put("b", "sam's", in: runtime)
        #expect(try await runtime.discardQueued(forAccount: "u_demo") == 1)
        let left = try await harness.test.operations()
        #expect(left.map(\.entity) == ["b"])
        #expect(left.first?.account == "u_sam")
        await harness.finish()
    }
}
