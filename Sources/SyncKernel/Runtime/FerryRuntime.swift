import Foundation
import GRDB
import Logging

/// Everything a runner or a command needs, opened once: configuration, store,
/// plugins, transports, connectivity, events and the clock.
///
/// ```swift
/// let configuration = try FerryConfiguration.load(path: "config.yaml")
/// let runtime = try await FerryRuntime.open(configuration: configuration, pluginTypes: [NotesPlugin.self])
/// let notes = try runtime.plugin(NotesPlugin.self)
/// // ... work with `notes` and `runtime` ...
/// await runtime.shutdown()
/// ```
public final class FerryRuntime: Sendable {
    /// The configuration it was opened with.
    public let configuration: FerryConfiguration
    /// The database the plugins, the outbox and the settings share.
    public let store: FerryStore
    /// The memory tier in front of `store` that keyed cached reads share
    /// (`read_cache.max_entries`); `CachedReader(runtime:)` reads through it.
    public let readCache: ReadCache
    /// The enabled plugins and declared domains, with the policies of their operations.
    public let registry: PluginRegistry
    /// The queue of writes waiting for a remote, with the registry's policies.
    let outbox: Outbox
    /// The bus the engine, the plugins' contexts and the file caches given it emit to: what
    /// was queued, sent, retried, pulled or downloaded, as it happens.
    public let events: EventBus
    /// The clock of the runtime and its plugins (`Options.clock`).
    public let clock: any KernelClock
    /// A number in 0..<1 for each retry's jitter (`Options.random`).
    let random: @Sendable () -> Double
    /// How the operations of a delivery share its batch (`Options.batching`).
    let batching: Batching
    /// Whether the remotes can be reached: the probe of the configured remotes (or
    /// `Options.connectivity`), with the offline and metered overrides in `settings`
    /// applied on top.
    public let connectivity: any ConnectivityMonitor
    /// `connectivity` as the engine's leases use it: with the overrides they read in their
    /// own write (`ForcedConnectivity.current(under:)`).
    let forcedConnectivity: ForcedConnectivity
    /// The settings table every process of the runner shares, where the network overrides
    /// live; when `network.mode` is not `auto` and no reachability override is stored,
    /// opening the runtime stores it there.
    public let settings: SettingsStore
    /// The logger of the runtime, its transports and its plugins (`Options.logger`).
    public let logger: Logger
    /// The credentials every transport uses: it forwards to `Options.credentials`, or else
    /// to the first enabled plugin that provides credentials (the auth plugin).
    public var credentials: any CredentialProvider { broker }
    /// The broker behind `credentials`: the plugin that signs in (whose context's transport
    /// holds the broker in turn), or `Options.credentials`.
    private let broker: CredentialBroker
    /// Each plugin's (and declared domain's) context, by name.
    let contexts: [String: PluginContext]
    /// The local write of the runtime and of every context.
    let writes: LocalWrites
    /// What every request, probe and download of this runtime goes through: one HTTP
    /// client, or what the options put in its place.
    public let executor: any HTTPExecutor
    /// The executor the runtime created, which `shutdown()` closes.
    private let ownedExecutor: AsyncHTTPExecutor?

    /// How a runtime reaches the outside world; tests replace every part.
    public struct Options: Sendable {
        /// The clock of the runtime, its plugins and the probe (tests use `TestClock`).
        public var clock: any KernelClock = SystemClock()
        /// A number in 0..<1 each time a retry's delay is spread by `retry.jitter`; a
        /// simulation draws it from its seed so that a run can be replayed.
        public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
        /// Replaces the probe (tests use `ManualConnectivity`); the stored overrides still apply.
        public var connectivity: (any ConnectivityMonitor)?
        /// Where the probe reads which links are up and of what kind: Linux's
        /// `/sys/class/net`, or a folder laid out the same way (a simulation writes its
        /// devices' links there).
        public var networkInterfaces = "/sys/class/net"
        /// Turns the configured `server` (or a plugin's `remote`) into a base URL.
        public var resolveRemote: @Sendable (String) async throws -> String = { value in
            guard value != "embedded" else {
                throw FerryError(
                    .configuration,
                    "server: embedded needs a front end that starts the embedded server (the ferry command does); set server to a URL"
                )
            }
            return value
        }
        /// The logger the runtime, its transports and its plugins write to.
        public var logger = Logger(label: "ferry")
        /// Credentials to use instead of a plugin's (tests use `StaticCredentials`).
        public var credentials: (any CredentialProvider)?
        /// What puts requests on the wire (tests use `RecordingExecutor`); nil: an
        /// `AsyncHTTPExecutor` of the runtime's own, closed by `shutdown()`.
        public var executor: (any HTTPExecutor)?
        /// How the operations of a delivery share its batch: at once, the requests waiting
        /// at most 50 ms (real time) for an operation busy with something else; a
        /// simulation, whose time is virtual and whose seed must replay the same, sets
        /// `.inTurn`.
        public var batching: Batching = .atOnce(linger: .milliseconds(50))

