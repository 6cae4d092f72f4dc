import Foundation

/// The kernel's part of `config.yaml`: everything but the `plugins` section.
public struct KernelSettings: Codable, Sendable {
    /// Where the store and the plugins' files live, relative to the config file.
    public var dataDir: String = ".ferry"
    /// `embedded` (an in-process reference server on loopback) or the base URL of the remote.
    public var server: String = "embedded"
    /// How far a local write survives: `normal` (a crash) or `full` (a power loss).
    public var durability: Durability = .normal
    public var logLevel: String = "info"
    public var network: NetworkSettings = .init()
    public var sync: SyncSettings = .init()
    public var retry: RetryOverride = .init()

    public init() {}

    enum CodingKeys: String, CodingKey {
        case dataDir = "data_dir"
        case server, durability
        case logLevel = "log_level"
        case network, sync, retry
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        dataDir = try container.decodeIfPresent(String.self, forKey: .dataDir) ?? dataDir
        server = try container.decodeIfPresent(String.self, forKey: .server) ?? server
        durability = try container.decodeIfPresent(Durability.self, forKey: .durability) ?? durability
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel) ?? logLevel
        network = try container.decodeIfPresent(NetworkSettings.self, forKey: .network) ?? network
        sync = try container.decodeIfPresent(SyncSettings.self, forKey: .sync) ?? sync
        retry = try container.decodeIfPresent(RetryOverride.self, forKey: .retry) ?? retry
    }
}

/// `network:` in `config.yaml`.
public struct NetworkSettings: Codable, Sendable {
    /// `auto` (probe), or pin the state at start: `online`, `offline`.
    public var mode: NetworkOverride = .auto
    /// How long a probe result is trusted.
    public var probeInterval: Seconds = 15

    public init() {}

    enum CodingKeys: String, CodingKey {
        case mode
        case probeInterval = "probe_interval"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decodeIfPresent(NetworkOverride.self, forKey: .mode) ?? mode
        probeInterval = try container.decodeIfPresent(Seconds.self, forKey: .probeInterval) ?? probeInterval
    }
}

/// `sync:` in `config.yaml`.
public struct SyncSettings: Codable, Sendable {
    /// Operations on different entities sent at once.
    public var concurrency: Int = 8
    /// How often an idle runner looks for work queued by other processes.
    public var pollInterval: Seconds = 0.5
    /// How often each plugin pulls remote changes.
    public var pullEvery: Seconds = 300
    /// How long one request may take.
    public var requestTimeout: Seconds = 30
    /// Operations of one plugin sent together in one request to `batchPath`; 1 sends each alone.
    public var batchSize: Int = 100
    /// The remote's batch endpoint (docs/protocol.md, "Batch"), below each plugin's remote.
    public var batchPath: String = "/v1/batch"
    /// The largest answer read from a remote (a batch's answer included); a larger one is
    /// a failed request, never read whole into memory.
    public var maxAnswer: ByteCount = .megabytes(32)

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

/// A partial retry policy from `config.yaml`; unset fields keep the value below them.
public struct RetryOverride: Codable, Sendable, Equatable {
    public var baseDelay: Seconds?
    public var multiplier: Double?
    public var maxDelay: Seconds?
    public var maxAttempts: Int?
    public var jitter: Double?

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
    public var delivery: Delivery?
    public var requires: NetworkRequirement?
    public var coalesce: CoalesceMode?
    public var cancels: [String]?
    public var supersedes: [String]?
    public var conflict: ConflictPolicy?
    public var retry: RetryOverride?

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
    public var enabled: Bool = true
    /// A base URL for this plugin only; default: the top-level `server`.
    public var remote: String?
    public var retry: RetryOverride?
    public var pullEvery: Seconds?
    public var operations: [String: OperationOverride] = [:]

    public init() {}

    static let keys: Set<String> = ["enabled", "remote", "retry", "pull_every", "operations"]

    enum CodingKeys: String, CodingKey {
        case enabled, remote, retry
        case pullEvery = "pull_every"
        case operations
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? enabled
        remote = try container.decodeIfPresent(String.self, forKey: .remote)
        retry = try container.decodeIfPresent(RetryOverride.self, forKey: .retry)
        pullEvery = try container.decodeIfPresent(Seconds.self, forKey: .pullEvery)
        operations = try container.decodeIfPresent([String: OperationOverride].self, forKey: .operations) ?? [:]
    }
}
