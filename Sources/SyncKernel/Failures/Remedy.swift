/// What a person can do next about a message, named by the front end in its own words:
/// the `ferry` command names its subcommands, an app shows a button. The kernel never
/// names a command itself.
public enum Remedy: Sendable, Equatable, Codable {
    /// Sign in (again).
    case signIn
    /// The remote wants a signed-in user and no enabled plugin signs in: enable one (the
    /// auth plugin), then sign in.
    case enableSignIn
    /// Look at the queued operations to find the right id.
    case listQueue
    /// Send operation `operation` (its short id) again, or drop it.
    case retryOrDiscard(operation: String)
    /// Look at the conflicts to find the right id.
    case listConflicts
    /// Resolve the open conflicts.
    case resolveConflicts
}