        /// The defaults: the system clock, the probe, remotes used as configured (with
        /// `embedded` refused), the plugins' own credentials and an executor of the runtime's own.
        public init() {}
    }

    private init(
        configuration: FerryConfiguration,
        store: FerryStore,
        registry: PluginRegistry,
        events: EventBus,
        clock: any KernelClock,
        random: @escaping @Sendable () -> Double,
        batching: Batching,
        connectivity: ForcedConnectivity,
        logger: Logger,
        credentials: CredentialBroker,
        contexts: [String: PluginContext],
        executor: any HTTPExecutor,
        ownedExecutor: AsyncHTTPExecutor?
    ) {
        self.executor = executor
        self.ownedExecutor = ownedExecutor
        self.configuration = configuration
        self.store = store
        self.readCache = ReadCache(store: store, capacity: configuration.kernel.readCache.maxEntries)
        self.registry = registry
        let outbox = Outbox(policies: registry.policies)
        let writes = LocalWrites(store: store, outbox: outbox, events: events, clock: clock, credentials: credentials)
        self.outbox = outbox
        self.writes = writes
        self.events = events
        self.clock = clock
        self.random = random
        self.batching = batching
        self.connectivity = connectivity
        self.forcedConnectivity = connectivity
        self.settings = SettingsStore(store: store)
        self.logger = logger
        self.broker = credentials
        self.contexts = contexts.mapValues { context in
            var context = context
            context.writes = writes
            context.connectivity = connectivity
            return context
        }
    }

    /// Opens the store, migrates it, builds the enabled plugins of `pluginTypes` and connectivity.
    ///
    /// Each enabled plugin, and each domain declared in the configuration, gets a context
    /// whose transport points at its `remote` (or the configured `server`), shares the
    /// runtime's executor and credentials, and has `sync.request_timeout` and
    /// `sync.max_answer` as its limits.
    ///
    /// - Parameters:
    ///   - configuration: the loaded configuration; it says which plugins are enabled and
    ///     where the data directory is.
    ///   - pluginTypes: every plugin type the front end knows; those not enabled are skipped.
    ///   - options: how the runtime reaches the outside world; tests replace every part.
    ///   - existing: a store to use instead of `ferry.sqlite` in the data directory; it is
    ///     used as it is, so it must already have the enabled plugins' migrations.
    public static func open(
        configuration: FerryConfiguration,
        pluginTypes: [any SyncPlugin.Type],
        options: Options = Options(),
        store existing: FerryStore? = nil
    ) async throws -> FerryRuntime {
        let types = try PluginRegistry.enabledTypes(pluginTypes, in: configuration)
        var policies = try PluginRegistry.policies(for: types, in: configuration)
        let migrations = types.flatMap { $0.migrations }
        let store =
            try existing
            ?? FerryStore.open(
                at: configuration.dataDirectory.appendingPathComponent("ferry.sqlite").path,
                durability: configuration.kernel.durability,
                migrations: migrations
            )
        let broker = CredentialBroker()
        let events = EventBus()
        let timeout = configuration.kernel.sync.requestTimeout.value
        let resolver = RemoteResolver(resolve: options.resolveRemote)
        let owned: AsyncHTTPExecutor?
        let executor: any HTTPExecutor
        if let given = options.executor {
            (owned, executor) = (nil, given)
        } else {
            let created = AsyncHTTPExecutor()
            (owned, executor) = (created, created)
        }
        var contexts: [String: PluginContext] = [:]
        var remotes: Set<String> = []
        let settings = SettingsStore(store: store)
        /// The context of plugin or domain `name`, whose requests go to `remote`.
        func context(_ name: String, remote: String) -> PluginContext {
            let transport = HTTPTransport(
                baseURL: { try await resolver.url(for: remote) },
                credentials: broker,
                timeout: timeout,
                maxBodyBytes: Int(configuration.kernel.sync.maxAnswer.bytes),
                executor: executor,
                clock: options.clock,
                logger: options.logger
            )
            remotes.insert(remote)
            let context = PluginContext(
                name: name,
                store: store,
                transport: transport,
                directory: configuration.dataDirectory.appendingPathComponent(name),
                settings: settings,
                events: events,
                clock: options.clock,
                logger: options.logger
            )
            contexts[name] = context
            return context
        }
        var plugins: [any SyncPlugin] = []
        for type in types {
            let remote = configuration.plugins[type.name]?.kernel.remote ?? configuration.kernel.server
            plugins.append(try build(type, configuration: configuration, context: context(type.name, remote: remote)))
            contexts[type.name]?.plugin = plugins.last
        }
        for (name, declared) in configuration.domains.sorted(by: { $0.key < $1.key }) {
            let context = context(name, remote: declared.remote ?? configuration.kernel.server)
            let domain = DeclaredDomain(settings: declared, context: context)
            contexts[name]?.plugin = domain
            try PluginRegistry.register(domain, into: &policies, in: configuration)
            plugins.append(domain)
        }
        broker.install(options.credentials ?? plugins.lazy.compactMap { $0 as? any CredentialProvider }.first)
        let base =
            options.connectivity
            ?? ProbeConnectivity(
                remotes: { [remotes] in await resolver.urls(for: remotes) },
                interval: configuration.kernel.network.probeInterval.value,
                timeout: configuration.kernel.network.probeTimeout.value,
                interfaces: NetworkInterfaces(root: options.networkInterfaces),
                clock: options.clock,
                executor: executor
            )
        let mode = configuration.kernel.network.mode
        if mode != .auto {
            // `network.mode` is the pin a store starts with; `ferry network` changes it later.
            let key =
                [.metered, .unmetered].contains(mode)
                ? ForcedConnectivity.SettingsKey.metering : ForcedConnectivity.SettingsKey.reachability
            if try await store.readOnWriter({ db in try SettingsStore.text(for: key, in: db) }) == nil {
                try await settings.set(mode, for: key)
            }
        }
        let runtime = FerryRuntime(
            configuration: configuration,
            store: store,
            registry: PluginRegistry(plugins: plugins, policies: policies),
            events: events,
            clock: options.clock,
            random: options.random,
            batching: options.batching,
            connectivity: ForcedConnectivity(base: base, settings: settings),
            logger: options.logger,
            credentials: broker,
            contexts: contexts,
            executor: executor,
            ownedExecutor: owned
        )
        try await runtime.releaseConfigurationHolds()
        try await runtime.adoptLocalDataOfSignedInAccount()
        return runtime
    }

