import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

@testable import SyncKernel

/// An entity removed before it reached the remote is forgotten with its operations, unless
/// its creation was sent already: then it may be on the remote, and the removal follows it.
@Suite("Forgetting an entity created offline")
struct ForgetTests {
    static let local = "local-1"

    func create(_ test: TestRuntime) async throws {
        try await test.runtime.commit { db, queue in
            try db.execute(sql: "INSERT INTO items_entries (key, value) VALUES (?, 'draft')", arguments: [Self.local])
            queue.enqueue(try NewOperation(plugin: "items", kind: "create", entity: Self.local, payload: ["value": "draft"]))
        }
    }

    func remove(_ test: TestRuntime) async throws {
        let removal = try NewOperation(plugin: "items", kind: "delete", entity: Self.local, payload: [String: String]())
        try await test.runtime.commit { db, queue in
            try db.execute(sql: "DELETE FROM items_entries WHERE key = ?", arguments: [Self.local])
            queue.forget(plugin: "items", entity: Self.local, orRemoveWith: removal)
        }
    }

    @Test func aCreationNeverSentIsForgottenAndNothingGoes() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            try await create(test)
            try await remove(test)
            #expect(try await test.operations().isEmpty)
            #expect(try await test.runOnce().sent == 0)
            #expect(server.requests.filter { !$0.hasPrefix("GET") }.isEmpty)
        }
    }

    @Test func aCreationSentWithoutARecordedAnswerIsFollowedByTheRemoval() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            try await create(test)
            server.fail(.init(status: 503, body: "{}"))
            #expect(try await test.runOnce().retried == 1)
            try await remove(test)
            #expect(try await test.operations().map(\.kind) == ["create", "delete"])
            test.clock.advance(by: 3600)
            #expect(try await test.runOnce().sent == 2)
            #expect(server.item("r1")?.deleted == true, "the removal went to the remote's id")
            #expect(try await test.operations().isEmpty)
        }
    }
}
