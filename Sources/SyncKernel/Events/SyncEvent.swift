import Foundation

/// Something the kernel did or saw; the CLI draws these, an app binds its UI to them.
public enum SyncEvent: Sendable, Equatable {
    /// A local write queued an operation (`FerryRuntime.commit`): stored, folded into an unsent
    /// one, or cancelled out, as `result` says.
    case enqueued(plugin: String, kind: String, entity: String, result: EnqueueResult)
    /// The remote accepted a queued operation; its outcome is applied and it left the outbox.
    case sent(plugin: String, kind: String, entity: String, operation: UUID)
    /// A send failed in a way that may pass: the operation goes again at `at`, having spent
    /// `attempts` attempts.
    case retrying(plugin: String, kind: String, operation: UUID, attempts: Int, at: Date, reason: String)
    /// A send got no answer: the operation waits for connectivity, spending no attempt.
    case waitingForConnectivity(plugin: String, operation: UUID, reason: String)
    /// An operation became a dead letter: it stays in the outbox, blocking only its entity.
    case dead(plugin: String, kind: String, operation: UUID, reason: String)
    /// The remote answered a write with 409 or 412; the report says what the policy decided
    /// (`open` when it waits for a person).
    case conflict(ConflictReport)
    /// Reachability or the link changed, as the engine saw it before choosing work.
    case connectivity(ConnectivityState)
    /// The remote refused the credentials and no refresh cured it: the plugin's queue holds
    /// until a credential other than the refused one appears.
    case needsLogin(plugin: String, reason: String)
    /// A queue held for a login resumed: a credential other than the refused one appeared.
    case resumedAfterLogin(plugin: String)
    /// A plugin's pull finished; the summary counts what it applied.
    case pulled(plugin: String, summary: PullSummary)
    /// A pull failed for a reason other than no answer or a refused credential.
    case pullFailed(plugin: String, reason: String)
    /// The remote no longer knew the plugin's cursor: its feed is pulled again from the start.
    case resyncing(plugin: String, reason: String)
    /// A file download progressed: `received` bytes of `total` (nil while the size is
    /// unknown) for the file cached under `name`.
    case transferProgress(name: String, received: Int64, total: Int64?)
    /// A file download finished: the file cached under `name` is verified and in place,
    /// `bytes` long.
    case transferred(name: String, bytes: Int64)
}
