import Foundation

/// The kernel's part of `config.yaml`: everything but the `plugins` and `domains` sections.
public struct KernelSettings: Codable, Sendable {
    /// Where the store and the plugins' files live, relative to the config file.
    public var dataDir: String = ".ferry"
    /// `embedded` (an in-process reference server on loopback) or the base URL of the remote.
    public var server: String = "embedded"
    /// How far a local write survives: `normal` (a crash) or `full` (a power loss).
    public var durability: Durability = .normal
    /// The name of the lowest log level written (`trace`, `debug`, `info`, `notice`,
    /// `warning`, `error`, `critical`); the executable that sets up logging checks it.
    /// By default only warnings and errors, which a command prints as plain sentences.
    public var logLevel: String = "warning"
    /// `network:`: how the kernel decides whether the remote can be reached.
    public var network: NetworkSettings = .init()
    /// `sync:`: how the runner sends, batches and pulls.
    public var sync: SyncSettings = .init()
    /// `read_cache:`: the memory tier in front of SQLite, and how watchers poll.
    public var readCache: ReadCacheSettings = .init()
    /// The top-level `retry:`: the default backoff of every operation. A plugin section and
    /// an operation each override the fields they set on top of it.
    public var retry: RetryOverride = .init()
    /// `status:`: where a running runner serves its live view. The kernel only reads the
    /// keys; the front end that serves the view (`ferry run`) checks what they mean.
    public var status: StatusSettings = .init()

    /// Creates the defaults, as an empty `config.yaml` gives them.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case dataDir = "data_dir"
        case server, durability
        case logLevel = "log_level"
        case network, sync, retry, status
        case readCache = "read_cache"
    }

    /// Decodes the section; a key that is absent keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        dataDir = try container.decodeIfPresent(String.self, forKey: .dataDir) ?? dataDir
        server = try container.decodeIfPresent(String.self, forKey: .server) ?? server
        durability = try container.decodeIfPresent(Durability.self, forKey: .durability) ?? durability
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel) ?? logLevel
        network = try container.decodeIfPresent(NetworkSettings.self, forKey: .network) ?? network
        sync = try container.decodeIfPresent(SyncSettings.self, forKey: .sync) ?? sync
        readCache = try container.decodeIfPresent(ReadCacheSettings.self, forKey: .readCache) ?? readCache
        retry = try container.decodeIfPresent(RetryOverride.self, forKey: .retry) ?? retry
        status = try container.decodeIfPresent(StatusSettings.self, forKey: .status) ?? status
    }
}

/// `status:` in `config.yaml`: the live view of a running runner, off unless `listen` is set.
public struct StatusSettings: Codable, Sendable, Equatable {
    /// `HOST:PORT` to serve the view on.
    public var listen: String?
    /// The bearer token every request must carry; required beyond loopback.
    public var token: String?

    /// Creates the defaults: off.
    public init() {}
}

/// `network:` in `config.yaml`.
public struct NetworkSettings: Codable, Sendable {
    /// `auto` probes; `online` or `offline` pin reachability when the store holds no
    /// `ferry network` setting yet (it is stored as that setting at start).
    public var mode: NetworkOverride = .auto
    /// How long a probe result is trusted; also the longest wait between the quicker probes
    /// made while the remote is unreachable and work waits for it.
    public var probeInterval: Seconds = 15
    /// How long a probe waits for the remote's answer before it takes the remote for
    /// unreachable: longer on a slow link (a satellite's), where the remote is there but
    /// answers late.
    public var probeTimeout: Seconds = 3

    /// Creates the defaults: `auto`, a 15 second probe interval, a 3 second probe timeout.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case mode
        case probeInterval = "probe_interval"
        case probeTimeout = "probe_timeout"
    }

    /// Decodes the section; a key that is absent keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decodeIfPresent(NetworkOverride.self, forKey: .mode) ?? mode
        probeInterval = try container.decodeIfPresent(Seconds.self, forKey: .probeInterval) ?? probeInterval
        probeTimeout = try container.decodeIfPresent(Seconds.self, forKey: .probeTimeout) ?? probeTimeout
    }
}

