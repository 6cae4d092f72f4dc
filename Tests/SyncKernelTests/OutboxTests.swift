import Foundation
import GRDB
import SyncKernelTesting
import Testing

@testable import SyncKernel

@Suite("Outbox: enqueue, order and coalescing")
struct OutboxTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func makeStore() throws -> (FerryStore, Outbox) {
        let store = try FerryStore.inMemory(migrations: TestPlugin.migrations)
        var book = PolicyBook()
        for (kind, policy) in TestPlugin.operations { book.set(policy, plugin: "items", kind: kind) }
        return (store, Outbox(policies: book))
    }

    func enqueue(
        _ outbox: Outbox,
        _ store: FerryStore,
        _ kind: String,
        _ entity: String,
        _ payload: String = "{}",
        remoteKnown: Bool = true
    ) throws -> EnqueueResult {
        var operation = NewOperation(plugin: "items", kind: kind, entity: entity, payloadJSON: Data(payload.utf8))
        operation.remoteKnown = remoteKnown
        return try store.writer.write { db in
            try outbox.enqueue(
                operation,
                now: now,
                in: db
            )
        }
    }

    func operations(_ store: FerryStore) throws -> [QueuedOperation] {
        try store.writer.read { db in
            try QueuedOperation.fetchAll(db, sql: "SELECT * FROM kernel_operations ORDER BY seq")
        }
    }

    @Test func laterOperationsOnAnEntityWaitBehindTheFirst() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "create", "a")
        _ = try enqueue(outbox, store, "put", "a")
        _ = try enqueue(outbox, store, "put", "b")
        let states = try operations(store).map { "\($0.entity):\($0.state.rawValue)" }
        #expect(states == ["a:pending", "a:queued", "b:pending"])
    }

    @Test func replaceKeepsOnlyTheNewestPayload() throws {
        let (store, outbox) = try makeStore()
        let first = try enqueue(outbox, store, "put", "a", #"{"value":"1"}"#)
        let second = try enqueue(outbox, store, "put", "a", #"{"value":"2"}"#)
        guard case .inserted(let id) = first else {
            Issue.record("expected an insert")
            return
        }
        #expect(second == .coalesced(id))
        let all = try operations(store)
        #expect(all.count == 1)
        #expect(String(decoding: all[0].payload, as: UTF8.self) == #"{"value":"2"}"#)
    }

    @Test func mergeCombinesPatches() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "patch", "a", #"{"status":"watched","rating":7}"#)
        _ = try enqueue(outbox, store, "patch", "a", #"{"rating":8,"note":null}"#)
        let payload = try JSONSerialization.jsonObject(with: try operations(store)[0].payload) as? [String: Any]
        #expect(payload?["status"] as? String == "watched")
        #expect(payload?["rating"] as? Int == 8)
        #expect(try operations(store).count == 1)
    }

    @Test func anUnsentSaveAndUnsaveCancelOut() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "save", "r1")
        #expect(try enqueue(outbox, store, "unsave", "r1") == .cancelled)
        #expect(try operations(store).isEmpty)
    }

    @Test func anOppositeWriteReplacesOneMadeWhileTheRemoteWasUnknown() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "save", "r1", remoteKnown: false)
        #expect(try enqueue(outbox, store, "unsave", "r1") != .cancelled)
        let remaining = try operations(store)
        #expect(remaining.map(\.kind) == ["unsave"])
        #expect(remaining.first?.state == .pending)
        #expect(remaining.first?.remoteKnown == false, "the remote before the unsave is the unknown one before the save")

        _ = try enqueue(outbox, store, "save", "r1")
        #expect(try operations(store).map(\.kind) == ["save"], "still unknown: replaced again, not cancelled")
    }

    @Test func anOddNumberOfTogglesLeavesOneOperation() throws {
        let (store, outbox) = try makeStore()
        for index in 0..<10_001 {
            _ = try enqueue(outbox, store, index.isMultiple(of: 2) ? "save" : "unsave", "r1")
        }
        let remaining = try operations(store)
        #expect(remaining.map(\.kind) == ["save"])
    }

    @Test func deleteSupersedesAnUnsentPut() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "put", "a")
        _ = try enqueue(outbox, store, "delete", "a")
        let remaining = try operations(store)
        #expect(remaining.map(\.kind) == ["delete"])
        #expect(remaining[0].state == .pending)
    }

    @Test func anOperationAlreadyHandedToTheTransportIsNeverCoalesced() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "save", "r1")
        try store.writer.write { db in try db.execute(sql: "UPDATE kernel_operations SET dispatched = 1") }
        #expect(try enqueue(outbox, store, "unsave", "r1") != .cancelled)
        #expect(try operations(store).map(\.kind) == ["save", "unsave"])
    }

    @Test func anOperationMadeOnAStateAPullReplacedIsNeverCoalesced() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "save", "r1")
        try store.writer.write { db in
            let unsent = try Outbox.unsentOperations(plugin: "items", entity: "r1", in: db)
            try Rebase.reapply(unsent, through: nil, from: .elsewhere, in: db)
        }
        #expect(try enqueue(outbox, store, "unsave", "r1") != .cancelled)
        #expect(try operations(store).map(\.kind) == ["save", "unsave"])
    }

    @Test func anOperationMadeOnTheAnswerToAnEarlierOneStillCoalesces() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "save", "r1")
        try store.writer.write { db in
            let unsent = try Outbox.unsentOperations(plugin: "items", entity: "r1", in: db)
            try Rebase.reapply(unsent, through: nil, from: .ownWrite, in: db)
        }
        #expect(try enqueue(outbox, store, "unsave", "r1") == .cancelled)
    }

    @Test func anOperationIsStoredDueAtOnceWhateverTheClockSays() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "put", "a")
        #expect(try operations(store)[0].nextAttemptAt == Date(timeIntervalSince1970: OutboxQueries.dueAtOnce))
    }

    @Test func keepAllSendsEveryOperation() throws {
        let (store, outbox) = try makeStore()
        _ = try enqueue(outbox, store, "create", "a")
        _ = try enqueue(outbox, store, "create", "a")
        #expect(try operations(store).count == 2)
    }

    @Test func aFailedLocalWriteLeavesNoOperation() async throws {
        let (store, outbox) = try makeStore()
        let now = self.now
        await #expect(throws: DatabaseError.self) {
            try await store.writer.write { db in
                try outbox.enqueue(
                    NewOperation(plugin: "items", kind: "put", entity: "a", payloadJSON: Data("{}".utf8)),
                    now: now,
                    in: db
                )
                try db.execute(sql: "INSERT INTO no_such_table VALUES (1)")
            }
        }
        #expect(try operations(store).isEmpty)
    }

    @Test func unsentOperationsAreFoundForAnyNumberOfEntitiesWhateverTheirNames() throws {
        let (store, outbox) = try makeStore()
        let awkward = [#"quote " and \ slash / ok"#, "naïve 名前", "a,b", "x"]
        for entity in awkward { _ = try enqueue(outbox, store, "put", entity) }
        let asked = awkward + (0..<1500).map { "absent-\($0)" }
        let found = try store.writer.read { db in try Outbox.unsentOperations(plugin: "items", entities: asked, in: db) }
        #expect(found.keys.sorted() == awkward.sorted())
        #expect(found.values.allSatisfy { $0.count == 1 })
    }
}
