/// Thrown by a plugin's `send` when the operation refers to another entity that has not
/// reached the remote yet (a vote on a round created offline).
///
/// The kernel keeps the operation waiting, without spending an attempt, until the other
/// entity's operations are gone from the outbox (delivered, and its local id remapped in
/// this operation's payload); then it goes. If that entity has no operation left to wait
/// for (it was discarded), this one becomes a dead letter that says so; while that
/// entity's operation is a dead letter, `ferry queue show` says this one waits for it.
public struct WaitsForEntity: Error, Sendable, CustomStringConvertible {
    /// The entity key (of the same plugin) this operation waits for.
    public let entity: String
    /// What a person reads in the queue: what is waited for and why.
    public let reason: String

    /// Says that the operation waits for `entity` (a key of the same plugin), with the
    /// reason a person reads.
    public init(entity: String, reason: String) {
        self.entity = entity
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
