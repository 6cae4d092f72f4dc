/// What the kernel does when the remote answers a write with 409 or 412.
///
/// Every conflict is recorded in the conflicts table (`ConflictStore`), settled or not. An
/// outcome that sends the write again spends an attempt, so a write that keeps conflicting
/// becomes a dead letter after `RetryPolicy.maxAttempts`.
public enum ConflictPolicy: String, Codable, Sendable, CaseIterable {
    /// The newer write wins: the remote's `updated_at` against the operation's creation time.
    /// When the remote carries no time, the local write (the latest the user made) wins; a
    /// remote deletion (its current entity is `null`) wins, since it ends the entity.
    case lastWriteWins = "last_write_wins"
    /// The remote state is adopted locally; the operation is retired.
    case serverWins = "server_wins"
    /// The operation is sent again without its precondition, under a new idempotency key.
    case clientWins = "client_wins"
    /// An exactly-once create: a 409 means someone else won. Adopt the remote state,
    /// retire the operation and report it.
    case firstWriteWins = "first_write_wins"
    /// The plugin merges base, local and remote (`SyncPlugin.merge`); the result is sent with
    /// the remote state as its new base. When the remote sent no entity, or the merge throws,
    /// the conflict waits for a person as with `manual`.
    case merge
    /// Kept in the conflicts table, and the operation out of the queue, until a person
    /// settles it (`FerryRuntime.resolveConflict(id:keepLocal:)`).
    case manual
}
