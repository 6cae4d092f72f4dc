import Foundation
import Logging

/// What a plugin gets from the kernel when it is built: its store, its transport,
/// its folder, the event stream, the clock and a logger.
public struct PluginContext: Sendable {
    public let name: String
    public let store: FerryStore
    /// The plugin's transport, pointed at its remote, with the runner's credentials.
    public let transport: HTTPTransport
    /// A folder of the plugin's own for files (`<data_dir>/<plugin>`).
    public let directory: URL
    public let events: EventBus
    public let clock: any KernelClock
    public let logger: Logger

    public init(
        name: String,
        store: FerryStore,
        transport: HTTPTransport,
        directory: URL,
        events: EventBus,
        clock: any KernelClock,
        logger: Logger
    ) {
        self.name = name
        self.store = store
        self.transport = transport
        self.directory = directory
        self.events = events
        self.clock = clock
        self.logger = logger
    }
}

/// What a plugin gets while sending one operation.
public struct SendContext: Sendable {
    /// The plugin's transport for this operation: its writes to the remote carry the
    /// operation's `Idempotency-Key` (the kernel sets it; a plugin never does).
    public let transport: HTTPTransport
    public let store: FerryStore
    public let clock: any KernelClock
    public let logger: Logger

    init(operation: QueuedOperation, transport: HTTPTransport, store: FerryStore, clock: any KernelClock, logger: Logger) {
        self.transport = transport.sending(operation)
        self.store = store
        self.clock = clock
        self.logger = logger
    }
}
