import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

/// A plugin whose `decide` operation pings the remote and returns the outcome its payload
/// names, with a local note, so each typed outcome can be watched from the outside. Its
/// `claim` is the same with the remote winning conflicts; adopting the remote's state and
/// applying a pending operation again (the rebase) leave notes too.
private struct VerdictPlugin: SyncPlugin {
    static let name = "verdicts"
    static let operations = [
        "decide": OperationPolicy(conflict: .manual),
        "claim": OperationPolicy(conflict: .serverWins),
    ]
    static let migrations = [
        StoreMigration("verdicts.v1") { db in
            try db.execute(sql: "CREATE TABLE verdicts_notes (entity TEXT PRIMARY KEY, note TEXT NOT NULL)")
        }
    ]

    init(settings: EmptySettings, context: PluginContext) {}

    func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        _ = try await context.transport.send(HTTPRequest("POST", "/ping", body: operation.payload))
        let verdict = try operation.decodePayload([String: String].self)["outcome"] ?? ""
        let entity = operation.entity
        let note: LocalChange = { db in
            try db.execute(sql: "INSERT INTO verdicts_notes (entity, note) VALUES (?, ?)", arguments: [entity, verdict])
        }
        switch verdict {
        case "done": return .alreadyDone(reason: "the remote had it", apply: note)
        case "person": return .needsPerson(reason: "pick one of three", apply: note)
        case "broken": return .needsPerson(reason: "pick one", apply: { _ in throw FerryError(.plugin, "disk on fire") })
        case "conflict": return .conflict(reason: "someone else holds it", remote: Data(#"{"holder":"b"}"#.utf8))
        case "hold": return .waitsFor(entity: "nobody", reason: "waits for nobody")
        default: return .delivered(apply: note)
        }
    }

    func reapply(_ operation: QueuedOperation, in db: Database) throws {
        try Self.note(operation.entity, "reapplied \(operation.id)", in: db)
    }

    func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {
        try Self.note(conflict.entity, "adopted", in: db)
    }

    static func note(_ entity: String, _ note: String, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO verdicts_notes (entity, note) VALUES (?, ?)", arguments: [entity, note])
    }
}

@Suite("Engine: typed send outcomes")
struct SendOutcomeTests {
    func run(_ verdict: String, entity: String = "e1") async throws -> (TestRuntime, RunSummary) {
        try await TestPluginServer.with { _, url in
            let test = try await TestRuntime.make(
                server: url,
                yaml: "plugins:\n  verdicts: {}\n",
                plugins: [VerdictPlugin.self]
            )
            try await test.runtime.commit { _, queue in
                queue.enqueue(try NewOperation(plugin: "verdicts", kind: "decide", entity: entity, payload: ["outcome": verdict]))
            }
            return (test, try await test.runOnce())
        }
    }

    func note(_ test: TestRuntime, _ entity: String = "e1") async throws -> String? {
        try await test.runtime.store.read { db in
            try String.fetchOne(db, sql: "SELECT note FROM verdicts_notes WHERE entity = ?", arguments: [entity])
        }
    }

    /// Queues `first` and then `hold` on one entity, runs once, and returns the note and the
    /// id of the second operation.
    func rebaseAfter(_ kind: String, _ first: String) async throws -> (note: String?, second: UUID?) {
        try await TestPluginServer.with { _, url in
            let test = try await TestRuntime.make(server: url, yaml: "plugins:\n  verdicts: {}\n", plugins: [VerdictPlugin.self])
            try await test.runtime.commit { _, queue in
                queue.enqueue(try NewOperation(plugin: "verdicts", kind: kind, entity: "e1", payload: ["outcome": first]))
                queue.enqueue(try NewOperation(plugin: "verdicts", kind: "decide", entity: "e1", payload: ["outcome": "hold"]))
            }
            let second = try await test.operations().last?.id
            _ = try await test.runOnce()
            return (try await note(test), second)
        }
    }

    @Test func aDeliveredAnswerThatStoresTheRemoteStateGetsTheEntitysLaterWritesOnTopAgain() async throws {
        let (note, second) = try await rebaseAfter("decide", "deliver")
        #expect(note == "reapplied \(try #require(second))")
    }

    @Test func aConflictTheRemoteWonGetsTheEntitysLaterWritesOnTopAgain() async throws {
        let (note, second) = try await rebaseAfter("claim", "conflict")
        #expect(note == "reapplied \(try #require(second))")
    }

    @Test func alreadyDoneIsAcknowledgedWithItsLocalChange() async throws {
        let (test, summary) = try await run("done")
        #expect(summary.sent == 1 && summary.deadLettered == 0)
        #expect(try await test.operations().isEmpty)
        #expect(try await note(test) == "done")
    }

    @Test func needsAPersonIsADeadLetterWhoseLocalChangeCommitsWithIt() async throws {
        let (test, summary) = try await run("person")
        #expect(summary.deadLettered == 1 && summary.sent == 0)
        let dead = try #require(try await test.operations().first)
        #expect(dead.state == .dead && dead.attempts == 1)
        #expect(dead.lastError == "pick one of three")
        #expect(try await note(test) == "person")
    }

    @Test func aLocalChangeThatFailsStillLeavesTheDeadLetterWithBothReasons() async throws {
        let (test, _) = try await run("broken")
        let dead = try #require(try await test.operations().first)
        #expect(dead.state == .dead)
        #expect(dead.lastError?.contains("pick one") == true && dead.lastError?.contains("disk on fire") == true)
    }

    @Test func aConflictInASuccessfulAnswerGoesToTheConflictPolicy() async throws {
        let (test, _) = try await run("conflict")
        let conflicts = try await test.runtime.store.read { db in try ConflictStore.list(openOnly: true, in: db) }
        let report = try #require(conflicts.first)
        #expect(report.reason == "someone else holds it" && report.entity == "e1")
        #expect(report.remote == Data(#"{"holder":"b"}"#.utf8))
        #expect(try await note(test) == nil)
    }
}
