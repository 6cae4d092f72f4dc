import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

/// Each policy driven through a real 412 from a server whose item moved on.
@Suite("Conflict policies over real HTTP")
struct ConflictPolicyTests {
    /// A runtime whose `put` uses `policy`, with the server holding "theirs" at version 3
    /// and a local "mine" queued against version 1.
    func conflict(
        _ policy: ConflictPolicy,
        remoteUpdatedAt: String? = nil,
        _ body: @Sendable @escaping (TestPluginServer, TestRuntime) async throws -> Void
    ) async throws {
        try await TestPluginServer.with { server, url in
            let yaml = "plugins:\n  items:\n    operations:\n      put: {conflict: \(policy.rawValue)}\n"
            let test = try await TestRuntime.make(server: url, yaml: yaml)
            server.seed("a", "theirs", version: 3, updatedAt: remoteUpdatedAt)
            _ = try await TestPlugin.put("a", "mine", base: .init(key: "a", value: "old", version: 1), in: test.runtime)
            try await body(server, test)
        }
    }

    func localValue(_ test: TestRuntime) async throws -> String? {
        try await test.runtime.store.read { db in try TestPlugin.value(of: "a", in: db) }
    }

    func conflicts(_ test: TestRuntime) async throws -> [ConflictReport] {
        try await test.runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
    }

    @Test func serverWinsAdoptsTheRemoteState() async throws {
        try await conflict(.serverWins) { server, test in
            let summary = try await test.runOnce()
            #expect(summary.conflicts == 1)
            #expect(server.item("a")?.value == "theirs")
            #expect(try await localValue(test) == "theirs")
            #expect(try await test.operations().isEmpty)
            #expect(try await conflicts(test).map(\.outcome) == ["remote"])
        }
    }

    @Test func clientWinsSendsTheWriteAgainWithoutItsPrecondition() async throws {
        try await conflict(.clientWins) { server, test in
            let summary = try await test.runOnce()
            #expect(summary.conflicts == 1 && summary.sent == 1)
            #expect(server.item("a")?.value == "mine")
            #expect(server.count("PUT /items/a") == 2)
        }
    }

    @Test func lastWriteWinsKeepsTheNewerRemoteWrite() async throws {
        try await conflict(.lastWriteWins, remoteUpdatedAt: "2030-01-01T00:00:00Z") { server, test in
            try await test.runOnce()
            #expect(server.item("a")?.value == "theirs")
            #expect(try await localValue(test) == "theirs")
        }
    }

    @Test func lastWriteWinsKeepsTheNewerLocalWrite() async throws {
        try await conflict(.lastWriteWins, remoteUpdatedAt: "2020-01-01T00:00:00Z") { server, test in
            try await test.runOnce()
            #expect(server.item("a")?.value == "mine")
        }
    }

    /// A write folded into one still queued is as new as itself: the remote's state, written
    /// between the two, loses to it.
    @Test func lastWriteWinsTimesAQueuedWriteByTheLatestWriteFoldedIntoIt() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            let base = TestPlugin.Item(key: "a", value: "old", version: 1)
            _ = try await TestPlugin.put("a", "first", base: base, in: test.runtime)
            server.seed("a", "theirs", version: 3, updatedAt: "2027-01-15T08:00:05.000Z")
            test.clock.advance(by: 10)
            #expect(try await TestPlugin.put("a", "mine", base: base, in: test.runtime) != .cancelled)
            #expect(try await test.operations().count == 1)
            try await test.runOnce()
            #expect(server.item("a")?.value == "mine")
        }
    }

    @Test func firstWriteWinsRetiresTheLocalWriteAndReportsIt() async throws {
        try await conflict(.firstWriteWins) { server, test in
            let events = test.runtime.events.subscribe()
            try await test.runOnce()
            #expect(server.item("a")?.value == "theirs")
            #expect(try await test.operations().isEmpty)
            var reported: ConflictReport?
            for await event in events {
                if case .conflict(let report) = event {
                    reported = report
                    break
                }
            }
            #expect(reported?.policy == .firstWriteWins)
            #expect(reported?.outcome == "remote")
        }
    }

    @Test func mergeSendsWhatThePluginMerged() async throws {
        try await conflict(.merge) { server, test in
            try await test.runOnce()
            #expect(server.item("a")?.value == "theirs+mine")
            #expect(server.item("a")?.version == 4)
        }
    }

    @Test func manualKeepsTheConflictUntilAPersonResolvesIt() async throws {
        try await conflict(.manual) { server, test in
            try await test.runOnce()
            let open = try await test.runtime.store.read { db in try ConflictStore.list(openOnly: true, in: db) }
            #expect(open.count == 1)
            #expect(try await test.operations().map(\.state) == [.conflict])
            #expect(try await test.runOnce().sent == 0)
            let resolved = try await test.runtime.resolveConflict(id: String(open[0].id.prefix(8)), keepLocal: true)
            #expect(resolved.outcome == "local")
            #expect(try await test.runOnce().sent == 1)
            #expect(server.item("a")?.value == "mine")
        }
    }

    @Test func manualResolvedForTheRemoteAdoptsIt() async throws {
        try await conflict(.manual) { server, test in
            try await test.runOnce()
            let open = try await test.runtime.store.read { db in try ConflictStore.list(openOnly: true, in: db) }
            _ = try await test.runtime.resolveConflict(id: open[0].id, keepLocal: false)
            #expect(try await test.operations().isEmpty)
            #expect(try await localValue(test) == "theirs")
            await #expect(throws: FerryError.self) {
                try await test.runtime.resolveConflict(id: open[0].id, keepLocal: true)
            }
        }
    }
}