    /// Operations that waited for their plugin's configuration to change go again when it
    /// has (checked as the runtime opens, so the next `ferry run` after an edit sends them).
    private func releaseConfigurationHolds() async throws {
        // Read first: most runtimes open with nothing held, and take no write (nor compute
        // a fingerprint) for it.
        let holds = try await store.readOnWriter { db in try PluginState.configurationHolds(in: db) }
        guard !holds.isEmpty else { return }
        let current = Dictionary(uniqueKeysWithValues: registry.names.map { ($0, configuration.fingerprint(of: $0)) })
        guard holds.contains(where: { plugin, fingerprint in current[plugin].map { $0 != fingerprint } ?? false })
        else { return }
        let released = try await store.write { db in
            try PluginState.releaseConfigurationHolds(current: current, in: db)
        }
        for plugin in released {
            logger.info("\(plugin): its configuration changed; the operations that waited for it go again")
        }
    }

    private static func build<P: SyncPlugin>(
        _ type: P.Type,
        configuration: FerryConfiguration,
        context: PluginContext
    ) throws -> any SyncPlugin {
        let settings = try configuration.decodeSettings(P.Settings.self, plugin: P.name)
        return try P(settings: settings, context: context)
    }

    /// The transport of `plugin` (or of a declared domain), or nil when none by that name
    /// is enabled.
    public func transport(for plugin: String) -> HTTPTransport? {
        contexts[plugin]?.transport
    }

    /// The broker and the plugin that signs in hold each other (through the plugin's
    /// transport): without this, neither, nor the plugin's context, would ever be freed.
    deinit {
        broker.install(nil)
    }

    /// Closes the HTTP client the runtime created, once the requests in flight are done;
    /// call it when the runtime's work is over (a command's end, a runner's stop).
    public func shutdown() async {
        try? await ownedExecutor?.shutdown()
    }

    /// The context of `plugin` (or of a declared domain): what its send and pull get; nil
    /// when none by that name is enabled.
    public func context(for plugin: String) -> PluginContext? {
        contexts[plugin]
    }
}

/// Resolves configured remotes to URLs, remembering each answer.
actor RemoteResolver {
    private let resolve: @Sendable (String) async throws -> String
    private var resolved: [String: Task<String, any Error>] = [:]
    private var known: [String: String] = [:]

    init(resolve: @escaping @Sendable (String) async throws -> String) {
        self.resolve = resolve
    }

    /// The URL of `remote`, resolved once; concurrent callers share the same resolution.
    func url(for remote: String) async throws -> String {
        if let task = resolved[remote] { return try await task.value }
        let resolve = self.resolve
        let task = Task.apart { try await resolve(remote) }
        resolved[remote] = task
        do {
            let url = try await task.value
            known[remote] = url
            return url
        } catch {
            resolved[remote] = nil
            throw error
        }
    }

    /// The URLs to probe: only those already resolved or fixed (probing never starts an embedded server).
    func urls(for remotes: Set<String>) -> [String] {
        remotes.compactMap { known[$0] ?? ($0 == "embedded" ? nil : $0) }
    }
}

extension FerryRuntime {
    /// The enabled plugin of type `P`, for its commands; throws `FerryError(.configuration)`
    /// naming the key to add when it is not enabled.
    public func plugin<P: SyncPlugin>(_ type: P.Type) throws -> P {
        guard let plugin = registry.plugin(named: P.name) as? P else {
            throw FerryError(
                .configuration,
                "the \(P.name) plugin is not enabled; add `\(P.name): {enabled: true}` under plugins: in \(configuration.file)"
            )
        }
        return plugin
    }
}
