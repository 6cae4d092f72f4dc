import Foundation
import SyncKernel

/// Everything the live page draws, at one moment: the shapes of `ferry status --json`,
/// `ferry queue list --json` and `ferry conflicts list --json`, plus transfers in progress
/// and the latest events (as lines of `ferry run --json`). `GET /api/live` returns it and
/// `/events` sends it again whenever something changed.
struct LiveSnapshot: Encodable {
    let status: QueueInspector.Status
    let operations: [OperationView]
    let conflicts: [ConflictView]
    let transfers: [TransferView]
    let events: [EventView]
}

/// A file download the runner saw progress of.
struct TransferView: Encodable, Sendable {
    /// The name the file is cached under.
    let name: String
    let received: Int64
    /// Null while the size is unknown.
    let total: Int64?
    /// When the last progress was seen.
    let updatedAt: Date
}
