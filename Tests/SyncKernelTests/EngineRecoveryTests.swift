import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Synchronization
import Testing

/// How the queue gets going again by itself: after a refused session, a request that got no
/// answer, a lease left behind by another runner.
@Suite("Engine: recovering without a person", .timeLimit(.minutes(3)))
struct EngineRecoveryTests {
    @Test func aHeldQueueResumesByItselfOnceAnotherCredentialIsThere() async throws {
        try await TestPluginServer.with { server, url in
            let credentials = StaticCredentials(token: "old", refreshesTo: "renewed")
            let test = try await TestRuntime.make(server: url, credentials: credentials)
            // The token is refused, and so is the renewed one: the queue is held.
            server.fail(.init(status: 401), .init(status: 401))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            #expect(try await test.runOnce().sent == 0)
            #expect(try await QueueInspector(runtime: test.runtime).status().plugins.first?.needsLogin == true)

            // The credential that was refused is still the provider's: the hold stays.
            #expect(try await test.runOnce().sent == 0)
            #expect(server.count("PUT /items/a") == 2)

            // Someone signs in (another process, or the provider by itself): no command needed.
            credentials.setToken("fresh")
            #expect(try await test.runOnce().sent == 1)
            #expect(server.item("a")?.value == "v")
            #expect(try await QueueInspector(runtime: test.runtime).status().plugins.first?.needsLogin == false)
        }
    }

    @Test func aQueueHeldWithNobodySignedInResumesWhenSomeoneIs() async throws {
        try await TestPluginServer.with { server, url in
            let credentials = StaticCredentials(token: nil)
            let test = try await TestRuntime.make(server: url, credentials: credentials)
            server.fail(.init(status: 401))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            #expect(try await test.runOnce().sent == 0)
            credentials.setToken("someone")
            #expect(try await test.runOnce().sent == 1)
        }
    }

    @Test func aRequestThatGotNoAnswerGoesAgainAtOnceWhenTheRemoteAnswers() async throws {
        try await TestPluginServer.with { server, url in
            let executor = DroppingExecutor(drops: 1)
            let test = try await TestRuntime.make(server: url, executor: executor)
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            let summary = try await test.runOnce()
            #expect(summary.sent == 1)
            #expect(executor.dropped == 1)
            #expect(server.item("a")?.value == "v")
        }
    }

    @Test func aRequestThatGotNoAnswerIsDueAtOnceForTheNextProcess() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        _ = try await TestPlugin.put("a", "v", in: test.runtime)
        _ = try await test.runOnce()
        let operation = try #require(try await test.operations().first)
        #expect(operation.attempts == 0)
        // The connection was refused twice (the send, then its resend after the probe):
        // the second waits half a second, not the half minute it used to.
        #expect(operation.nextAttemptAt <= test.clock.now().addingTimeInterval(0.5))
    }

    @Test func retryingEveryWaitingOperationMakesThemDueNowWithTheirAttemptsReset() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(
                server: url,
                yaml: "retry: {base_delay: 1h, max_delay: 2h, jitter: 0}\nsync: {batch_size: 1}\nplugins:\n  items: {}\n"
            )
            server.fail(.init(status: 503), .init(status: 400))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            _ = try await TestPlugin.put("b", "w", in: test.runtime)
            _ = try await test.runOnce()
            #expect(try await test.operations().map(\.state).sorted { $0.rawValue < $1.rawValue } == [.dead, .pending])
            #expect(try await test.runtime.retryAll(plugin: "items", states: [.pending]) == 1)
            #expect(try await test.runtime.retryAll(plugin: "other") == 0)
            #expect(try await test.runtime.retryAll() == 2)
            #expect(try await test.operations().allSatisfy { $0.attempts == 0 && $0.nextAttemptAt <= test.clock.now() })
            #expect(try await test.runOnce().sent == 2)
        }
    }

    @Test func aRemoteThatForgotTheCursorIsPulledAgainFromTheStart() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            server.seed("a", "one", version: 1)
            server.seed("b", "two", version: 1)
            server.seed("d", "four", version: 1)
            #expect(try await test.runOnce().pulls["items"]?.upserted == 3)
            // Restored from an older backup: the store's cursor (3) is one it never issued,
            // and a, b and d are gone from it.
            server.forgetEverything()
            server.seed("c", "three", version: 1)
            test.connectivity.set(.offline)
            _ = try await TestPlugin.put("d", "mine", in: test.runtime)
            test.connectivity.set(.online)
            server.fail(.init(status: 503))
            let summary = try await test.runOnce()
            #expect(summary.pullFailures.isEmpty && !summary.failed)
            let values = try await test.runtime.store.read { db in
                try ["a", "b", "c", "d"].map { try TestPlugin.value(of: $0, in: db) }
            }
            // What the remote no longer has is gone, except the row with an unsent write.
            #expect(values == [nil, nil, "three", "mine"])
            // And the next pass follows the new cursor without failing again.
            #expect(try await test.runOnce().pullFailures.isEmpty)
        }
    }

    @Test func anExpiredLeaseOfALiveRunnerIsReclaimedWhileTheLoopRuns() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            let until = test.clock.now().addingTimeInterval(60).timeIntervalSince1970
            try await test.runtime.store.write { db in
                try db.execute(
                    sql: "UPDATE kernel_operations SET state = 'in_flight', lease_owner = 'other-host:1', lease_until = ?",
                    arguments: [until]
                )
            }
            let engine = SyncEngine(runtime: test.runtime)
            let running = Task { try await engine.run() }
            defer { running.cancel() }
            try await Wait.until { test.clock.sleeperCount == 1 }
            #expect(server.item("a") == nil)
            for _ in 0..<140 {
                test.clock.advance(by: 0.5)
                try await Wait.until { test.clock.sleeperCount == 1 }
            }
            try await Wait.until { server.item("a")?.value == "v" }
        }
    }
}

/// Drops the first `drops` requests as a reset connection would, then sends for real.
final class DroppingExecutor: HTTPExecutor {
    private let remaining: Mutex<Int>
    private let count = Mutex(0)
    private let real = AsyncHTTPExecutor()

    init(drops: Int) { remaining = Mutex(drops) }

    var dropped: Int { count.withLock { $0 } }

    func execute(_ request: SyncKernel.PreparedRequest, maxBodyBytes: Int) async throws -> SyncKernel.HTTPResponse {
        let drop = remaining.withLock { remaining in
            defer { remaining = max(0, remaining - 1) }
            return remaining > 0
        }
        if drop {
            count.withLock { $0 += 1 }
            throw TransportFailure(reason: "\(request.method) \(request.url): connection reset")
        }
        return try await real.execute(request, maxBodyBytes: maxBodyBytes)
    }
}

@Suite("Queue explanations")
struct QueueExplanationTests {
    @Test func anOperationThatBackedOffAndThenGotNoAnswerSaysItWaitsForTheRemote() async throws {
        let test = try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: "retry: {base_delay: 1m, jitter: 0}\nplugins:\n  items: {}\n")
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            server.fail(.init(status: 503))
            #expect(try await test.runOnce().retried == 1)
            return test
        }
        // The server is gone: the next sends get no answer.
        test.clock.advance(by: 120)
        _ = try await test.runOnce()
        _ = try await test.runOnce()
        let operation = try #require(try await test.operations().first)
        #expect(operation.attempts == 1)
        let why = try await QueueInspector(runtime: test.runtime).explain(operation).text
        #expect(why.hasPrefix("remote unreachable"), "\(why)")
    }
}
