/// What became of a family write: done on the remote now, or queued (when `config.yaml`
/// switched its operation to `delivery: queued`) with the local placeholder or value.
public struct FamilyWrite<Value: Sendable>: Sendable {
    public var value: Value
    public var queued: Bool

    public init(value: Value, queued: Bool) {
        self.value = value
        self.queued = queued
    }
}

extension FamilyWrite: Encodable where Value: Encodable {}
