import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

/// A plugin whose pull decides work to queue: the pull's context commits it, as the
/// runtime's `commit` would. A context built by hand (as for `init`) cannot write.
private struct FollowUpPlugin: SyncPlugin {
    static let name = "followup"
    static let operations = ["ping": OperationPolicy()]
    init(settings: EmptySettings, context: PluginContext) {}

    func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome { .delivered }

    func pull(_ context: PluginContext) async throws -> PullSummary {
        try await context.commit { _, queue in
            queue.enqueue(try NewOperation(plugin: Self.name, kind: "ping", entity: "e", payload: ["from": "pull"]))
        }
        return PullSummary()
    }
}

@Suite("Plugin context: the local write")
struct ContextCommitTests {
    @Test func aPullQueuesWorkThroughItsContextAndInitCannot() async throws {
        let test = try await TestRuntime.make(
            server: "http://127.0.0.1:9",
            yaml: "plugins:\n  followup: {}\n",
            plugins: [FollowUpPlugin.self],
            connectivity: ManualConnectivity(.offline)
        )
        _ = try await test.runtime.pull("followup")
        let queued = try await test.operations()
        #expect(queued.map(\.kind) == ["ping"] && queued.first?.entity == "e")

        let byHand = PluginContext(
            name: "followup",
            store: test.runtime.store,
            transport: HTTPTransport(baseURL: "http://127.0.0.1:9"),
            directory: FileManager.default.temporaryDirectory,
            settings: test.runtime.settings,
            events: test.runtime.events,
            clock: test.clock,
            logger: test.runtime.logger
        )
        let error = await #expect(throws: FerryError.self) { try await byHand.commit { _, _ in } }
        #expect(error?.code == .plugin)
    }
}
