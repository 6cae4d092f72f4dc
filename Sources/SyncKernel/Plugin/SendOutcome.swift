import Foundation
import GRDB

/// What a successful send tells the kernel.
public struct SendOutcome: Sendable {
    /// The id the remote gave an entity created with a local id; the kernel remaps it.
    public var remoteID: String?
    /// Local changes to commit with the acknowledgement (e.g. the remote's new version), in
    /// the transaction that removes the operation from the outbox. If it throws, neither
    /// happens and the error is classified as the send's failure.
    public var apply: (@Sendable (Database) throws -> Void)?

    /// Creates an outcome.
    ///
    /// ```swift
    /// return SendOutcome(remoteID: created.id) { db in
    ///     try db.execute(sql: "UPDATE notes SET version = ? WHERE id = ?", arguments: [created.version, created.id])
    /// }
    /// ```
    public init(remoteID: String? = nil, apply: (@Sendable (Database) throws -> Void)? = nil) {
        self.remoteID = remoteID
        self.apply = apply
    }

    /// Delivered; nothing else to record.
    public static let delivered = SendOutcome()
}

/// What a pull did, for the runner's summary.
public struct PullSummary: Sendable, Equatable {
    /// Rows inserted or updated from the remote.
    public var upserted: Int
    /// Rows removed because the remote deleted them (or, in a resync, no longer has them).
    public var deleted: Int
    /// Rows kept as they are locally because writes to them are still pending.
    public var rebased: Int

    /// Creates a summary; every count defaults to zero.
    public init(upserted: Int = 0, deleted: Int = 0, rebased: Int = 0) {
        self.upserted = upserted
        self.deleted = deleted
        self.rebased = rebased
    }

    /// The counts of both summaries added up.
    public static func + (lhs: PullSummary, rhs: PullSummary) -> PullSummary {
        PullSummary(
            upserted: lhs.upserted + rhs.upserted,
            deleted: lhs.deleted + rhs.deleted,
            rebased: lhs.rebased + rhs.rebased
        )
    }
}
