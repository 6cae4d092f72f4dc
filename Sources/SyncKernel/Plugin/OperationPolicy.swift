/// Everything the kernel needs to know about one kind of operation: how it is
/// delivered, what network it needs, how it coalesces, retries and resolves conflicts.
///
/// Plugins declare defaults in code; `config.yaml` can override each field.
public struct OperationPolicy: Sendable, Equatable {
    public var delivery: Delivery
    public var requirement: NetworkRequirement
    public var coalesce: CoalescePolicy
    public var conflict: ConflictPolicy
    public var retry: RetryPolicy

    public init(
        delivery: Delivery = .queued,
        requirement: NetworkRequirement = .network,
        coalesce: CoalescePolicy = .init(),
        conflict: ConflictPolicy = .lastWriteWins,
        retry: RetryPolicy = .standard
    ) {
        self.delivery = delivery
        self.requirement = requirement
        self.coalesce = coalesce
        self.conflict = conflict
        self.retry = retry
    }
}

/// The policies of every operation kind of every enabled plugin.
public struct PolicyBook: Sendable {
    private var policies: [String: [String: OperationPolicy]]

    public init(_ policies: [String: [String: OperationPolicy]] = [:]) {
        self.policies = policies
    }

    /// The policy of `kind` in `plugin`, or the default policy when none is declared.
    public func policy(plugin: String, kind: String) -> OperationPolicy {
        policies[plugin]?[kind] ?? OperationPolicy()
    }

    /// Whether `plugin` declares `kind`.
    public func declares(plugin: String, kind: String) -> Bool {
        policies[plugin]?[kind] != nil
    }

    public mutating func set(_ policy: OperationPolicy, plugin: String, kind: String) {
        policies[plugin, default: [:]][kind] = policy
    }
}
