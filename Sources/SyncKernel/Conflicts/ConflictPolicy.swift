/// What the kernel does when the remote answers a write with 409 or 412.
public enum ConflictPolicy: String, Codable, Sendable, CaseIterable {
    /// The newer write wins: the remote's `updated_at` against the operation's creation time.
    /// When the remote carries no time, the local write (the latest the user made) wins.
    case lastWriteWins = "last_write_wins"
    /// The remote state is adopted locally; the operation is retired.
    case serverWins = "server_wins"
    /// The operation is sent again without its precondition.
    case clientWins = "client_wins"
    /// An exactly-once create: a 409 means someone else won. Adopt the remote state,
    /// retire the operation and report it.
    case firstWriteWins = "first_write_wins"
    /// The plugin merges base, local and remote; the result is sent.
    case merge
    /// Kept in the conflicts table until someone runs `ferry conflicts resolve`.
    case manual
}
