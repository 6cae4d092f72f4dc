import Foundation
import GRDB
import SyncKernel

/// Builds runtimes for tests: an in-memory store, a test clock, manual connectivity.
public struct TestRuntime: Sendable {
    public let runtime: FerryRuntime
    public let clock: TestClock
    public let connectivity: ManualConnectivity

    /// A runtime whose plugins talk to `server`; `yaml` is the configuration (its
    /// `server:` is replaced by `server`). `monitor`, when given, replaces `connectivity`.
    public static func make(
        server: String,
        yaml: String = "plugins:\n  items: {}\n",
        plugins: [any SyncPlugin.Type] = [TestPlugin.self],
        clock: TestClock = TestClock(),
        connectivity: ManualConnectivity = ManualConnectivity(),
        monitor: (any ConnectivityMonitor)? = nil,
        credentials: (any CredentialProvider)? = nil,
        executor: (any HTTPExecutor)? = nil,
        store: FerryStore? = nil
    ) async throws -> TestRuntime {
        var configuration = try FerryConfiguration.parse(yaml, file: "test.yaml")
        configuration.kernel.server = server
        var options = FerryRuntime.Options()
        options.clock = clock
        options.connectivity = monitor ?? connectivity
        options.credentials = credentials
        if let executor { options.executor = executor }
        let store = try store ?? FerryStore.inMemory(migrations: plugins.flatMap { $0.migrations })
        let runtime = try await FerryRuntime.open(
            configuration: configuration,
            pluginTypes: plugins,
            options: options,
            store: store
        )
        return TestRuntime(runtime: runtime, clock: clock, connectivity: connectivity)
    }

    /// A pass of the runner: it sends every due operation first (each plugin's in
    /// batches of `sync.batch_size` through `POST /v1/batch`; one due operation goes as its
    /// own request), then pulls every plugin, then sends what the pull made due.
    @discardableResult
    public func runOnce() async throws -> RunSummary {
        try await SyncEngine(runtime: runtime).runOnce()
    }

    /// Pulls every enabled plugin (and declared domain) once, sending nothing.
    @discardableResult
    public func pull() async throws -> [String: PullSummary] {
        var summaries: [String: PullSummary] = [:]
        for name in runtime.registry.names { summaries[name] = try await runtime.pull(name) }
        return summaries
    }

    /// Makes `plugin`'s changes-feed cursors look as if an older build had stored them with
    /// `layout`: the store a plugin finds after an update that changed its cache's layout
    /// (`PluginContext.follow(_:cursor:pageSize:layout:apply:sweep:)`).
    public func storeCursors(ofOlderLayout layout: String, plugin: String) async throws {
        try await runtime.store.write { db in
            try db.cachedStatement(sql: "UPDATE kernel_cursors SET layout = ? WHERE plugin = ?")
                .execute(arguments: [layout, plugin])
        }
    }

    /// The layouts `plugin`'s changes-feed cursors were stored with, by cursor name.
    public func cursorLayouts(plugin: String) async throws -> [String: String?] {
        try await runtime.store.read { db in
            var layouts: [String: String?] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(sql: "SELECT name, layout FROM kernel_cursors WHERE plugin = ? AND name != ?"),
                arguments: [plugin, SyncCursors.unpulled]
            ) {
                layouts[row["name"]] = .some(row["layout"])
            }
            return layouts
        }
    }

    /// Every operation in the outbox, oldest first.
    public func operations() async throws -> [QueuedOperation] {
        try await runtime.store.read { db in
            try QueuedOperation.fetchAll(db.cachedStatement(sql: "SELECT * FROM kernel_operations ORDER BY seq"))
        }
    }
}
