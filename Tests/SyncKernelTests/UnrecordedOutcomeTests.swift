import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

/// The test plugin, except that a local change it makes for an answer throws, as its
/// settings say.
struct FailingLocalChangePlugin: SyncPlugin {
    struct Settings: Codable, Sendable {
        /// `conflict`: `adoptRemote` runs a statement on a table that does not exist, which
        /// fails every time. `garbled-conflict`: the remote's entity does not decode in
        /// `adoptRemote`, as from an answer cut short. `answer`: an acknowledgement's local
        /// change runs the statement that fails.
        var fails: String
    }

    static let name = TestPlugin.name
    static let operations = TestPlugin.operations
    static let migrations = TestPlugin.migrations

    let settings: Settings
    let items: TestPlugin

    init(settings: Settings, context: PluginContext) {
        self.settings = settings
        self.items = TestPlugin(settings: .init(), context: context)
    }

    func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let outcome = try await items.send(operation, context: context)
        switch settings.fails {
        case "answer": return .delivered { db in try Self.archive(operation.entity, in: db) }
        case "full-disk": return .delivered { _ in throw DatabaseError(resultCode: .SQLITE_FULL) }
        default: return outcome
        }
    }

    func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {
        if settings.fails == "garbled-conflict" {
            _ = try JSONDecoder.ferry.decode(TestPlugin.Item.self, from: Data("<html>502</html>".utf8))
        }
        try Self.archive(conflict.entity, in: db)
    }

    /// A statement on a table that does not exist.
    static func archive(_ key: String, in db: Database) throws {
        try db.execute(sql: "UPDATE items_archive SET value = ? WHERE key = ?", arguments: ["x", key])
    }
}

/// An answer the kernel cannot record, because the plugin's local change for it throws,
/// never leaves its operation in flight: it goes again or settles, and the pass says so.
@Suite("Engine: an outcome the plugin cannot record")
struct UnrecordedOutcomeTests {
    /// A runtime whose `items` plugin fails as `fails` says, with a `put` of "mine" queued
    /// against version 1 of an item the server holds at version 3 (`server_wins`).
    func conflict(
        failing fails: String,
        retry: String = "{base_delay: 10s, jitter: 0}",
        _ body: @Sendable @escaping (TestPluginServer, TestRuntime) async throws -> Void
    ) async throws {
        try await TestPluginServer.with { server, url in
            let yaml = """
                retry: \(retry)
                plugins:
                  items:
                    fails: \(fails)
                    operations:
                      put: {conflict: server_wins}
                """
            let test = try await TestRuntime.make(server: url, yaml: yaml, plugins: [FailingLocalChangePlugin.self])
            server.seed("a", "theirs", version: 3)
            _ = try await TestPlugin.put("a", "mine", base: .init(key: "a", value: "old", version: 1), in: test.runtime)
            try await body(server, test)
        }
    }

    @Test func aLocalChangeThatFailsForGoodMakesADeadLetterNamingThePluginAndTheError() async throws {
        try await conflict(failing: "conflict") { server, test in
            let summary = try await test.runOnce()
            #expect(summary.deadLettered == 1 && summary.failed)
            let operation = try #require(try await test.operations().first)
            #expect(operation.state == .dead && operation.attempts == 1)
            let reason = try #require(operation.lastError)
            #expect(reason.contains("the items plugin could not record the remote's answer (412"))
            #expect(reason.contains("no such table: items_archive"))
            // Settled: once any lease would have run out, no pass sends it again.
            test.clock.advance(by: 3600)
            #expect(try await test.runOnce().sent == 0)
            #expect(server.count("PUT /items/a") == 1)
        }
    }

    @Test func aLocalChangeThatMayPassSendsTheOperationAgainAfterABackoff() async throws {
        try await conflict(failing: "garbled-conflict", retry: "{base_delay: 10s, jitter: 0, max_attempts: 2}") {
            server,
            test in
            let summary = try await test.runOnce()
            #expect(summary.retried == 1 && summary.deadLettered == 0)
            var operation = try #require(try await test.operations().first)
            #expect(operation.state == .pending && operation.attempts == 1)
            #expect(operation.nextAttemptAt == test.clock.now().addingTimeInterval(10))
            #expect(operation.lastError?.contains("the items plugin could not record the remote's answer") == true)

            test.clock.advance(by: 10)
            #expect(try await test.runOnce().deadLettered == 1)
            operation = try #require(try await test.operations().first)
            #expect(operation.state == .dead)
            #expect(operation.lastError?.hasPrefix("gave up after 2 attempts: the items plugin could not") == true)
            #expect(server.count("PUT /items/a") == 2)
        }
    }

    /// A full disk is the device's condition, not the operation's: however long it lasts,
    /// the write waits and goes again, and never runs out of attempts.
    @Test func aFullDiskWhileAnAnswerIsRecordedSpendsNoAttempt() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(
                server: url,
                yaml: "retry: {base_delay: 10s, jitter: 0, max_attempts: 2}\nplugins:\n  items: {fails: full-disk}\n",
                plugins: [FailingLocalChangePlugin.self]
            )
            _ = try await TestPlugin.put("a", "mine", in: test.runtime)
            for _ in 0..<4 {
                #expect(try await test.runOnce().retried == 1)
                let operation = try #require(try await test.operations().first)
                #expect(operation.state == .pending && operation.attempts == 0)
                #expect(operation.lastError?.contains("the disk is full") == true)
                test.clock.advance(by: 3600)
            }
            #expect(server.count("PUT /items/a") == 4)
        }
    }

    @Test func anAcceptedWriteWhoseAnswerCannotBeRecordedIsADeadLetterNotASecondSend() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(
                server: url,
                yaml: "plugins:\n  items: {fails: answer}\n",
                plugins: [FailingLocalChangePlugin.self]
            )
            _ = try await TestPlugin.put("a", "mine", in: test.runtime)
            let summary = try await test.runOnce()
            #expect(summary.deadLettered == 1 && summary.failed && summary.sent == 0)
            let operation = try #require(try await test.operations().first)
            #expect(operation.state == .dead)
            #expect(
                operation.lastError
                    == "the items plugin could not record the remote's answer (accepted): could not write to the store: no such table: items_archive"
            )
            test.clock.advance(by: 3600)
            try await test.runOnce()
            #expect(server.count("PUT /items/a") == 1)
        }
    }
}
