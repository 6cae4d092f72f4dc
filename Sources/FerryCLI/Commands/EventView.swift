import Foundation
import SyncKernel
import SyncKernelCLI

/// One kernel event as a line of `ferry run --json`: every line has every key, `null`
/// where the event has no such field (docs/json.md lists which events fill which).
struct EventView: Encodable {
    /// `enqueued`, `sent`, `retrying`, `waiting_for_connectivity`, `dead`, `conflict`,
    /// `connectivity`, `needs_login`, `resumed_after_login`, `pulled`, `pull_failed`,
    /// `resyncing`, `transfer_progress` or `transferred`.
    let event: String
    /// When the runner saw it.
    let time: Date
    var plugin, kind, entity, operation, reason, result, name: String?
    var attempts: Int?
    var retryAt: Date?
    var connectivity: ConnectivityState?
    var pulled: PullSummary.Counts?
    var conflict: ConflictView?
    var received, total, bytes: Int64?

    init(_ event: SyncEvent, time: Date, describeConflict: (ConflictReport) -> String? = { _ in nil }) {
        self.time = time
        switch event {
        case .enqueued(let plugin, let kind, let entity, let result):
            self.event = "enqueued"
            (self.plugin, self.kind, self.entity) = (plugin, kind, entity)
            switch result {
            case .inserted(let id): (self.result, operation) = ("inserted", id.lowercasedString)
            case .coalesced(let id): (self.result, operation) = ("coalesced", id.lowercasedString)
            case .cancelled: self.result = "cancelled"
            }
        case .sent(let plugin, let kind, let entity, let operation):
            self.event = "sent"
            (self.plugin, self.kind, self.entity) = (plugin, kind, entity)
            self.operation = operation.lowercasedString
        case .retrying(let plugin, let kind, let operation, let attempts, let at, let reason):
            self.event = "retrying"
            (self.plugin, self.kind, self.operation) = (plugin, kind, operation.lowercasedString)
            (self.attempts, retryAt, self.reason) = (attempts, at, reason)
        case .waitingForConnectivity(let plugin, let operation, let reason):
            self.event = "waiting_for_connectivity"
            (self.plugin, self.operation, self.reason) = (plugin, operation.lowercasedString, reason)
        case .dead(let plugin, let kind, let operation, let reason):
            self.event = "dead"
            (self.plugin, self.kind, self.operation, self.reason) = (plugin, kind, operation.lowercasedString, reason)
        case .conflict(let report):
            self.event = "conflict"
            (plugin, kind, entity) = (report.plugin, report.kind, report.entity)
            operation = report.operationID.lowercasedString
            conflict = ConflictView(report, description: describeConflict(report))
        case .connectivity(let state):
            self.event = "connectivity"
            connectivity = state
        case .needsLogin(let plugin, let reason):
            self.event = "needs_login"
            (self.plugin, self.reason) = (plugin, reason)
        case .resumedAfterLogin(let plugin):
            self.event = "resumed_after_login"
            self.plugin = plugin
        case .pulled(let plugin, let summary):
            self.event = "pulled"
            (self.plugin, pulled) = (plugin, PullSummary.Counts(summary))
        case .pullFailed(let plugin, let reason):
            self.event = "pull_failed"
            (self.plugin, self.reason) = (plugin, reason)
        case .resyncing(let plugin, let reason):
            self.event = "resyncing"
            (self.plugin, self.reason) = (plugin, reason)
        case .transferProgress(let name, let received, let total):
            self.event = "transfer_progress"
            (self.name, self.received, self.total) = (name, received, total)
        case .transferred(let name, let bytes):
            self.event = "transferred"
            (self.name, self.bytes) = (name, bytes)
        }
    }
}
