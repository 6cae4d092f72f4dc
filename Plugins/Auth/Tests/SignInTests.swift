import AuthPlugin
import FerryServer
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// Signing in with the configured username and password: once, however many requests
/// and processes need a session at the same moment.
@Suite("Auth: one automatic sign-in at a time")
struct SignInTests {
    /// A runtime of its own (as a process has) on `folder`, signing in as the demo user.
    func runtime(_ harness: AuthHarness, folder: URL) async throws -> TestRuntime {
        try await TestRuntime.make(
            server: harness.server.baseURL,
            yaml: "data_dir: \(folder.path)\nplugins:\n  auth: {username: demo, password: demo-password}\n",
            plugins: [AuthPlugin.self]
        )
    }

    @Test func concurrentRequestsWithoutASessionShareOneSignIn() async throws {
        let harness = try await AuthHarness.make()
        let test = try await runtime(harness, folder: harness.folder.appendingPathComponent("one"))
        let transport = try #require(test.runtime.transport(for: "auth"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                // Each one is answered 200 only if it went out with the session's token.
                group.addTask { _ = try await transport.send(HTTPRequest("GET", "/v1/auth/me")) }
            }
            try await group.waitForAll()
        }
        #expect(try await harness.received("POST /v1/auth/login") == 1)
        #expect(try await harness.received("GET /v1/auth/me") == 40)
        await harness.finish()
    }

    @Test func twoProcessesOnOneDataFolderShareOneSignIn() async throws {
        let harness = try await AuthHarness.make()
        let folder = harness.folder.appendingPathComponent("shared")
        let first = try await runtime(harness, folder: folder)
        let second = try await runtime(harness, folder: folder)
        let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
            for test in [first, second] {
                let auth = try test.runtime.plugin(AuthPlugin.self)
                group.addTask { try await auth.accessToken() }
            }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1 && !tokens.contains(nil))
        #expect(try await harness.received("POST /v1/auth/login") == 1)
        await harness.finish()
    }

    /// The configured sign-in got no answer: that is no answer, for the request that asked
    /// for a token to fail as one (offline), not a missing session that sends it without a
    /// token, to meet a 401 that tells a person to sign in.
    @Test func aConfiguredSignInWithoutAnAnswerFailsAsNoAnswer() async throws {
        let harness = try await AuthHarness.make()
        let test = try await TestRuntime.make(
            server: "http://127.0.0.1:9",
            yaml: "data_dir: \(harness.folder.appendingPathComponent("unreachable").path)\nplugins:\n  auth: {username: demo, password: demo-password}\n",
            plugins: [AuthPlugin.self]
        )
        let auth = try test.runtime.plugin(AuthPlugin.self)
        await #expect(throws: TransportFailure.self) { try await auth.accessToken() }
        await harness.finish()
    }

    /// The configured sign-in met a failing server (503): the request that asked for a token
    /// fails as the server being unavailable, not with the sign-in's status as its own, and
    /// not without a token.
    @Test func aConfiguredSignInThatMeetsAFailingServerIsRemoteUnavailable() async throws {
        let harness = try await AuthHarness.make(auth: "{username: demo, password: demo-password}")
        harness.server.setFaults(FaultSettings(failNext: .init(kind: .unavailable, count: 1), pathPrefix: "/v1/auth/login"))
        let auth = try harness.auth
        let error = await #expect(throws: FerryError.self) { try await auth.accessToken() }
        #expect(error?.code == .remoteUnavailable && error?.message.contains("signing in as demo") == true)
        #expect(try await auth.accessToken() != nil, "once the server answers, the sign-in goes")
        await harness.finish()
    }

    @Test func aRefusedConfiguredPasswordIsNotTriedAgainOnEveryPass() async throws {
        let harness = try await AuthHarness.make()
        let test = try await TestRuntime.make(
            server: harness.server.baseURL,
            yaml: "data_dir: \(harness.folder.appendingPathComponent("wrong").path)\nplugins:\n  auth: {username: demo, password: not-it}\n",
            plugins: [AuthPlugin.self]
        )
        let auth = try test.runtime.plugin(AuthPlugin.self)
        for _ in 0..<3 { #expect(try await auth.accessToken() == nil) }
        #expect(try await harness.received("POST /v1/auth/login") == 1)
        test.clock.advance(by: 301)
        #expect(try await auth.accessToken() == nil)
        #expect(try await harness.received("POST /v1/auth/login") == 2)
        await harness.finish()
    }
}
