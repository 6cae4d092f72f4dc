import FerryServerTesting
import Foundation
import GRDB
import SyncKernelTesting
import Testing

@testable import SyncKernel

/// A pull that finds nothing new: its feed's page brings no change and the same cursor,
/// and the store keeps the feed's row as it was; only the plugin's last-sync time moves.
@Suite("Pulls that find nothing new")
struct IdlePullTests {
    @Test func aPageWithNothingNewLeavesItsCursorRowAsItWas() async throws {
        let server = try await DemoFerryServer.start()
        defer { Task { await server.stop() } }
        let credentials = try await StaticCredentials.signedIn(at: server.baseURL)
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: "domains:\n  notes: {}\n",
            plugins: [],
            credentials: credentials
        )
        _ = try await test.runtime.submitDeclared(domain: "notes", kind: "put", entity: "a", body: Data(#"{"title":"a"}"#.utf8))
        #expect(try await test.runOnce().sent == 1)
        let first = try await Self.cursorRow(test)

        test.clock.advance(by: 60)
        let idle = try await test.runOnce()
        #expect(idle.pullFailures.isEmpty)
        #expect(try await Self.cursorRow(test) == first, "the page brought nothing new, yet its row was written again")
        let lastSync = try await test.runtime.store.read { db in try PluginState.lastSync("notes", in: db) }
        #expect(lastSync == test.clock.now(), "the plugin's last sync is the idle pull's")

        test.clock.advance(by: 60)
        _ = try await test.runtime.submitDeclared(domain: "notes", kind: "put", entity: "b", body: Data(#"{"title":"b"}"#.utf8))
        #expect(try await test.runOnce().sent == 1)
        let moved = try await Self.cursorRow(test)
        #expect(moved.cursor != first.cursor)
        #expect(moved.updatedAt == test.clock.now().timeIntervalSince1970)
    }

    struct CursorRow: Equatable {
        var cursor: String
        var updatedAt: Double
    }

    static func cursorRow(_ test: TestRuntime) async throws -> CursorRow {
        try await test.runtime.store.read { db in
            let row = try #require(
                try Row.fetchOne(db, sql: "SELECT cursor, updated_at FROM kernel_cursors WHERE plugin = 'notes' AND name = 'default'")
            )
            return CursorRow(cursor: row["cursor"], updatedAt: row["updated_at"])
        }
    }
}
