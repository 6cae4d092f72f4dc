import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Engine: delivery over real HTTP")
struct EngineDeliveryTests {
    @Test func aQueuedWriteReachesTheServerWithItsIdAsIdempotencyKey() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            _ = try await TestPlugin.put("a", "hello", in: test.runtime)
            let summary = try await test.runOnce()
            #expect(summary.sent == 1)
            #expect(server.item("a")?.value == "hello")
            #expect(try await test.operations().isEmpty)
        }
    }

    @Test func transientFailuresBackOffOnTheInjectedClockAndSpendAttempts() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(
                server: url,
                yaml: "retry: {base_delay: 10s, jitter: 0}\nplugins:\n  items: {}\n"
            )
            server.fail(.init(status: 503), .init(status: 429, headers: ["Retry-After": "120"]))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            #expect(try await test.runOnce().retried == 1)
            var operation = try #require(try await test.operations().first)
            #expect(operation.attempts == 1)
            #expect(operation.nextAttemptAt == test.clock.now().addingTimeInterval(10))
            #expect(try await test.runOnce().sent == 0)
            test.clock.advance(by: 10)
            #expect(try await test.runOnce().retried == 1)
            operation = try #require(try await test.operations().first)
            #expect(operation.nextAttemptAt == test.clock.now().addingTimeInterval(120))
            test.clock.advance(by: 120)
            #expect(try await test.runOnce().sent == 1)
            #expect(server.item("a")?.value == "v")
        }
    }

    @Test func anUnreachableRemoteSpendsNoAttemptAndKeepsTheOperation() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        _ = try await TestPlugin.put("a", "v", in: test.runtime)
        let summary = try await test.runOnce()
        #expect(summary.sent == 0 && !summary.failed)
        let operation = try #require(try await test.operations().first)
        #expect(operation.attempts == 0)
        #expect(operation.state == .pending)
        #expect(operation.lastError?.contains("refused") == true)
    }

    @Test func regainingConnectivityCutsABackoffShort() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(
                server: url,
                yaml: "retry: {base_delay: 1h, max_delay: 2h, jitter: 0}\nplugins:\n  items: {}\n"
            )
            server.fail(.init(status: 500))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            let engine = SyncEngine(runtime: test.runtime)
            #expect(try await engine.runOnce().retried == 1)
            test.connectivity.set(.offline)
            #expect(try await engine.runOnce().sent == 0)
            test.connectivity.set(.online)
            #expect(try await engine.runOnce().sent == 1)
            #expect(server.item("a")?.value == "v")
        }
    }

    @Test func whileOfflineNothingIsSent() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, connectivity: ManualConnectivity(.offline))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            #expect(try await test.runOnce().sent == 0)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aRejectedOperationBecomesADeadLetterAndBlocksOnlyItsEntity() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            server.fail(
                .init(
                    status: 400,
                    body: #"{"error":{"code":"bad","message":"value too long","details":{}}}"#,
                    path: "/items/a"
                )
            )
            _ = try await TestPlugin.put("a", "one", in: test.runtime)
            _ = try await TestPlugin.enqueue("save", "a", in: test.runtime)
            _ = try await TestPlugin.put("b", "two", in: test.runtime)
            let summary = try await test.runOnce()
            #expect(summary.deadLettered == 1 && summary.failed)
            #expect(server.item("b")?.value == "two")
            let left = try await test.operations()
            #expect(left.map(\.state) == [.dead, .queued])
            #expect(left[0].lastError == "400 bad: value too long")
        }
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheRequestRetried() async throws {
        try await TestPluginServer.with { server, url in
            let credentials = StaticCredentials(token: "old", refreshesTo: "new")
            let test = try await TestRuntime.make(server: url, credentials: credentials)
            server.fail(.init(status: 401))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            #expect(try await test.runOnce().sent == 1)
            #expect(credentials.refreshCount == 1)
            #expect(server.count("PUT /items/a") == 2)
        }
    }

    @Test func aRefusedSessionHoldsThePluginsQueueUntilLogin() async throws {
        try await TestPluginServer.with { server, url in
            let credentials = StaticCredentials(token: "old", refreshesTo: nil)
            let test = try await TestRuntime.make(server: url, credentials: credentials)
            server.fail(.init(status: 401), .init(status: 401))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            _ = try await TestPlugin.put("b", "w", in: test.runtime)
            let summary = try await test.runOnce()
            #expect(summary.sent == 0 && !summary.failed)
            let held = try await test.operations()
            #expect(held.count == 2 && held.allSatisfy { $0.attempts == 0 })
            let status = try await QueueInspector(runtime: test.runtime).status()
            #expect(status.plugins.first?.needsLogin == true)
            try await test.runtime.resumeAfterLogin()
            #expect(try await test.runOnce().sent == 2)
        }
    }

    @Test func anEntityCreatedOfflineIsRemappedWithItsQueuedWrites() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            let local = "local-1"
            try await test.runtime.commit { db, queue in
                try db.execute(sql: "INSERT INTO items_entries (key, value) VALUES (?, 'draft')", arguments: [local])
                queue.enqueue(try NewOperation(plugin: "items", kind: "create", entity: local, payload: ["value": "draft"]))
            }
            _ = try await TestPlugin.put(local, "final", in: test.runtime)
            #expect(try await test.runOnce().sent == 2)
            #expect(server.item("r1")?.value == "final")
            let keys = try await test.runtime.store.read { db in
                try String.fetchAll(db, sql: "SELECT key FROM items_entries")
            }
            #expect(keys == ["r1"])
        }
    }

    @Test func aPullRebasesRowsThatHavePendingWrites() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, connectivity: ManualConnectivity(.online))
            server.seed("a", "remote-a", version: 3)
            server.seed("b", "remote-b", version: 1)
            _ = try await TestPlugin.put("a", "mine", in: test.runtime)
            server.fail(.init(status: 503))
            let summary = try await test.runOnce()
            #expect(summary.pulls["items"]?.rebased == 1)
            let values = try await test.runtime.store.read { db in
                (try TestPlugin.value(of: "a", in: db), try TestPlugin.value(of: "b", in: db))
            }
            #expect(values.0 == "mine")
            #expect(values.1 == "remote-b")
        }
    }

    @Test func onlineOnlyOperationsFailAtOnceWithoutAConnection() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9", connectivity: ManualConnectivity(.offline))
        let error = await #expect(throws: FerryError.self) {
            _ = try await test.runtime.submit(
                try NewOperation(plugin: "items", kind: "ping", entity: "x", payload: ["a": "b"])
            )
        }
        #expect(error?.code == .requiresConnection)
        #expect(try await test.operations().isEmpty)
    }

    @Test func anOnlineOnlyWriteWithNoAnswerSaysTheRemoteMayHaveTakenIt() async throws {
        // The link is up, but nothing listens there: the request gets no answer.
        let test = try await TestRuntime.make(
            server: "http://127.0.0.1:9",
            yaml: "plugins:\n  items:\n    operations:\n      put: {delivery: online_only}\n",
            connectivity: ManualConnectivity(.online)
        )
        let error = await #expect(throws: FerryError.self) {
            _ = try await test.runtime.submit(try NewOperation(plugin: "items", kind: "put", entity: "a", payload: ["value": "v"]))
        }
        #expect(error?.code == .requiresConnection)
        let message = error?.message ?? ""
        #expect(message.contains("got no answer") && message.contains("it may have been taken"), "\(message)")
        #expect(!message.contains("; nothing was changed"), "a write whose answer was lost may be on the remote: \(message)")
        #expect(try await test.operations().isEmpty)
    }

    @Test func anOnlineOnlyWriteStoresTheRemotesAnswerAndNeverThePlaceholder() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(
                server: url,
                yaml: "plugins:\n  items:\n    operations:\n      put: {delivery: online_only}\n"
            )
            let result = try await test.runtime.submit(
                try NewOperation(plugin: "items", kind: "put", entity: "a", payload: ["value": "sent"])
            ) { db in
                try db.execute(sql: "INSERT INTO items_entries (key, value) VALUES ('placeholder', 'x')")
            }
            #expect(!result.isQueued)
            #expect(server.item("a")?.value == "sent")
            let keys = try await test.runtime.store.read { db in
                try String.fetchAll(db, sql: "SELECT key FROM items_entries ORDER BY key")
            }
            #expect(keys == ["a"])
            #expect(try await test.operations().isEmpty)
        }
    }

    @Test func anUnmeteredOperationWaitsOnAMeteredLink() async throws {
        try await TestPluginServer.with { server, url in
            let connectivity = ManualConnectivity(
                ConnectivityState(reachable: true, interface: .cellular, metered: true)
            )
            let test = try await TestRuntime.make(server: url, connectivity: connectivity)
            _ = try await TestPlugin.enqueue("upload", "big", in: test.runtime)
            _ = try await TestPlugin.enqueue("save", "small", in: test.runtime)
            #expect(try await test.runOnce().sent == 1)
            let why = try await QueueInspector(runtime: test.runtime).explain(
                try #require(try await test.operations().first)
            )
            #expect(why.text.contains("unmetered"))
            connectivity.set(ConnectivityState(reachable: true, interface: .wifi, metered: false))
            #expect(try await test.runOnce().sent == 1)
        }
    }

    @Test func aLeaseLeftByADeadProcessIsReclaimedWithTheSameKey() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url)
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            let before = try #require(try await test.operations().first)
            try await test.runtime.store.write { db in
                try db.execute(
                    sql: "UPDATE kernel_operations SET state = 'in_flight', lease_owner = ?, lease_until = ?",
                    arguments: [
                        LeaseOwner(host: ProcessInfo.processInfo.hostName, pid: Int32.max - 7).text, 4_000_000_000.0,
                    ]
                )
            }
            #expect(try await test.runOnce().sent == 1)
            #expect(server.item("a")?.value == "v")
            #expect(before.state == .pending)
        }
    }
}