/// `sync:` in `config.yaml`.
public struct SyncSettings: Codable, Sendable {
    /// How many deliveries (one operation, or one batch of one plugin's operations) are in
    /// flight at once, 1 to 256; operations on one entity still go one at a time, in order.
    public var concurrency: Int = 8
    /// How often an idle runner looks for work queued by other processes, 10 ms to 60 s.
    public var pollInterval: Seconds = 0.5
    /// How often each plugin pulls remote changes, unless its section sets `pull_every`.
    public var pullEvery: Seconds = 300
    /// How long one request may take.
    public var requestTimeout: Seconds = 30
    /// Operations of one plugin sent together in one request to `batchPath`; 1 sends each alone.
    public var batchSize: Int = 100
    /// The remote's batch endpoint (docs/protocol.md, "Batch"), below each plugin's remote.
    public var batchPath: String = "/v1/batch"
    /// The largest answer read from a remote (a batch's answer included), 64 KiB to 4 GiB;
    /// a larger one is a failed request, never read whole into memory: the operation becomes
    /// a dead letter whose reason names this key, and a batch sends its operations again alone.
    public var maxAnswer: ByteCount = .megabytes(32)

    /// Creates the defaults (docs/configuration.md lists them).
    public init() {}

    enum CodingKeys: String, CodingKey {
        case concurrency
        case pollInterval = "poll_interval"
        case pullEvery = "pull_every"
        case requestTimeout = "request_timeout"
        case batchSize = "batch_size"
        case batchPath = "batch_path"
        case maxAnswer = "max_answer"
    }

    /// Decodes the section; a key that is absent keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        concurrency = try container.decodeIfPresent(Int.self, forKey: .concurrency) ?? concurrency
        pollInterval = try container.decodeIfPresent(Seconds.self, forKey: .pollInterval) ?? pollInterval
        pullEvery = try container.decodeIfPresent(Seconds.self, forKey: .pullEvery) ?? pullEvery
        requestTimeout = try container.decodeIfPresent(Seconds.self, forKey: .requestTimeout) ?? requestTimeout
        batchSize = try container.decodeIfPresent(Int.self, forKey: .batchSize) ?? batchSize
        batchPath = try container.decodeIfPresent(String.self, forKey: .batchPath) ?? batchPath
        maxAnswer = try container.decodeIfPresent(ByteCount.self, forKey: .maxAnswer) ?? maxAnswer
    }
}

/// `read_cache:` in `config.yaml`.
public struct ReadCacheSettings: Codable, Sendable {
    /// Read results kept in memory, 0 to 1,000,000; 0 sends every read to SQLite.
    public var maxEntries: Int = 1000
    /// How often a watched read looks for writes by other processes, 5 ms to 10 s.
    public var watchInterval: Seconds = 0.02

    /// Creates the defaults: 1,000 results, 20 ms.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case maxEntries = "max_entries"
        case watchInterval = "watch_interval"
    }

    /// Decodes the section; a key that is absent keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxEntries = try container.decodeIfPresent(Int.self, forKey: .maxEntries) ?? maxEntries
        watchInterval = try container.decodeIfPresent(Seconds.self, forKey: .watchInterval) ?? watchInterval
    }
}

/// A partial retry policy from `config.yaml`; unset fields keep the value below them.
///
/// The levels apply in order: the plugin's default for the operation, the top-level
/// `retry:`, the plugin section's `retry:`, then the operation's own `retry:`.
///
/// ```yaml
/// retry: {base_delay: 2s, max_attempts: 5}
/// ```
public struct RetryOverride: Codable, Sendable, Equatable {
    /// `base_delay`: the delay after the first failed attempt.
    public var baseDelay: Seconds?
    /// `multiplier`: each further delay is the previous one times this (at least 1).
    public var multiplier: Double?
    /// `max_delay`: no backoff is longer (a `Retry-After` may ask for more).
    public var maxDelay: Seconds?
    /// `max_attempts`: failed attempts that reached the remote before a dead letter.
    public var maxAttempts: Int?
    /// `jitter`: the share of each delay that is randomised, 0 to 1.
    public var jitter: Double?

