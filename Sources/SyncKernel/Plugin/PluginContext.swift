import Foundation
import GRDB
import Logging

/// Everything a plugin gets from the kernel, in one value: its store, its transport, its
/// folder for files, the settings table, the event stream, the clock and a logger.
///
/// The same context comes to `init(settings:context:)`, to `pull(_:)` and (bound to the
/// operation, so that its writes carry the operation's `Idempotency-Key`) to `send`.
public struct PluginContext: Sendable {
    /// The plugin's name (or a declared domain's), the key of its section in `config.yaml`.
    public let name: String
    /// The store the plugin's tables live in, shared with the kernel's outbox.
    public let store: FerryStore
    /// The plugin's transport, pointed at its remote, with the runner's credentials.
    public private(set) var transport: HTTPTransport
    /// A folder of the plugin's own for files (`<data_dir>/<plugin>`).
    public let directory: URL
    /// The kernel's settings table, shared by every process on the store.
    public let settings: SettingsStore
    /// The kernel's event stream, to emit on or subscribe to.
    public let events: EventBus
    /// The kernel's clock: the plugin asks it for the time so that tests control it.
    public let clock: any KernelClock
    /// The runner's logger.
    public let logger: Logger
    /// The plugin the runtime built with this context, for the rebase of a pulled change
    /// (`SyncPlugin.reapply`); nil in the context given to `init(settings:context:)`.
    var plugin: (any SyncPlugin)?
    /// The runtime's local write (`commit`); nil in the context given to `init(settings:context:)`.
    var writes: LocalWrites?
    /// The runtime's connectivity, as the engine sees it (with `ferry network` pins); nil in
    /// the context given to `init(settings:context:)`.
    public internal(set) var connectivity: (any ConnectivityMonitor)?

    /// Creates a context; the runtime builds one per plugin, and tests may build their own.
    public init(
        name: String,
        store: FerryStore,
        transport: HTTPTransport,
        directory: URL,
        settings: SettingsStore,
        events: EventBus,
        clock: any KernelClock,
        logger: Logger
    ) {
        self.name = name
        self.store = store
        self.transport = transport
        self.directory = directory
        self.settings = settings
        self.events = events
        self.clock = clock
        self.logger = logger
    }

    /// The local write, as `FerryRuntime.commit`: for work a plugin decides while it pulls
    /// or sends (the downloads a refresh makes necessary). Only the contexts given to
    /// `pull` and `send` can write; the one given to `init(settings:context:)` cannot.
    @discardableResult
    public func commit<Value: Sendable>(
        _ write: @escaping @Sendable (Database, inout OperationsToQueue) throws -> Value
    ) async throws -> Committed<Value> {
        guard let writes else {
            throw FerryError(
                .plugin,
                "\(name): a local write needs the context given to pull or send, not the one given to init"
            )
        }
        return try await writes.commit(write)
    }

    /// The context of one operation's send: its transport (the plugin's, or `transport`
    /// when the engine batches) gives the operation's writes their idempotency keys.
    func sending(_ operation: QueuedOperation, through transport: HTTPTransport? = nil) -> PluginContext {
        var context = self
        context.transport = (transport ?? self.transport).sending(operation)
        return context
    }
}
