import Foundation
import SyncKernelTesting
import Testing

@testable import SyncKernel

/// A plugin whose sends are transfers (`SyncPlugin.sendsAlone`) has each operation leased
/// in a delivery of its own; the others still go together in batches.
@Suite("Engine: plugins whose operations go alone")
struct SendsAloneTests {
    /// Downloads of a kind, each a transfer of its own.
    struct Transfers: SyncPlugin {
        static let name = "transfers"
        static let operations = ["fetch": OperationPolicy()]
        static let migrations: [StoreMigration] = []
        static let sendsAlone = true

        init(settings: EmptySettings, context: PluginContext) {}

        func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome { .delivered }
    }

    @Test func eachOperationOfAPluginThatSendsAloneIsADeliveryOfItsOwn() async throws {
        let test = try await TestRuntime.make(
            server: "http://remote.test",
            yaml: "plugins:\n  items: {}\n  transfers: {}\n",
            plugins: [TestPlugin.self, Transfers.self]
        )
        test.connectivity.set(.online)
        _ = try await test.runtime.commit { _, queue in
            for key in ["a", "b"] {
                queue.enqueue(NewOperation(plugin: "items", kind: "put", entity: key, payloadJSON: Data("{}".utf8)))
            }
            for key in ["x", "y", "z"] {
                queue.enqueue(
                    NewOperation(plugin: "transfers", kind: "fetch", entity: key, payloadJSON: Data("{}".utf8))
                )
            }
        }
        let deliveries = try await SyncEngine(runtime: test.runtime).leaseDue(slots: 4)
        #expect(deliveries.map { $0.map(\.entity) } == [["a", "b"], ["x"], ["y"], ["z"]])
    }
}
