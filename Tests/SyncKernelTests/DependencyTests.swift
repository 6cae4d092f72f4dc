import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

/// An operation that refers to an entity created offline waits for it, spending nothing,
/// and goes after it with the remote's id.
@Suite("Engine: operations that wait for another entity")
struct DependencyTests {
    static let yaml = "retry: {base_delay: 1m, max_delay: 2m, jitter: 0}\nsync: {batch_size: 1}\nplugins:\n  items: {}\n"

    /// Queues the creation of `local-1` and a link to it, in that order.
    func createAndLink(_ test: TestRuntime) async throws {
        try await test.runtime.commit { db, queue in
            try db.execute(sql: "INSERT INTO items_entries (key, value) VALUES ('local-1', 'parent')")
            queue.enqueue(try NewOperation(plugin: "items", kind: "create", entity: "local-1", payload: ["value": "parent"]))
            queue.enqueue(try NewOperation(plugin: "items", kind: "link", entity: "L", payload: ["target": "local-1"]))
        }
    }

    func link(_ test: TestRuntime) async throws -> QueuedOperation? {
        try await test.operations().first { $0.kind == "link" }
    }

    @Test func aChildWaitsForItsParentWithoutSpendingAttemptsAndGoesAfterIt() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml)
            try await createAndLink(test)
            // The parent's first send fails (the remote is busy): the child meets a local id.
            server.fail(.init(status: 503, path: "/items"))
            let first = try await test.runOnce()
            #expect(first.sent == 0 && first.retried == 1 && !first.failed)
            let waiting = try #require(try await link(test))
            #expect(waiting.attempts == 0 && waiting.state == .pending)
            #expect(try await QueueInspector(runtime: test.runtime).explain(waiting).text.contains("local-1"))
            // Nothing goes while the parent waits out its backoff, however often the runner looks.
            for _ in 0..<3 { #expect(try await test.runOnce().sent == 0) }
            #expect(try await link(test)?.attempts == 0)

            test.clock.advance(by: 60)
            #expect(try await test.runOnce().sent == 2)
            #expect(server.pings == [#"{"target":"r1"}"#])
        }
    }

    @Test func aChildWhoseParentWasDiscardedSaysSoAsADeadLetter() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml)
            try await createAndLink(test)
            server.fail(.init(status: 400, path: "/items"))
            _ = try await test.runOnce()
            let parent = try #require(try await test.operations().first { $0.kind == "create" })
            #expect(parent.state == .dead)
            let waiting = try #require(try await link(test))
            #expect(waiting.state == .pending && waiting.attempts == 0)
            let why = try await QueueInspector(runtime: test.runtime).explain(waiting).text
            #expect(why.contains("dead letter"), "\(why)")

            try await test.runtime.discard(parent)
            #expect(try await test.runOnce().deadLettered == 1)
            let dead = try #require(try await link(test))
            #expect(dead.state == .dead)
            #expect(dead.lastError?.contains("local-1 has nothing left to send") == true)
            #expect(server.pings.isEmpty)
        }
    }

    @Test func anOperationThatWouldWaitForItsOwnEntityIsADeadLetterThatSaysSo() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml)
            try await test.runtime.commit { _, queue in
                queue.enqueue(try NewOperation(plugin: "items", kind: "link", entity: "local-9", payload: ["target": "local-9"]))
            }
            #expect(try await test.runOnce().deadLettered == 1)
            let dead = try #require(try await link(test))
            #expect(dead.state == .dead)
            #expect(dead.lastError?.contains("this operation's own entity") == true, "\(dead.lastError ?? "")")
            #expect(server.pings.isEmpty)
        }
    }

    /// A parent delivered while its child was being sent beside it (the remote named it)
    /// lets the child go again at once; a plugin that then sends it to wait for the same
    /// entity again ends it a dead letter rather than turn the pass into a loop. Here the
    /// link's payload still names `local-1` after the remote named it, so the plugin asks to
    /// wait each time.
    @Test(.timeLimit(.minutes(1))) func aChildOfAParentTheRemoteNamedGoesAgainOnceThenCannotWaitForItAgain() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml)
            try await test.runtime.commit { db, queue in
                try db.execute(
                    sql: "INSERT INTO kernel_id_mappings (plugin, local_id, remote_id, created_at) VALUES ('items', 'local-1', 'r1', 0)"
                )
                queue.enqueue(try NewOperation(plugin: "items", kind: "link", entity: "L", payload: ["target": "local-1"]))
            }
            let pass = try await test.runOnce()
            #expect(pass.deadLettered == 1)
            let dead = try #require(try await link(test))
            #expect(dead.state == .dead && dead.attempts == 0)
            #expect(dead.lastError?.contains("local-1 has nothing left to send") == true, "\(dead.lastError ?? "")")
            #expect(server.pings.isEmpty)
        }
    }
}
