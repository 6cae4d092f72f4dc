import FerryServerTesting
import Foundation
import GRDB
import SyncKernelTesting
import Synchronization
import Testing

@testable import SyncKernel

/// Sends nothing anywhere: a send first does what its payload says (pins the network in the
/// settings every process shares, announces itself on the event bus, or waits until its
/// lease is renewed), then counts as delivered.
private struct PinningPlugin: SyncPlugin {
    static let name = "pins"
    static let operations = [
        "put": OperationPolicy(),
        "upload": OperationPolicy(requirement: .unmetered),
    ]
    init(settings: EmptySettings, context: PluginContext) {}

    func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let orders = try JSONDecoder().decode([String: String].self, from: operation.payload)
        for key in ["network.reachability", "network.metering"] {
            if let pin = orders[key].flatMap(NetworkOverride.init(rawValue:)) {
                try await context.settings.set(pin, for: key)
            }
        }
        if orders["announce"] != nil {
            context.events.emit(
                .transferProgress(name: "pins.\(operation.entity).\(operation.kind)", received: 0, total: nil)
            )
        }
        if orders["outlast"] != nil {
            // Waits until the lease taken for this send is renewed.
            let sequence = operation.sequence
            let leaseUntil: @Sendable () async throws -> Double = {
                try await context.store.read { db in
                    try Double.fetchOne(
                        db,
                        sql: "SELECT lease_until FROM kernel_operations WHERE seq = ?",
                        arguments: [sequence]
                    ) ?? 0
                }
            }
            let leased = try await leaseUntil()
            try await Wait.until(limit: 20) { try await leaseUntil() > leased }
        }
        return .delivered
    }
}

/// The acknowledgement of a delivery leases the next one in the same write: what it may
/// lease is decided by what that write reads, not by what the engine saw before.
@Suite("Engine: the next lease goes with the acknowledgement")
struct EngineLeaseTests {
    static func make() async throws -> TestRuntime {
        try await TestRuntime.make(
            server: "http://127.0.0.1:9",
            yaml: "sync: {concurrency: 1, batch_size: 1}\nplugins:\n  pins: {}\n",
            plugins: [PinningPlugin.self]
        )
    }

    static func enqueue(
        _ entity: String,
        kind: String = "put",
        _ orders: [String: String],
        in test: TestRuntime
    ) async throws {
        try await test.runtime.commit { _, queue in
            queue.enqueue(try NewOperation(plugin: "pins", kind: kind, entity: entity, payload: orders))
        }
    }

    @Test func anOfflinePinSetDuringASendStopsTheNextLease() async throws {
        let test = try await Self.make()
        try await Self.enqueue("a", ["network.reachability": "offline"], in: test)
        try await Self.enqueue("b", [:], in: test)
        #expect(try await test.runOnce().sent == 1)
        let waiting = try #require(try await test.operations().first)
        #expect(waiting.entity == "b" && waiting.state == .pending && waiting.leaseOwner == nil)
        try await test.runtime.settings.set(NetworkOverride.auto, for: "network.reachability")
        #expect(try await test.runOnce().sent == 1)
    }

    @Test func aMeteredPinSetDuringASendKeepsAnUnmeteredOperationWaiting() async throws {
        let test = try await Self.make()
        try await Self.enqueue("a", ["network.metering": "metered"], in: test)
        try await Self.enqueue("b", kind: "upload", [:], in: test)
        #expect(try await test.runOnce().sent == 1)
        let waiting = try #require(try await test.operations().first)
        #expect(waiting.kind == "upload" && waiting.state == .pending && waiting.leaseOwner == nil)
    }

    @Test func aStopDuringASendLeasesNothingMore() async throws {
        let test = try await Self.make()
        try await Self.enqueue("a", ["announce": "yes"], in: test)
        try await Self.enqueue("b", [:], in: test)
        let engine = SyncEngine(runtime: test.runtime)
        let summary = try await test.runtime.events.observing({ event in
            if case .transferProgress(name: "pins.a.put", _, _) = event { engine.stop() }
        }) {
            try await engine.runOnce()
        }
        #expect(summary.sent == 1)
        let left = try await test.operations()
        #expect(left.map(\.entity) == ["b"] && left.first?.state == .pending && left.first?.leaseOwner == nil)
    }

    /// A lease lasts twice `sync.request_timeout` and ten seconds more: 10.2 s here, renewed
    /// every 3.4 s of real time.
    @Test func aSendThatOutlastsAThirdOfItsLeaseHasItRenewed() async throws {
        let test = try await TestRuntime.make(
            server: "http://127.0.0.1:9",
            yaml: "sync: {concurrency: 1, batch_size: 1, request_timeout: 100ms}\nplugins:\n  pins: {}\n",
            plugins: [PinningPlugin.self]
        )
        try await Self.enqueue("a", ["announce": "yes", "outlast": "lease"], in: test)
        let summary = try await test.runtime.events.observing({ event in
            // The renewal counts from the kernel's clock: a lease renewed later ends later.
            if case .transferProgress(name: "pins.a.put", _, _) = event { test.clock.advance(by: 1) }
        }) {
            try await test.runOnce()
        }
        #expect(summary.sent == 1)
    }

    @Test func theNextLeaseAfterAnAnswerSendsNoProbe() async throws {
        try await TestPluginServer.with { server, url in
            let clock = TestClock()
            let probe = ProbeConnectivity(
                remotes: { [url] },
                interval: 15,
                timeout: patientProbeTimeout,
                interfaces: try FakeInterfaces.make([("eth0", true, false)]),
                clock: clock
            )
            let test = try await TestRuntime.make(
                server: url,
                yaml: "sync: {concurrency: 1, batch_size: 1}\nplugins:\n  pins: {}\n",
                plugins: [PinningPlugin.self],
                clock: clock,
                monitor: probe
            )
            try await Self.enqueue("a", ["announce": "yes"], in: test)
            try await Self.enqueue("b", [:], in: test)
            let summary = try await test.runtime.events.observing({ event in
                // A send that takes longer than the probe's interval.
                if case .transferProgress(name: "pins.a.put", _, _) = event { clock.advance(by: 20) }
            }) {
                try await test.runOnce()
            }
            #expect(summary.sent == 2)
            // The probe of the pass's start; the answer to the send renewed it.
            #expect(server.count("GET /v1/health") == 1)
        }
    }

    @Test func anEntitysNextOperationGoesInOrderAfterTheAcknowledgedOne() async throws {
        let test = try await Self.make()
        try await Self.enqueue("a", ["announce": "1"], in: test)
        try await test.runtime.commit { _, queue in
            queue.enqueue(try NewOperation(plugin: "pins", kind: "upload", entity: "a", payload: ["announce": "2"]))
        }
        let sent = Mutex<[String]>([])
        let summary = try await test.runtime.events.observing({ event in
            if case .transferProgress(let name, _, _) = event { sent.withLock { $0.append(name) } }
        }) {
            try await test.runOnce()
        }
        #expect(summary.sent == 2)
        #expect(sent.withLock { $0 } == ["pins.a.put", "pins.a.upload"])
        #expect(try await test.operations().isEmpty)
    }
}
