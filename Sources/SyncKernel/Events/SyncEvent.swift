import Foundation

/// Something the kernel did or saw; the CLI draws these, an app binds its UI to them.
public enum SyncEvent: Sendable, Equatable {
    case enqueued(plugin: String, kind: String, entity: String, result: EnqueueResult)
    case sent(plugin: String, kind: String, entity: String, operation: UUID)
    case retrying(plugin: String, kind: String, operation: UUID, attempts: Int, at: Date, reason: String)
    case waitingForConnectivity(plugin: String, operation: UUID, reason: String)
    case dead(plugin: String, kind: String, operation: UUID, reason: String)
    case conflict(ConflictReport)
    case connectivity(ConnectivityState)
    case needsLogin(plugin: String, reason: String)
    /// A queue held for a login resumed: a credential other than the refused one appeared.
    case resumedAfterLogin(plugin: String)
    case pulled(plugin: String, summary: PullSummary)
    case pullFailed(plugin: String, reason: String)
    /// The remote no longer knew the plugin's cursor: its feed is pulled again from the start.
    case resyncing(plugin: String, reason: String)
    case transferProgress(name: String, received: Int64, total: Int64?)
}
