/// What became of a family write: done on the remote now, or queued (when `config.yaml`
/// switched its operation to `delivery: queued`) with the local placeholder or value.
public struct FamilyWrite<Value: Sendable>: Sendable {
    /// The remote's entity, or the local placeholder when queued.
    public var value: Value
    /// True when the write waits in the outbox for `ferry run`.
    public var queued: Bool

    /// A write's outcome.
    public init(value: Value, queued: Bool) {
        self.value = value
        self.queued = queued
    }
}

extension FamilyWrite: Encodable where Value: Encodable {}
