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

    /// A write made before the configured user's first sign-in, signed in by itself before
    /// the runner's first pass (a pull, say): the work is that user's, sent without a login.
    @Test func theConfiguredUserSendsTheWorkMadeBeforeItSignedInByItself() async throws {
        let harness = try await AuthHarness.make(
            extraYAML: "  items: {remote: \"http://127.0.0.1:9\"}\n",
            plugins: [AuthPlugin.self, TestPlugin.self],
            auth: "{username: demo, password: demo-password}"
        )
        let runtime = harness.test.runtime
        _ = try await TestPlugin.put("a", "before the sign-in", in: runtime)
        #expect(try await runtime.queuedWhileSignedOut() == 1)
        #expect(try await harness.auth.accessToken() != nil)
        harness.test.connectivity.set(.online)
        _ = try await SyncEngine(runtime: runtime).runOnce()
        let operation = try #require(try await harness.test.operations().first)
        #expect(operation.account == "u_demo")
        #expect(operation.dispatched, "sent (to an items remote that is down), not held for a login")
        await harness.finish()
    }

    /// Without a configured user, a person who signs in decides about the work made while
    /// nobody was signed in (`ferry auth login` asks): until then it is not sent.
    @Test func aPersonsLoginDoesNotTakeTheWorkMadeWhileSignedOutByItself() async throws {
        let harness = try await AuthHarness.make(
            extraYAML: "  items: {remote: \"http://127.0.0.1:9\"}\n",
            plugins: [AuthPlugin.self, TestPlugin.self]
        )
        let runtime = harness.test.runtime
        _ = try await TestPlugin.put("a", "signed out", in: runtime)
        _ = try await harness.auth.login(username: "demo", password: "demo-password")
        harness.test.connectivity.set(.online)
        _ = try await SyncEngine(runtime: runtime).runOnce()
        let operation = try #require(try await harness.test.operations().first)
        #expect(operation.account == nil)
        #expect(!operation.dispatched)
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
