/// Everything the kernel needs to know about one kind of operation: how it is
/// delivered, what network it needs, how it coalesces, retries and resolves conflicts.
///
/// Plugins declare defaults in code; `config.yaml` can override each field.
public struct OperationPolicy: Sendable, Equatable {
    /// Queued (the default) or online-only.
    public var delivery: Delivery
    /// The network it may be sent over: any (the default) or an unmetered one.
    public var requirement: NetworkRequirement
    /// How a new write folds into an unsent one of the same entity; by default it does not.
    public var coalesce: CoalescePolicy
    /// What a 409 or 412 leads to; `last_write_wins` by default.
    public var conflict: ConflictPolicy
    /// The backoff and the attempts allowed; `RetryPolicy.standard` by default.
    public var retry: RetryPolicy

    /// Creates a policy; every field has the kernel's default.
    ///
    /// ```swift
    /// OperationPolicy(coalesce: .init(mode: .replace), conflict: .serverWins)
    /// ```
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
struct PolicyBook: Sendable {
    private var policies: [String: [String: OperationPolicy]]

    /// Creates a book from policies by plugin, then by kind.
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

    /// Sets the policy of `kind` in `plugin`, replacing any before it.
    public mutating func set(_ policy: OperationPolicy, plugin: String, kind: String) {
        policies[plugin, default: [:]][kind] = policy
    }
}
