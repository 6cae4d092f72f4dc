extension FerryRuntime {
    /// The policy in force for `kind` of `plugin`: its defaults with the overrides of
    /// `config.yaml` (retry, conflict, coalescing, requirement, delivery).
    public func policy(plugin: String, kind: String) -> OperationPolicy {
        outbox.policies.policy(plugin: plugin, kind: kind)
    }
}