    /// Creates an override that changes nothing.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case baseDelay = "base_delay"
        case multiplier
        case maxDelay = "max_delay"
        case maxAttempts = "max_attempts"
        case jitter
    }

    /// `policy` with this override's fields applied.
    public func applied(to policy: RetryPolicy) -> RetryPolicy {
        var result = policy
        if let baseDelay { result.baseDelay = baseDelay.value }
        if let multiplier { result.multiplier = multiplier }
        if let maxDelay { result.maxDelay = maxDelay.value }
        if let maxAttempts { result.maxAttempts = maxAttempts }
        if let jitter { result.jitter = jitter }
        return result
    }
}

/// One operation's overrides under `plugins.<name>.operations.<kind>`.
public struct OperationOverride: Codable, Sendable, Equatable {
    /// `delivery`: `queued` or `online_only`.
    public var delivery: Delivery?
    /// `requires`: the network the operation may be sent over (`network` or `unmetered`).
    public var requires: NetworkRequirement?
    /// `coalesce`: how a new write folds into an unsent one of the same entity.
    public var coalesce: CoalesceMode?
    /// `cancels`: kinds whose unsent operation and this one cancel out; replaces the plugin's list.
    public var cancels: [String]?
    /// `supersedes`: kinds whose unsent operations this one drops; replaces the plugin's list.
    public var supersedes: [String]?
    /// `conflict`: what happens when the remote answers 409 or 412.
    public var conflict: ConflictPolicy?
    /// `retry`: the operation's own backoff, over the plugin section's.
    public var retry: RetryOverride?

    /// Creates an override that changes nothing.
    public init() {}

    /// `policy` with this override's fields applied.
    public func applied(to policy: OperationPolicy) -> OperationPolicy {
        var result = policy
        if let delivery { result.delivery = delivery }
        if let requires { result.requirement = requires }
        if let coalesce { result.coalesce.mode = coalesce }
        if let cancels { result.coalesce.cancels = Set(cancels) }
        if let supersedes { result.coalesce.supersedes = Set(supersedes) }
        if let conflict { result.conflict = conflict }
        if let retry { result.retry = retry.applied(to: result.retry) }
        return result
    }
}

/// The kernel's keys of a plugin section; every other key belongs to the plugin.
public struct PluginKernelSettings: Codable, Sendable {
    /// `enabled`: whether the plugin runs; a section that is present runs unless this is
    /// `false`.
    public var enabled: Bool = true
    /// A base URL for this plugin only; default: the top-level `server`.
    public var remote: String?
    /// `retry`: the backoff of the plugin's operations, over the top-level `retry:`.
    public var retry: RetryOverride?
    /// `pull_every`: how often this plugin pulls; default: `sync.pull_every`.
    public var pullEvery: Seconds?
    /// `operations`: overrides of the policies of the kinds the plugin sends, by kind; a kind the
    /// plugin does not send is an error.
    public var operations: [String: OperationOverride] = [:]

    /// Creates the settings of a section that sets none of the kernel's keys.
    public init() {}

    static let keys: Set<String> = ["enabled", "remote", "retry", "pull_every", "operations"]

    enum CodingKeys: String, CodingKey {
        case enabled, remote, retry
        case pullEvery = "pull_every"
        case operations
    }

    /// Decodes the kernel's keys; a key that is absent keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? enabled
        remote = try container.decodeIfPresent(String.self, forKey: .remote)
        retry = try container.decodeIfPresent(RetryOverride.self, forKey: .retry)
        pullEvery = try container.decodeIfPresent(Seconds.self, forKey: .pullEvery)
        operations = try container.decodeIfPresent([String: OperationOverride].self, forKey: .operations) ?? [:]
    }
}
